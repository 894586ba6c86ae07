/** The list view (a sortable-by-time table of the day) and the floor plan (SVG, live table states). */
import type { Floor, Table } from './data';
import { clockOf } from './time';
import { STATUS, type Placed, type PlacedBlock } from './model';

export function ListView(props: { placed: Placed[]; tables: Map<string, Table>; onOpen: (id: string) => void }) {
  const rows = [...props.placed].sort(
    (a, b) => a.start - b.start || (a.booking.guest_name ?? '').localeCompare(b.booking.guest_name ?? ''),
  );
  return (
    <div className="list-wrap" tabIndex={0} role="region" aria-label="Bookings list">
      <table className="list">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Guest</th>
            <th scope="col">Covers</th>
            <th scope="col">Tables</th>
            <th scope="col">Status</th>
            <th scope="col">Flags</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.booking.id} className={p.conflict ? 'list__row--conflict' : p.tooSmall ? 'list__row--small' : undefined}>
              <td>
                {p.booking.start_time}–{clockOf(p.start + p.duration)}
              </td>
              <td>
                <button type="button" className="link" onClick={() => props.onOpen(p.booking.id)}>
                  {p.booking.guest_name ?? 'Guest'}
                </button>
              </td>
              <td>{p.booking.guest_count}</td>
              <td>{p.booking.table_ids.map((id) => props.tables.get(id)?.table_number ?? '?').join('+') || 'Unassigned'}</td>
              <td>
                <span className={`status-badge status-${p.booking.status}`}>
                  <span aria-hidden="true">{STATUS[p.booking.status]?.icon} </span>
                  {STATUS[p.booking.status]?.label ?? p.booking.status}
                </span>
              </td>
              <td>{[...p.flags, p.conflict ? 'Conflict' : '', p.tooSmall ? 'Too small' : ''].filter(Boolean).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="page">No bookings on this day yet.</p>}
    </div>
  );
}

type TableState = 'free' | 'upcoming' | 'seated' | 'late' | 'blocked';
const STATE_LABEL: Record<TableState, string> = {
  free: 'Free',
  upcoming: 'Booked soon',
  seated: 'Seated',
  late: 'Late',
  blocked: 'Blocked',
};

export function FloorPlan(props: {
  tables: Table[];
  floors: Floor[];
  floorId?: string;
  onFloor: (id: string) => void;
  placed: Placed[];
  blocks: PlacedBlock[];
  nowMinute: number;
  onOpen: (id: string) => void;
  onEmpty: (tableId: string) => void;
}) {
  const floors = [...props.floors].sort((a, b) => a.sort_order - b.sort_order);
  const floor = floors.find((f) => f.id === props.floorId) ?? floors[0];
  const now = props.nowMinute >= 0 ? props.nowMinute : 0;
  const onFloor = props.tables.filter(
    (t) => t.status === 'active' && (!floor || t.floor_id === floor.id || (!t.floor_id && floor === floors[0])),
  );
  const placed = onFloor.map((t, i) => ({ t, x: t.x ?? 40 + (i % 8) * 110, y: t.y ?? 40 + Math.floor(i / 8) * 110 }));
  const width = Math.max(600, ...placed.map((p) => p.x + 120));
  const height = Math.max(300, ...placed.map((p) => p.y + 120));

  const stateOf = (table: Table): { state: TableState; booking?: Placed } => {
    const here = props.placed.filter((p) => p.booking.table_ids.includes(table.id) && p.booking.status !== 'no_show');
    const seated = here.find((p) => p.booking.status === 'checked_in' && !p.closed && p.start <= now + 15 && now < p.start + p.duration);
    if (seated) return { state: 'seated', booking: seated };
    const late = here.find((p) => p.late);
    if (late) return { state: 'late', booking: late };
    if (props.blocks.some((b) => b.block.table_id === table.id && b.start <= now && now < b.end)) return { state: 'blocked' };
    const soon = here.filter((p) => p.start + p.duration > now && p.booking.status !== 'checked_in').sort((a, b) => a.start - b.start)[0];
    if (soon && soon.start - now <= 120) return { state: 'upcoming', booking: soon };
    return { state: 'free', booking: soon };
  };

  return (
    <div className="plan-wrap">
      {floors.length > 1 && (
        <nav className="segmented" aria-label="Floors">
          {floors.map((f) => (
            <button
              key={f.id}
              type="button"
              className="segmented__item"
              aria-current={f.id === floor?.id ? 'page' : undefined}
              onClick={() => props.onFloor(f.id)}
            >
              {f.name}
            </button>
          ))}
        </nav>
      )}
      <p className="legend">
        {(Object.keys(STATE_LABEL) as TableState[]).map((s) => (
          <span key={s} className={`legend__item plan-${s}`}>
            <span className="legend__swatch" aria-hidden="true" /> {STATE_LABEL[s]}
          </span>
        ))}
      </p>
      <svg
        className="plan"
        viewBox={`0 0 ${width} ${height}`}
        style={{ maxWidth: width }}
        role="group"
        aria-label={`Floor plan${floor ? `: ${floor.name}` : ''}`}
      >
        {placed.map(({ t, x, y }) => {
          const { state, booking } = stateOf(t);
          const round = t.shape === 'round' || t.shape === 'circle';
          const size = t.capacity > 4 ? 96 : 72;
          const label = `Table ${t.table_number}, ${t.capacity} seats, ${STATE_LABEL[state]}${booking ? `: ${booking.booking.guest_name ?? 'Guest'} at ${booking.booking.start_time}` : ''}`;
          const activate = () => (booking ? props.onOpen(booking.booking.id) : props.onEmpty(t.id));
          return (
            <g
              key={t.id}
              role="button"
              tabIndex={0}
              aria-label={label}
              className={`plan-table plan-${state}`}
              transform={`translate(${x} ${y})`}
              onClick={activate}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), activate())}
            >
              {round ? <circle cx={size / 2} cy={size / 2} r={size / 2} /> : <rect width={size} height={size * 0.75} rx={8} />}
              <text x={size / 2} y={round ? size / 2 - 4 : size * 0.3} textAnchor="middle" className="plan-number">
                {t.table_number}
              </text>
              <text x={size / 2} y={round ? size / 2 + 14 : size * 0.55} textAnchor="middle" className="plan-sub">
                {booking ? `${booking.booking.start_time} · ${booking.booking.guest_count}` : STATE_LABEL[state]}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
