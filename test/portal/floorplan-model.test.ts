/**
 * The floorplan editor's pure parts: undo and redo, snapping and arrow steps, and the save plan that
 * turns an edited document into API calls (what is created, renumbered, deleted, combined).
 */
import { describe, expect, it } from 'vitest';
import { historyReducer, HISTORY_LIMIT, startHistory } from '../../portal/src/setup/floorplan/history.js';
import { arrowDelta, freeSpot, nextTableNumber, place, rotate, side, snap } from '../../portal/src/setup/floorplan/geometry.js';
import {
  addCombo,
  docFromServer,
  learnIds,
  planSave,
  removeTables,
  updateTable,
  type KeyIds,
  type ServerFloor,
} from '../../portal/src/setup/floorplan/model.js';

describe('undo and redo', () => {
  it('walks back and forth, and a new edit forgets the redo stack', () => {
    let h = startHistory(1);
    h = historyReducer(h, { type: 'do', next: 2 });
    h = historyReducer(h, { type: 'do', next: 3 });
    h = historyReducer(h, { type: 'undo' });
    expect(h).toEqual({ past: [1], present: 2, future: [3] });
    h = historyReducer(h, { type: 'redo' });
    expect(h).toEqual({ past: [1, 2], present: 3, future: [] });
    h = historyReducer(h, { type: 'undo' });
    h = historyReducer(h, { type: 'do', next: 4 });
    expect(h).toEqual({ past: [1, 2], present: 4, future: [] });
  });

  it('does nothing past either end, and rolls back to what the server holds', () => {
    const h = startHistory('a');
    expect(historyReducer(h, { type: 'undo' })).toBe(h);
    expect(historyReducer(h, { type: 'redo' })).toBe(h);
    const edited = historyReducer(historyReducer(h, { type: 'do', next: 'b' }), { type: 'do', next: 'c' });
    const undone = historyReducer(edited, { type: 'undo' });
    expect(historyReducer(undone, { type: 'rollback', present: 'server' })).toEqual({ past: ['a'], present: 'server', future: [] });
    expect(historyReducer(undone, { type: 'reset', present: 'x' })).toEqual({ past: [], present: 'x', future: [] });
  });

  it('remembers at most HISTORY_LIMIT edits', () => {
    let h = startHistory(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i += 1) h = historyReducer(h, { type: 'do', next: i });
    expect(h.past).toHaveLength(HISTORY_LIMIT);
    expect(h.past[0]).toBe(20);
  });
});

describe('geometry', () => {
  it.each([
    [0, 0],
    [4, 0],
    [5, 10],
    [14.9, 10],
    [-6, -10],
  ])('snaps %d to %d', (value, snapped) => expect(snap(value)).toBe(snapped));

  it('moves by a grid step with the arrows and five with Shift', () => {
    expect(arrowDelta('ArrowRight', false)).toEqual({ dx: 10, dy: 0 });
    expect(arrowDelta('ArrowUp', true)).toEqual({ dx: 0, dy: -50 });
    expect(arrowDelta('a', false)).toBeNull();
  });

  it('keeps a table inside the canvas, on the grid when snapping', () => {
    expect(place(43, 57, 100, 70, true)).toEqual({ x: 40, y: 60 });
    expect(place(43, 57, 100, 70, false)).toEqual({ x: 43, y: 57 });
    expect(place(-30, 5000, 100, 70, true)).toEqual({ x: 0, y: 730 });
    expect(side(13, true)).toBe(40);
    expect(side(1234, false)).toBe(400);
  });

  it('turns within a circle and numbers new tables after the highest', () => {
    expect(rotate(350, 15)).toBe(5);
    expect(rotate(0, -15)).toBe(345);
    expect(nextTableNumber([])).toBe('1');
    expect(nextTableNumber(['3', '10', 'Bar 1'])).toBe('11');
  });

  it('finds a free spot beside the tables already drawn', () => {
    expect(freeSpot([], 100, 70)).toEqual({ x: 40, y: 40 });
    expect(freeSpot([{ x: 40, y: 40, width: 100, height: 70 }], 100, 70)).toEqual({ x: 160, y: 40 });
  });
});

