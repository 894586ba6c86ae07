/**
 * The grid: tables (grouped by area) × the service day. Rows are one element each (the 15-minute lines are
 * their background), pills and blocks are absolutely placed over them, so a day of 80 tables and 300
 * bookings is a few hundred elements. Pills move by drag (time and tables together: along in 15-minute
 * steps, up and down with every table of a combination together; the right edge resizes in 15-minute steps;
 * to and from the unassigned strip) and by keyboard (arrows left/right: 15 minutes earlier or later; up/down:
 * table; Shift+arrows left/right: length; Enter commits; Escape cancels). The pills themselves are Pill.tsx.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Table } from './data';
import { DAY_MINUTES, SNAP, clockOf, snap } from './time';
import { GROUP_HEIGHT, LABEL_WIDTH, PX_PER_MINUTE, ROW_HEIGHT, type Layout, type Placed, type PlacedBlock } from './model';
import { PacingRow } from './PacingRow';
import { Pill, pillLabel } from './Pill';

export interface Slot {
  tableId: string | null;
  minute: number;
  kind?: 'reservation' | 'walk_in' | 'block';
}

interface Proposal {
  booking_id: string;
  to: { table_ids: string[]; table_numbers: string[] };
}

interface Pending {
  placed: Placed;
  mode: 'move' | 'resize' | 'assign';
  rows: number;
  /** Resize: minutes added to the length. */
  minutes: number;
  /** Move: minutes the start moves by (15-minute steps). */
  shift: number;
  /** Pointer drags: where it started; keyboard moves have none. */
  origin?: { x: number; y: number };
  over?: 'strip' | 'grid';
  pointerRow?: number;
}

const WIDTH = DAY_MINUTES * PX_PER_MINUTE;

/** A move the grid asks for: new tables (absent: the same), a new start (service minute; absent: the same). */
export interface MoveTo {
  tableIds?: string[];
  start?: number;
}

