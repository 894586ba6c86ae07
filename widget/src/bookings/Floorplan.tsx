/**
 * Choosing a table when the access rule lets guests pick: the free tables as a radio group (the
 * accessible control) over an SVG plan of the floor that shows where each one is; clicking a table on
 * the plan chooses it too. Taken tables are drawn hatched and labelled, not told apart by colour alone.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { Alert } from '../ui/Shell';

interface PlanTable {
  id: string;
  table_number: string;
  capacity: number;
  floor_id: string | null;
  available: boolean;
}
interface CanvasItem {
  type: string;
  x?: number | null;
  y?: number | null;
  shape?: string | null;
  size?: string | null;
  tableNumber?: string | number;
}
interface PlanFloor {
  id: string;
  name: string;
  canvas_data: CanvasItem[];
}

const SIZES: Record<string, number> = { small: 40, medium: 56, large: 72 };
/** Room around the tables, and the smallest label, in the drawing's units. */
const PAD = 12;
const LABEL_MIN = 20;

export function Floorplan(props: {
  venueId: string;
  date: string;
  time: string;
  partySize: number;
  ruleId: string;
  /** A new value loads the plan again. */
  version?: number;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const [plan, setPlan] = useState<{ floors: PlanFloor[]; tables: PlanTable[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const query = new URLSearchParams({ date: props.date, time: props.time, party_size: String(props.partySize), rule_id: props.ruleId });
    api<{ floors: PlanFloor[]; tables: PlanTable[] }>(`/api/public/venues/${encodeURIComponent(props.venueId)}/floorplan?${query}`)
      .then(setPlan)
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'The floor plan could not be loaded.'));
  }, [props.venueId, props.date, props.time, props.partySize, props.ruleId, props.version]);

  if (error) return <Alert message={error} />;
  if (!plan) return <p class="mw-hint">Loading the floor plan…</p>;
  const free = plan.tables.filter((table) => table.available);
  return (
    <fieldset class="mw-floorplan">
      <legend>Choose your table</legend>
      {/* Only floors where this booking could sit: a rule limited to the terrace does not draw the main room. */}
      {plan.floors
        .filter((floor) => free.some((table) => table.floor_id === floor.id))
        .map((floor) => (
          <FloorDrawing
            key={floor.id}
            floor={floor}
            tables={plan.tables.filter((t) => t.floor_id === floor.id)}
            value={props.value}
            onPick={props.onChange}
          />
        ))}
      <label class="mw-choice">
        <input type="radio" name="table" checked={props.value === null} onChange={() => props.onChange(null)} />
        Any free table
      </label>
      {free.map((table) => (
        <label class="mw-choice" key={table.id}>
          <input type="radio" name="table" checked={props.value === table.id} onChange={() => props.onChange(table.id)} />
          Table {table.table_number} (seats {table.capacity})
        </label>
      ))}
    </fieldset>
  );
}

function FloorDrawing(props: { floor: PlanFloor; tables: PlanTable[]; value: string | null; onPick: (id: string) => void }) {
  const byNumber = new Map(props.tables.map((table) => [table.table_number, table]));
  const items = props.floor.canvas_data
    .filter((item) => item.type === 'table' && typeof item.x === 'number' && typeof item.y === 'number')
    .map((item) => ({
      item,
      table: byNumber.get(String(item.tableNumber ?? '').trim()),
      size: SIZES[item.size ?? 'medium'] ?? SIZES.medium,
    }));
  if (items.length === 0) return null;
  // The drawing is cropped to its tables (the canvas' margins would shrink them on a phone), and labels
  // are sized in the drawing's units so they stay at least 12 px on a 320 px screen.
  const minX = Math.min(...items.map(({ item }) => item.x ?? 0)) - PAD;
  const minY = Math.min(...items.map(({ item }) => item.y ?? 0)) - PAD;
  const maxX = Math.max(...items.map(({ item, size }) => (item.x ?? 0) + size)) + PAD;
  const maxY = Math.max(...items.map(({ item, size }) => (item.y ?? 0) + size)) + PAD;
  const label = Math.max(LABEL_MIN, Math.round((maxX - minX) / 21));
  return (
    <figure class="mw-plan">
      <figcaption>{props.floor.name}</figcaption>
      <svg
        viewBox={`${minX} ${minY} ${maxX - minX} ${maxY - minY}`}
        role="img"
        aria-label={`Plan of ${props.floor.name}; choose a table from the list below`}
      >
        <defs>
          <pattern id="mw-taken" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="6" stroke="currentColor" stroke-width="2" opacity="0.35" />
          </pattern>
        </defs>
        {items.map(({ item, table, size }, index) => {
          const free = Boolean(table?.available);
          const chosen = table !== undefined && table.id === props.value;
          const x = item.x ?? 0;
          const y = item.y ?? 0;
          const shapeProps = {
            class: chosen ? 'mw-plan-table mw-plan-chosen' : free ? 'mw-plan-table mw-plan-free' : 'mw-plan-table mw-plan-taken',
            fill: free ? undefined : 'url(#mw-taken)',
            onClick: free && table ? () => props.onPick(table.id) : undefined,
          };
          return (
            <g key={index}>
              {item.shape === 'round' || item.shape === 'circle' ? (
                <circle cx={x + size / 2} cy={y + size / 2} r={size / 2} {...shapeProps} />
              ) : (
                <rect x={x} y={y} width={size} height={size} rx={6} {...shapeProps} />
              )}
              <text
                x={x + size / 2}
                y={y + size / 2}
                text-anchor="middle"
                dominant-baseline="central"
                font-size={label}
                class="mw-plan-label"
              >
                {chosen ? `✓${item.tableNumber}` : free ? String(item.tableNumber) : `${item.tableNumber}✕`}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