const server = (): ServerFloor => ({
  canvas: [
    { type: 'text', x: 20, y: 20, text: 'Terrace' },
    { type: 'table', tableNumber: '1', minCovers: 2, maxCovers: 4, shape: 'round', size: 'medium', x: 100, y: 100 },
    { type: 'table', tableNumber: '2', minCovers: 2, maxCovers: 6, shape: 'rect', x: 300, y: 100, width: 120, height: 80, rotation: 45 },
  ],
  tables: [
    { id: 'tbl_1', table_number: '1', capacity: 4, min_covers: 2, seating_area_id: null },
    { id: 'tbl_2', table_number: '2', capacity: 6, min_covers: 2, seating_area_id: 'area_a' },
  ],
  combos: [
    { id: 'cmb_12', name: '1+2', table_ids: ['tbl_1', 'tbl_2'] },
    { id: 'cmb_other', name: 'Other floor', table_ids: ['tbl_1', 'tbl_9'] },
  ],
});

describe('the save plan', () => {
  it('reads a floor: tables keyed by id, sizes from the shape, decoration kept, only this floor’s combinations', () => {
    const ids: KeyIds = new Map();
    const doc = docFromServer(server(), ids);
    expect(doc.tables.map((t) => [t.key, t.number, t.shape, t.width, t.height, t.rotation, t.areaId])).toEqual([
      ['tbl_1', '1', 'round', 80, 80, 0, null],
      ['tbl_2', '2', 'rect', 120, 80, 45, 'area_a'],
    ]);
    expect(doc.tables[0].extra).toEqual({ type: 'table', size: 'medium' });
    expect(doc.decor).toEqual([{ type: 'text', x: 20, y: 20, text: 'Terrace' }]);
    expect(doc.combos).toEqual([{ name: '1+2', tables: ['tbl_1', 'tbl_2'] }]);
    expect([...ids]).toEqual([
      ['tbl_1', 'tbl_1'],
      ['tbl_2', 'tbl_2'],
    ]);
  });

  it('sends an unchanged floor as its canvas alone', () => {
    const ids: KeyIds = new Map();
    const plan = planSave(server(), docFromServer(server(), ids), ids);
    expect(plan).toMatchObject({ deleteCombos: [], deleteTables: [], renames: [], areas: [], createCombos: [] });
    expect(plan.canvas[1]).toEqual({
      type: 'table',
      size: 'medium',
      tableNumber: '1',
      minCovers: 2,
      maxCovers: 4,
      shape: 'round',
      x: 100,
      y: 100,
      width: 80,
      height: 80,
      rotation: 0,
    });
  });

  it('plans a move, a renumber, an area, a new table, a deletion and a new combination', () => {
    const ids: KeyIds = new Map();
    let doc = docFromServer(server(), ids);
    doc = updateTable(doc, 'tbl_1', { x: 140, number: '1A', areaId: 'area_b' });
    doc = removeTables(doc, ['tbl_2']);
    doc = { ...doc, tables: [...doc.tables, { ...doc.tables[0], key: 'new-1', number: '7', areaId: 'area_b', extra: {} }] };
    doc = addCombo(doc, '1A+7', ['new-1', 'tbl_1']);
    const plan = planSave(server(), doc, ids);
    expect(plan.deleteCombos).toEqual(['cmb_12']);
    expect(plan.deleteTables).toEqual(['tbl_2']);
    expect(plan.renames).toEqual([{ id: 'tbl_1', number: '1A' }]);
    expect(plan.canvas.map((item) => item.tableNumber ?? item.type)).toEqual(['text', '1A', '7']);
    expect(plan.areas).toEqual([{ areaId: 'area_b', keys: ['tbl_1', 'new-1'] }]);
    expect(plan.createCombos).toEqual([{ name: '1A+7', tables: ['new-1', 'tbl_1'] }]);
  });

  it('after an undo of a deletion, draws the table again and learns its new id', () => {
    const ids: KeyIds = new Map();
    const doc = docFromServer(server(), ids);
    // The server deleted table 2 (and its combination); undo brought it back into the document.
    const after: ServerFloor = { ...server(), tables: server().tables.slice(0, 1), combos: [] };
    const plan = planSave(after, doc, ids);
    expect(plan.deleteTables).toEqual([]);
    expect(plan.areas).toEqual([{ areaId: 'area_a', keys: ['tbl_2'] }]);
    expect(plan.createCombos).toEqual([{ name: '1+2', tables: ['tbl_1', 'tbl_2'] }]);
    learnIds(
      { ...after, tables: [...after.tables, { id: 'tbl_2b', table_number: '2', capacity: 6, min_covers: 2, seating_area_id: null }] },
      doc,
      ids,
    );
    expect(ids.get('tbl_2')).toBe('tbl_2b');
    // Read again, the table keeps the key the history knows it by.
    const again = docFromServer({ ...server(), tables: [server().tables[0], { ...server().tables[1], id: 'tbl_2b' }], combos: [] }, ids);
    expect(again.tables.map((t) => t.key)).toEqual(['tbl_1', 'tbl_2']);
  });
});