export function Grid(props: {
  layout: Layout;
  placed: Placed[];
  blocks: PlacedBlock[];
  unassigned: Placed[];
  nowMinute: number;
  writable: boolean;
  proposals: Proposal[];
  onOpen: (id: string) => void;
  onEmpty: (slot: Slot) => void;
  onMove: (placed: Placed, to: MoveTo, label: string) => void;
  onResize: (placed: Placed, minutes: number) => void;
  onAnnounce: (text: string) => void;
  /** Covers starting in each 15 minutes of the service day: drawn under the grid, on its time scale. */
  pacing: number[];
}) {
  const { layout, placed, nowMinute } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const strip = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  // A drag ends in a click on the pill: that click must not open the drawer.
  const dragged = useRef(false);

  // How long a render of the grid takes, to its DOM being in place (the browser tests read the measures).
  performance.mark('floor-grid:render');
  const shown = useRef(-1);
  useLayoutEffect(() => {
    // `fresh`: this render put a new set of bookings on the grid (not a refresh of the same ones).
    const fresh = shown.current !== placed.length;
    shown.current = placed.length;
    performance.measure('floor-grid', {
      start: 'floor-grid:render',
      detail: { tables: layout.tableRows.length, bookings: placed.length, fresh },
    });
  });

  // Open at "now" (or the evening's first booking): the now line a quarter in from the left.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = placed.length ? Math.min(...placed.map((p) => p.start)) : 11 * 60;
    const target = nowMinute >= 0 ? nowMinute : first;
    el.scrollLeft = Math.max(0, target * PX_PER_MINUTE - (el.clientWidth - LABEL_WIDTH) / 4);
    // Only when the day or the first load changes, not on each refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nowMinute >= 0, placed.length > 0]);

  const targetTables = (p: Pending): Table[] | null => {
    const ids = p.placed.booking.table_ids;
    if (p.mode === 'assign') {
      const row = p.pointerRow;
      return row === undefined || row < 0 || row >= layout.tableRows.length ? null : [layout.tableRows[row]];
    }
    const moved = ids.map((id) => (layout.tableIndex.get(id) ?? -999) + p.rows);
    if (moved.some((i) => i < 0 || i >= layout.tableRows.length)) return null;
    return moved.map((i) => layout.tableRows[i]);
  };
  /** Where a move would start (service minute), kept inside the day. */
  const startOf = (p: Pending) => Math.min(DAY_MINUTES - SNAP, Math.max(0, p.placed.start + (p.mode === 'move' ? p.shift : 0)));
  const tablesLabel = (tables: Table[]) => `table ${tables.map((t) => t.table_number).join('+')}`;
  const describe = (p: Pending) => {
    const name = p.placed.booking.guest_name ?? 'Booking';
    if (p.mode === 'resize') return `${name}: ${clockOf(p.placed.start)}–${clockOf(p.placed.start + p.placed.duration + p.minutes)}`;
    if (p.over === 'strip') return `${name}: drop to unassign`;
    const tables = targetTables(p);
    if (!tables) return `${name}: no table there`;
    return p.mode === 'move' && startOf(p) !== p.placed.start
      ? `${name}: ${clockOf(startOf(p))}, ${tablesLabel(tables)}`
      : `${name}: ${tablesLabel(tables)}`;
  };

  const commit = (p: Pending) => {
    setPending(null);
    if (p.mode === 'resize') {
      const minutes = Math.max(SNAP, p.placed.duration + p.minutes);
      if (minutes !== p.placed.duration) props.onResize(p.placed, minutes);
      return;
    }
    if (p.over === 'strip') {
      if (p.placed.booking.table_ids.length) props.onMove(p.placed, { tableIds: [] }, 'the unassigned strip');
      return;
    }
    const tables = targetTables(p);
    if (!tables) return;
    const ids = tables.map((t) => t.id);
    const sameTables = ids.join() === p.placed.booking.table_ids.join();
    const start = startOf(p);
    if (start !== p.placed.start) {
      const label = `${clockOf(start)}${sameTables ? '' : `, ${tablesLabel(tables)}`}`;
      props.onMove(p.placed, { start, ...(sameTables ? {} : { tableIds: ids }) }, label);
    } else if (!sameTables) props.onMove(p.placed, { tableIds: ids }, tablesLabel(tables));
  };

  const rowAt = (clientY: number) => {
    const rect = body.current!.getBoundingClientRect();
    const y = clientY - rect.top;
    let found = -1;
    layout.rowY.forEach((top, i) => {
      if (y >= top && y < top + ROW_HEIGHT) found = i;
    });
    return found;
  };
  const overStrip = (x: number, y: number) => {
    const rect = strip.current?.getBoundingClientRect();
    return Boolean(rect && x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom);
  };

  const startDrag = (event: PointerEvent<HTMLElement>, p: Placed, mode: Pending['mode']) => {
    dragged.current = false;
    if (!props.writable || event.button !== 0 || p.booking.table_locked) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setPending({ placed: p, mode, rows: 0, minutes: 0, shift: 0, origin: { x: event.clientX, y: event.clientY } });
  };
  const dragMove = (event: PointerEvent<HTMLElement>) => {
    if (!pending?.origin) return;
    const dx = event.clientX - pending.origin.x;
    const dy = event.clientY - pending.origin.y;
    const over = overStrip(event.clientX, event.clientY) ? 'strip' : 'grid';
    if (pending.mode === 'resize') setPending({ ...pending, minutes: snap(dx / PX_PER_MINUTE) });
    else if (pending.mode === 'assign') setPending({ ...pending, over, pointerRow: rowAt(event.clientY) });
    else {
      const from = layout.tableIndex.get(pending.placed.booking.table_ids[0]) ?? 0;
      const row = rowAt(event.clientY);
      // Time and table together: along the row in 15-minute steps, across rows by table.
      setPending({ ...pending, over, rows: row >= 0 ? row - from : Math.round(dy / ROW_HEIGHT), shift: snap(dx / PX_PER_MINUTE) });
    }
  };
  const dragEnd = (event: PointerEvent<HTMLElement>) => {
    if (!pending?.origin) return;
    const moved = Math.abs(event.clientX - pending.origin.x) + Math.abs(event.clientY - pending.origin.y) > 4;
    dragged.current = moved;
    if (!moved) {
      setPending(null);
      return;
    }
    commit(pending);
  };

  const keyDown = (event: KeyboardEvent<HTMLElement>, p: Placed) => {
    if (!props.writable) return;
    const current = pending && pending.placed.booking.id === p.booking.id && !pending.origin ? pending : null;
    const next = (change: Partial<Pending>) => {
      const value: Pending = { ...(current ?? { placed: p, mode: 'move', rows: 0, minutes: 0, shift: 0 }), ...change };
      setPending(value);
      props.onAnnounce(`${describe(value)}. Enter to confirm, Escape to cancel.`);
      event.preventDefault();
    };
    if (p.booking.table_ids.length === 0 && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) return;
    // A move and a resize are separate steps: starting one drops what the other had pending.
    const moving = current?.mode === 'move' ? current : null;
    if (event.key === 'ArrowDown' && !event.shiftKey) next({ mode: 'move', minutes: 0, rows: (moving?.rows ?? 0) + 1 });
    else if (event.key === 'ArrowUp' && !event.shiftKey) next({ mode: 'move', minutes: 0, rows: (moving?.rows ?? 0) - 1 });
    else if (event.key === 'ArrowRight' && !event.shiftKey)
      next({ mode: 'move', minutes: 0, shift: Math.min(DAY_MINUTES - SNAP - p.start, (moving?.shift ?? 0) + SNAP) });
    else if (event.key === 'ArrowLeft' && !event.shiftKey)
      next({ mode: 'move', minutes: 0, shift: Math.max(-p.start, (moving?.shift ?? 0) - SNAP) });
    else if (event.key === 'ArrowRight' && event.shiftKey)
      next({ mode: 'resize', rows: 0, shift: 0, minutes: (current?.minutes ?? 0) + SNAP });
    else if (event.key === 'ArrowLeft' && event.shiftKey)
      next({ mode: 'resize', rows: 0, shift: 0, minutes: Math.max(SNAP - p.duration, (current?.minutes ?? 0) - SNAP) });
    else if (event.key === 'Enter' && current) {
      event.preventDefault();
      commit(current);
    } else if (event.key === 'Escape' && current) {
      event.preventDefault();
      setPending(null);
      props.onAnnounce('Move cancelled');
    }
  };

  const openUnlessDragged = (id: string) => {
    if (dragged.current) dragged.current = false;
    else props.onOpen(id);
  };

  const emptyClick = (event: React.MouseEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('.pill, .block, .row__label')) return;
    const rect = body.current!.getBoundingClientRect();
    const minute = Math.floor((event.clientX - rect.left - LABEL_WIDTH) / PX_PER_MINUTE / SNAP) * SNAP;
    const row = rowAt(event.clientY);
    if (row < 0 || minute < 0) return;
    props.onEmpty({ tableId: layout.tableRows[row].id, minute });
  };

  const proposals = new Map(props.proposals.map((m) => [m.booking_id, m]));

  return (
    <div className="grid-wrap">
      <div className={`strip ${pending?.over === 'strip' ? 'strip--over' : ''}`} ref={strip} aria-label="Unassigned bookings" role="group">
        <span className="strip__title">Unassigned</span>
        {props.unassigned.length === 0 && <span className="muted">None: drop a booking here to take it off its table.</span>}
        {props.unassigned.map((p) => (
          <button
            key={p.booking.id}
            type="button"
            className={`chip status-${p.booking.status}`}
            onPointerDown={(e) => startDrag(e, p, 'assign')}
            onPointerMove={dragMove}
            onPointerUp={dragEnd}
            onClick={() => openUnlessDragged(p.booking.id)}
            aria-label={`${pillLabel(p)}. Drag onto a table to seat.`}
          >
            <strong>{p.booking.start_time}</strong> {p.booking.guest_name ?? 'Guest'} · {p.booking.guest_count}
          </button>
        ))}
      </div>
      <div className="grid" ref={scroller} tabIndex={0} role="region" aria-label="Reservations by table and time">
        <div className="grid__inner" style={{ width: LABEL_WIDTH + WIDTH }}>
          <div className="grid__head">
            <div className="grid__corner">Table</div>
            <div className="grid__hours" style={{ width: WIDTH }}>
              {Array.from({ length: 24 }, (_, h) => (
                <span key={h} style={{ left: h * 60 * PX_PER_MINUTE }}>
                  {clockOf(h * 60)}
                </span>
              ))}
            </div>
          </div>
          <PacingRow steps={props.pacing} />
          <div className="grid__body" ref={body} style={{ height: layout.height }} onClick={emptyClick}>
            {layout.rows.map((row) =>
              row.kind === 'group' ? (
                <div key={row.key} className="row row--group" style={{ height: GROUP_HEIGHT }}>
                  <div className="row__label">
                    {row.name}{' '}
                    <span className="muted">
                      · {row.tables} tables · {row.covers} covers
                    </span>
                  </div>
                </div>
              ) : (
                <div
                  key={row.key}
                  className={`row ${pending && (targetTables(pending) ?? []).some((t) => t.id === row.table.id) ? 'row--target' : ''}`}
                  style={{ height: ROW_HEIGHT }}
                >
                  <div className="row__label">
                    <strong>{row.table.table_number}</strong>
                    <span className="muted">
                      {row.table.min_covers > 1 ? `${row.table.min_covers}–` : '1–'}
                      {row.table.capacity}
                    </span>
                  </div>
                </div>
              ),
            )}
            <div className="layer" style={{ left: LABEL_WIDTH, width: WIDTH }}>
              {props.blocks.map((b) => {
                const i = layout.tableIndex.get(b.block.table_id);
                if (i === undefined) return null;
                return (
                  <div
                    key={b.block.id}
                    className="block"
                    style={{
                      top: layout.rowY[i] + 3,
                      left: b.start * PX_PER_MINUTE,
                      width: (b.end - b.start) * PX_PER_MINUTE,
                      height: ROW_HEIGHT - 6,
                    }}
                  >
                    <span>Blocked: {b.block.reason}</span>
                  </div>
                );
              })}
              {placed.map((p) =>
                p.booking.table_ids.map((tableId) => {
                  const i = layout.tableIndex.get(tableId);
                  if (i === undefined) return null;
                  const active = pending?.placed.booking.id === p.booking.id ? pending : null;
                  return (
                    <Pill
                      key={`${p.booking.id}-${tableId}`}
                      p={p}
                      top={layout.rowY[i]}
                      first={tableId === p.booking.table_ids[0]}
                      dragging={Boolean(active)}
                      writable={props.writable}
                      onPointerDown={startDrag}
                      onPointerMove={dragMove}
                      onPointerUp={dragEnd}
                      onKeyDown={keyDown}
                      onOpen={openUnlessDragged}
                    />
                  );
                }),
              )}
              {pending &&
                pending.over !== 'strip' &&
                (() => {
                  const tables =
                    pending.mode === 'resize'
                      ? pending.placed.booking.table_ids.map((id) => layout.tableRows[layout.tableIndex.get(id) ?? -1]).filter(Boolean)
                      : targetTables(pending);
                  const width = (pending.placed.duration + (pending.mode === 'resize' ? pending.minutes : 0)) * PX_PER_MINUTE;
                  return (tables ?? []).map((t) => (
                    <div
                      key={`ghost-${t.id}`}
                      className="ghost"
                      aria-hidden="true"
                      style={{
                        top: layout.rowY[layout.tableIndex.get(t.id)!] + 3,
                        left: startOf(pending) * PX_PER_MINUTE,
                        width,
                        height: ROW_HEIGHT - 6,
                      }}
                    >
                      {describe(pending)}
                    </div>
                  ));
                })()}
              {placed.map((p) => {
                const move = proposals.get(p.booking.id);
                if (!move) return null;
                return move.to.table_ids.map((id) => {
                  const i = layout.tableIndex.get(id);
                  if (i === undefined) return null;
                  return (
                    <div
                      key={`proposal-${p.booking.id}-${id}`}
                      className="proposal"
                      style={{
                        top: layout.rowY[i] + 3,
                        left: p.start * PX_PER_MINUTE,
                        width: p.duration * PX_PER_MINUTE,
                        height: ROW_HEIGHT - 6,
                      }}
                    >
                      → {p.booking.guest_name ?? 'Guest'} ({p.booking.guest_count})
                    </div>
                  );
                });
              })}
              {props.nowMinute >= 0 && (
                <div className="now" style={{ left: props.nowMinute * PX_PER_MINUTE }} aria-hidden="true">
                  <span>{clockOf(props.nowMinute)}</span>
                </div>
              )}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
