/**
 * The floorplan editor (`/setup/floorplan?venue=`): the venue's floors, each drawn as an SVG of its tables
 * with their combinations; a panel to edit the selection, block a table, and manage seating areas. Every
 * edit shows at once, is saved a moment later through the table endpoints, and can be undone and redone
 * (Ctrl+Z, Ctrl+Shift+Z).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Checkbox, ToggleButton } from 'react-aria-components';
import { api, call } from '../../api/client';
import { floorplanRoute } from '../../router';
import { useCan, useCurrentVenue, type Venue } from '../../shell/account';
import { SetupNav, SetupNeedsVenue } from '../SetupNav';
import { Areas } from './Areas';
import { Blocks } from './Blocks';
import { Canvas } from './Canvas';
import { ConfirmDialog } from './Dialogs';
import { FloorBar } from './FloorBar';
import { freeSpot, nextTableNumber, place } from './geometry';
import { Inspector } from './Inspector';
import { addCombo, removeCombo, removeTables, updateTable, type PlanTable } from './model';
import { useFloorplan } from './useFloorplan';
import './floorplan.css';

const NEW_TABLE = { width: 100, height: 70, minCovers: 2, maxCovers: 4, shape: 'rect', rotation: 0 };

export default function FloorplanPage() {
  const venue = useCurrentVenue();
  if (!venue) return <SetupNeedsVenue title="Floor plan" />;
  return <FloorplanEditor venue={venue} />;
}

function FloorplanEditor({ venue }: { venue: Venue }) {
  const venueId = venue.id;
  const can = useCan();
  const search = floorplanRoute.useSearch();
  const navigate = useNavigate({ from: '/setup/floorplan' });
  const client = useQueryClient();
  const path = { params: { path: { venueId } } };
  const floors = useQuery({
    queryKey: ['floorplan', venueId, 'floors'],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/floors', path)),
  });
  const areas = useQuery({
    queryKey: ['floorplan', venueId, 'areas'],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/seating-areas', path)),
  });
  const tables = useQuery({
    queryKey: ['floorplan', venueId, 'tables'],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables', path)),
  });
  const sorted = useMemo(() => [...(floors.data?.data ?? [])].sort((a, b) => a.sort_order - b.sort_order), [floors.data]);
  const current = sorted.find((f) => f.id === search.floor) ?? sorted[0];

  // The reservation floor reads the same tables: after a save both are refetched.
  const onSaved = useCallback(() => {
    void client.invalidateQueries({ queryKey: ['floorplan', venueId, 'tables'] });
    void client.invalidateQueries({ queryKey: ['floor', venueId] });
  }, [client, venueId]);
  const fp = useFloorplan(venueId, current?.id, onSaved);
  const { doc, change, undo, redo } = fp;

  const [selected, setSelected] = useState<string[]>([]);
  const [placing, setPlacing] = useState(false);
  const [snapping, setSnapping] = useState(true);
  const [deleting, setDeleting] = useState<PlanTable | null>(null);
  const focusKey = useRef<string | null>(null);
  const counter = useRef(0);
  const writable = can('tables', 'write');

  useEffect(() => setSelected([]), [current?.id]);
  useEffect(() => {
    if (!focusKey.current) return;
    document.querySelector<SVGGElement>(`.fp-table[data-key="${focusKey.current}"]`)?.focus();
    focusKey.current = null;
  }, [doc]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (
        !(event.ctrlKey || event.metaKey) ||
        (event.target as HTMLElement).closest('input, textarea, [role="dialog"], [role="alertdialog"]')
      )
        return;
      const key = event.key.toLowerCase();
      if (key === 'z' && event.shiftKey) redo();
      else if (key === 'z') undo();
      else if (key === 'y') redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  // Leaving the page with a change not yet saved asks first.
  const { pending } = fp;
  useEffect(() => {
    if (!pending) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);

  const numbersElsewhere = useMemo(
    () => new Set((tables.data?.data ?? []).filter((t) => t.floor_id !== current?.id).map((t) => t.table_number)),
    [tables.data, current?.id],
  );

  const addTable = (at?: { x: number; y: number }) => {
    const number = nextTableNumber([...numbersElsewhere, ...doc.tables.map((t) => t.number)]);
    const spot = at
      ? place(at.x - NEW_TABLE.width / 2, at.y - NEW_TABLE.height / 2, NEW_TABLE.width, NEW_TABLE.height, snapping)
      : freeSpot(doc.tables, NEW_TABLE.width, NEW_TABLE.height);
    counter.current += 1;
    const key = `new-${Date.now()}-${counter.current}`;
    change({ ...doc, tables: [...doc.tables, { key, number, ...NEW_TABLE, ...spot, areaId: null, extra: {} }] });
    setSelected([key]);
    focusKey.current = key;
  };

  const changeTable = (key: string, patch: Partial<PlanTable>) => change(updateTable(doc, key, patch));
  const askDelete = (key: string) => setDeleting(doc.tables.find((t) => t.key === key) ?? null);
  const one = selected.length === 1 ? doc.tables.find((t) => t.key === selected[0]) : undefined;
  const oneId = one ? (tables.data?.data ?? []).find((t) => t.table_number === one.number && t.floor_id === current?.id)?.id : undefined;

  const status =
    fp.status.state === 'error' ? null : fp.status.state === 'loading' ? 'Loading…' : pending ? 'Saving…' : 'All changes saved';

  return (
    <main className="page fp" id="main">
      <SetupNav venueId={venueId} />
      <div className="setup__head">
        <h1>Floor plan</h1>
        <p className="fp-status" role="status">
          {status}
        </p>
      </div>
      {fp.status.state === 'error' && (
        <p className="error" role="alert">
          {fp.status.message}
        </p>
      )}
      {floors.error && (
        <p className="error" role="alert">
          {floors.error.message}
        </p>
      )}
      {!writable && (
        <p className="notice">
          Changing the floor plan needs the tables permission; the{' '}
          <Link to="/floor" search={{ venue: venueId, view: 'floor' }}>
            reservation floor
          </Link>{' '}
          shows it.
        </p>
      )}
      {writable && (
        <FloorBar
          venueId={venueId}
          floors={sorted}
          current={current}
          onSwitch={(id) => void fp.flush().then(() => navigate({ search: (prev) => ({ ...prev, floor: id }) }))}
          onChanged={() => client.invalidateQueries({ queryKey: ['floorplan', venueId] })}
        />
      )}
      {floors.data && sorted.length === 0 && <p>This venue has no floors yet: add one to start drawing.</p>}
      {current && writable && (
        <>
          <div className="toolbar fp-tools" role="toolbar" aria-label="Editing">
            <Button className="button button--primary" onPress={() => addTable()}>
              Add table
            </Button>
            <ToggleButton className="button" isSelected={placing} onChange={setPlacing}>
              Place tables by clicking
            </ToggleButton>
            <Checkbox className="checkbox" isSelected={snapping} onChange={setSnapping}>
              <span className="checkbox__box" aria-hidden="true" />
              Snap to grid
            </Checkbox>
            <Button className="button" onPress={undo} isDisabled={!fp.canUndo}>
              Undo
            </Button>
            <Button className="button" onPress={redo} isDisabled={!fp.canRedo}>
              Redo
            </Button>
          </div>
          <p id="fp-keys" className="muted fp-keys">
            Tab to a table; arrow keys move it (Shift: further), R turns it, Enter selects, Shift+Enter adds to the selection, Delete
            removes it. Ctrl+Z undoes, Ctrl+Shift+Z redoes.
          </p>
          <div className="fp-layout">
            <div className="fp-stage">
              <Canvas
                doc={doc}
                selected={selected}
                snapping={snapping}
                placing={placing}
                onSelect={setSelected}
                onChange={changeTable}
                onPlace={(x, y) => addTable({ x, y })}
                onDelete={askDelete}
              />
            </div>
            <div className="fp-side">
              <Inspector
                doc={doc}
                selected={selected}
                areas={areas.data?.data ?? []}
                numbersElsewhere={numbersElsewhere}
                onChange={changeTable}
                onDelete={askDelete}
                onCombine={(name) => {
                  change(addCombo(doc, name, selected));
                  setSelected([]);
                }}
                onRemoveCombo={(index) => change(removeCombo(doc, index))}
              />
              {one && oneId && <Blocks venueId={venueId} timeZone={venue.timezone} tableId={oneId} tableNumber={one.number} />}
              <Areas
                venueId={venueId}
                areas={areas.data?.data ?? []}
                onChanged={() => client.invalidateQueries({ queryKey: ['floorplan', venueId, 'areas'] })}
              />
            </div>
          </div>
        </>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete table ${deleting.number}?`}
          text="The table is deleted with its blocks and combinations (Undo draws it again, without its blocks). A table with upcoming bookings cannot be deleted."
          action="Delete table"
          onClose={() => setDeleting(null)}
          onConfirm={() => {
            change(removeTables(doc, [deleting.key]));
            setSelected([]);
          }}
        />
      )}
    </main>
  );
}
