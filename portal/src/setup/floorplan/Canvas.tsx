/**
 * The floor as an SVG: each table a focusable element labelled with its number and seats. Drag a table to
 * move it, drag its corner to resize it; Shift-click or Shift+Enter adds it to the selection; arrow keys
 * move the focused table (Shift: a larger step), R turns it, Delete asks to remove it. With "Place tables"
 * on, a click on the empty floor draws a table there.
 */
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { arrowDelta, CANVAS, GRID, isRound, place, rotate, side } from './geometry';
import type { PlanDoc, PlanTable } from './model';

interface Drag {
  key: string;
  mode: 'move' | 'resize';
  startX: number;
  startY: number;
  dx: number;
  dy: number;
}

export const tableLabel = (table: PlanTable) =>
  `Table ${table.number}, ${table.minCovers === table.maxCovers ? table.maxCovers : `${table.minCovers} to ${table.maxCovers}`} seats`;

export function Canvas(props: {
  doc: PlanDoc;
  selected: string[];
  snapping: boolean;
  placing: boolean;
  onSelect: (keys: string[]) => void;
  onChange: (key: string, change: Partial<PlanTable>) => void;
  onPlace: (x: number, y: number) => void;
  onDelete: (key: string) => void;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);

  const point = (event: { clientX: number; clientY: number }) => {
    const matrix = svg.current?.getScreenCTM()?.inverse();
    if (!matrix) return { x: event.clientX, y: event.clientY };
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
    return { x: p.x, y: p.y };
  };

  const select = (key: string, add: boolean) => {
    if (!add) props.onSelect([key]);
    else props.onSelect(props.selected.includes(key) ? props.selected.filter((k) => k !== key) : [...props.selected, key]);
  };

  const start = (event: PointerEvent, table: PlanTable, mode: Drag['mode']) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    if (mode === 'move') select(table.key, event.shiftKey);
    if (event.shiftKey && mode === 'move') return;
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
    const p = point(event);
    setDrag({ key: table.key, mode, startX: p.x, startY: p.y, dx: 0, dy: 0 });
  };

  const move = (event: PointerEvent) => {
    if (!drag) return;
    const p = point(event);
    setDrag({ ...drag, dx: p.x - drag.startX, dy: p.y - drag.startY });
  };

  const end = () => {
    if (!drag) return;
    const table = props.doc.tables.find((t) => t.key === drag.key);
    setDrag(null);
    if (!table || (Math.abs(drag.dx) < 2 && Math.abs(drag.dy) < 2)) return;
    props.onChange(table.key, shown(table, drag, props.snapping));
  };

  const keyDown = (event: KeyboardEvent, table: PlanTable) => {
    const delta = arrowDelta(event.key, event.shiftKey);
    if (delta) {
      event.preventDefault();
      props.onChange(table.key, place(table.x + delta.dx, table.y + delta.dy, table.width, table.height, props.snapping));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(table.key, event.shiftKey);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      props.onDelete(table.key);
    } else if (event.key === 'r' || event.key === 'R') {
      event.preventDefault();
      props.onChange(table.key, { rotation: rotate(table.rotation, event.shiftKey ? -15 : 15) });
    } else if (event.key === 'Escape') {
      props.onSelect([]);
    }
  };

  // Tables placed beyond the usual canvas (by another editor) stay in view.
  const width = Math.max(CANVAS.width, ...props.doc.tables.map((t) => t.x + t.width + GRID * 2));
  const height = Math.max(CANVAS.height, ...props.doc.tables.map((t) => t.y + t.height + GRID * 2));
  const byKey = new Map(props.doc.tables.map((t) => [t.key, drag?.key === t.key ? { ...t, ...shown(t, drag, props.snapping) } : t]));

  return (
    <svg
      ref={svg}
      className={`fp-canvas${props.placing ? ' fp-canvas--placing' : ''}`}
      viewBox={`0 0 ${width} ${height}`}
      role="group"
      aria-label="Floor plan editor"
      aria-describedby="fp-keys"
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={() => setDrag(null)}
      onPointerDown={(event) => {
        if (event.target !== event.currentTarget && !(event.target as Element).classList.contains('fp-grid')) return;
        if (props.placing) {
          const p = point(event);
          props.onPlace(p.x, p.y);
        } else props.onSelect([]);
      }}
    >
      <defs>
        <pattern id="fp-grid" width={GRID * 5} height={GRID * 5} patternUnits="userSpaceOnUse">
          <path d={`M ${GRID * 5} 0 L 0 0 0 ${GRID * 5}`} fill="none" className="fp-grid-line" />
        </pattern>
      </defs>
      <rect className="fp-grid" width={width} height={height} fill="url(#fp-grid)" />
      {props.doc.decor.map((item, i) =>
        typeof item.text === 'string' && typeof item.x === 'number' && typeof item.y === 'number' ? (
          <text key={i} x={item.x} y={item.y + 14} className="fp-label" aria-hidden="true">
            {item.text}
          </text>
        ) : null,
      )}
      {props.doc.combos.map((combo) => {
        const members = combo.tables.map((key) => byKey.get(key)).filter((t): t is PlanTable => Boolean(t));
        if (members.length < 2) return null;
        const x = Math.min(...members.map((t) => t.x)) - 8;
        const y = Math.min(...members.map((t) => t.y)) - 8;
        const w = Math.max(...members.map((t) => t.x + t.width)) - x + 8;
        const h = Math.max(...members.map((t) => t.y + t.height)) - y + 8;
        return (
          <g key={`${combo.name}-${combo.tables.join()}`} className="fp-combo" aria-hidden="true">
            <rect x={x} y={y} width={w} height={h} rx={12} />
            <text x={x + 6} y={y - 4}>
              {combo.name}
            </text>
          </g>
        );
      })}
      {props.doc.tables.map((original) => {
        const table = byKey.get(original.key)!;
        const selected = props.selected.includes(table.key);
        return (
          <g
            key={table.key}
            className={`fp-table${selected ? ' fp-table--selected' : ''}`}
            role="button"
            tabIndex={0}
            aria-label={tableLabel(table)}
            aria-pressed={selected}
            data-key={table.key}
            transform={`translate(${table.x} ${table.y}) rotate(${table.rotation} ${table.width / 2} ${table.height / 2})`}
            onPointerDown={(event) => start(event, original, 'move')}
            onKeyDown={(event) => keyDown(event, original)}
          >
            {isRound(table.shape) ? (
              <ellipse cx={table.width / 2} cy={table.height / 2} rx={table.width / 2} ry={table.height / 2} className="fp-table__top" />
            ) : (
              <rect width={table.width} height={table.height} rx={6} className="fp-table__top" />
            )}
            <text x={table.width / 2} y={table.height / 2 - 2} textAnchor="middle" className="fp-table__number">
              {table.number}
            </text>
            <text x={table.width / 2} y={table.height / 2 + 14} textAnchor="middle" className="fp-table__seats">
              {table.minCovers}–{table.maxCovers}
            </text>
            {selected && props.selected.length === 1 && (
              <rect
                className="fp-handle"
                x={table.width - 7}
                y={table.height - 7}
                width={14}
                height={14}
                onPointerDown={(event) => start(event, original, 'resize')}
              />
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** A table as it shows while dragged: moved or resized, snapped to the grid when snapping. */
function shown(table: PlanTable, drag: Drag, snapping: boolean): Partial<PlanTable> {
  if (drag.mode === 'resize') {
    const width = side(table.width + drag.dx, snapping);
    const height = side(table.height + drag.dy, snapping);
    return { width, height, ...place(table.x, table.y, width, height, false) };
  }
  return place(table.x + drag.dx, table.y + drag.dy, table.width, table.height, snapping);
}
