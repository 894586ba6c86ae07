/**
 * A booking's pill on the grid (one element per table it sits at) and the spoken label it shares with
 * the unassigned strip's chips. The pill picks move or resize from where the pointer goes down (its right
 * edge resizes) and hands pointer and key events to the grid (Grid.tsx), which owns the pending move.
 */
import { memo, type KeyboardEvent, type PointerEvent } from 'react';
import { clockOf } from './time';
import { PX_PER_MINUTE, ROW_HEIGHT, STATUS, type Placed } from './model';

/** What a screen reader hears for a booking: guest, covers, times, status, flags and problems. */
export function pillLabel(p: Placed): string {
  const b = p.booking;
  return [
    b.guest_name ?? 'Guest',
    `${b.guest_count} covers`,
    `${b.start_time}–${clockOf(p.start + p.duration)}`,
    STATUS[b.status]?.label ?? b.status,
    ...p.flags,
    p.conflict ? 'Conflict: overlaps another booking' : '',
    p.tooSmall ? 'Table too small' : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** Within this many pixels of a pill's right edge, a drag resizes it instead of moving it. */
const RESIZE_EDGE = 10;

export const Pill = memo(function Pill(props: {
  p: Placed;
  top: number;
  first: boolean;
  dragging: boolean;
  writable: boolean;
  onPointerDown: (e: PointerEvent<HTMLElement>, p: Placed, mode: 'move' | 'resize') => void;
  onPointerMove: (e: PointerEvent<HTMLElement>) => void;
  onPointerUp: (e: PointerEvent<HTMLElement>) => void;
  onKeyDown: (e: KeyboardEvent<HTMLElement>, p: Placed) => void;
  onOpen: (id: string) => void;
}) {
  const { p } = props;
  const b = p.booking;
  const status = STATUS[b.status] ?? { label: b.status, icon: '' };
  const resizable = props.writable && !b.table_locked;
  const classes = [
    'pill',
    `status-${b.status}`,
    p.conflict && 'pill--conflict',
    p.tooSmall && 'pill--small',
    p.late && 'pill--late',
    p.arrived && 'pill--arrived',
    p.closed && 'pill--closed',
    props.dragging && 'pill--dragging',
    resizable && 'pill--resizable',
  ]
    .filter(Boolean)
    .join(' ');
  const flags = [
    status.label,
    ...p.flags.map((f) => (f === 'Locked' ? '🔒 Locked' : f === 'Confirmed by guest' ? '✓ Confirmed by guest' : f)),
    p.conflict && 'Conflict',
    p.tooSmall && 'Too small',
  ]
    .filter(Boolean)
    .join(' · ');
  // One element per pill (plus its two lines): a day of 300 bookings stays a light DOM.
  return (
    <button
      type="button"
      className={classes}
      style={{ top: props.top + 3, left: p.start * PX_PER_MINUTE, width: Math.max(p.duration * PX_PER_MINUTE, 28), height: ROW_HEIGHT - 6 }}
      tabIndex={props.first ? 0 : -1}
      aria-label={pillLabel(p)}
      aria-keyshortcuts={
        props.writable ? 'ArrowLeft ArrowRight ArrowUp ArrowDown Shift+ArrowLeft Shift+ArrowRight Enter Escape' : undefined
      }
      onPointerDown={(e) => {
        const rect = e.currentTarget.getBoundingClientRect();
        props.onPointerDown(e, p, resizable && rect.right - e.clientX <= RESIZE_EDGE ? 'resize' : 'move');
      }}
      onPointerMove={props.onPointerMove}
      onPointerUp={props.onPointerUp}
      onClick={() => props.onOpen(b.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !props.dragging) {
          props.onOpen(b.id);
          e.preventDefault();
          return;
        }
        props.onKeyDown(e, p);
      }}
    >
      <span className="pill__line">
        {status.icon} <b>{b.guest_name ?? 'Guest'}</b> · {b.guest_count} · {b.start_time}
      </span>
      <span className="pill__flags">{flags}</span>
    </button>
  );
});
