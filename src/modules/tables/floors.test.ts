// Floors and the canvas: CRUD, syncing tables from the canvas both ways, canvas bounds, saves at scale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { MAX_CANVAS_ITEMS } from './tables.schemas.js';
import { createTable } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('floors and the canvas', () => {
  it('creates, lists in sort order, renames and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const upstairs = (await v.post('/floors', { name: 'Upstairs', sort_order: 2 })).json().id;
    const ground = await v.post('/floors', { name: 'Ground' });
    expect(ground.json()).toEqual({ success: true, id: expect.any(String) });
    expect((await v.get('/floors')).json().data).toEqual([
      { id: ground.json().id, name: 'Ground', sort_order: 0, canvas_data: [] },
      { id: upstairs, name: 'Upstairs', sort_order: 2, canvas_data: [] },
    ]);
    expect((await v.put(`/floors/${upstairs}`, { name: 'Mezzanine', sort_order: -1 })).json()).toEqual({ success: true });
    expect((await v.get('/floors')).json().data.map((f: any) => f.name)).toEqual(['Mezzanine', 'Ground']);
    expect((await v.post('/floors', {})).statusCode).toBe(400);
    expect((await v.put(`/floors/${upstairs}`, { name: ' ' })).statusCode).toBe(400);
    expect((await v.del(`/floors/${upstairs}`)).json()).toEqual({ success: true });
    expect((await v.get(`/floors/${upstairs}`)).statusCode).toBe(404);
    expect((await v.put(`/floors/${upstairs}`, { name: 'x' })).statusCode).toBe(404);
    expect((await v.del(`/floors/${upstairs}`)).statusCode).toBe(404);
  });

  it('syncs tables from the canvas: updates known numbers, creates unknown ones, keeps other items', async () => {
    const { api: v } = await setupVenue(t);
    const existing = await createTable(v, { table_number: '1', capacity: 4 });
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const canvas = [
      { type: 'table', tableNumber: '1', tableType: 'booth', minCovers: 2, maxCovers: 6, shape: 'rect', size: 'large', x: 10, y: 20 },
      { type: 'label', text: 'Bar', x: 5, y: 5, rotation: 90 },
      { type: 'table', tableNumber: '2', tableType: 'high', minCovers: 1, maxCovers: 2, shape: 'circle', size: 'small', x: 30.5, y: 40 },
    ];
    const res = await v.put(`/floors/${floor}`, { name: 'Main room', canvas_data: canvas });
    expect(res.statusCode, res.body).toBe(200);

    const detail = (await v.get(`/floors/${floor}`)).json();
    expect(detail).toMatchObject({ id: floor, name: 'Main room', sort_order: 0 });
    expect(detail.canvas_data).toEqual(canvas);
    expect(detail.tables.map((row: any) => row.table_number)).toEqual(['1', '2']);
    expect((await v.get(`/tables/${existing}`)).json()).toEqual({
      id: existing,
      table_number: '1',
      capacity: 6,
      min_covers: 2,
      status: 'active',
      table_type: 'booth',
      seating_area_id: null,
      floor_id: floor,
      x: 10,
      y: 20,
      shape: 'rect',
      size: 'large',
    });
    const created = detail.tables.find((row: any) => row.table_number === '2');
    expect(created).toMatchObject({
      capacity: 2,
      min_covers: 1,
      table_type: 'high',
      status: 'active',
      floor_id: floor,
      x: 30.5,
      y: 40,
      shape: 'circle',
      size: 'small',
    });
    expect((await v.get('/floors')).json().data[0].canvas_data).toEqual(canvas);
  });

  it('shows table-route changes on the canvas', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (
      await v.post('/floors', { name: 'Main', canvas_data: [{ type: 'table', tableNumber: 7, maxCovers: 4, x: 1, y: 2 }] })
    ).json().id;
    const table = (await v.get(`/floors/${floor}`)).json().tables[0];
    expect(table).toMatchObject({ table_number: '7', capacity: 4, floor_id: floor });
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual([
      { type: 'table', tableNumber: 7, tableType: 'standard', minCovers: 1, maxCovers: 4, x: 1, y: 2 },
    ]);
    await v.put(`/tables/${table.id}`, { table_number: '7B', capacity: 8, min_covers: 2 });
    await v.post('/tables/set-type', { table_ids: [table.id], table_type: 'bar' });
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual([
      { type: 'table', tableNumber: '7B', tableType: 'bar', minCovers: 2, maxCovers: 8, x: 1, y: 2 },
    ]);
  });

  it('tables left off a canvas leave the floor but stay; a table placed on another floor moves', async () => {
    const { api: v } = await setupVenue(t);
    const main = (await v.post('/floors', { name: 'Main' })).json().id;
    const terrace = (await v.post('/floors', { name: 'Terrace' })).json().id;
    await v.put(`/floors/${main}`, {
      canvas_data: [
        { type: 'table', tableNumber: '1', x: 1, y: 1 },
        { type: 'table', tableNumber: '2', x: 2, y: 2 },
        { type: 'table', tableNumber: '3', x: 3, y: 3 },
      ],
    });
    const tables = (await v.get(`/floors/${main}`)).json().tables;
    const [one, two, three] = tables.map((row: any) => row.id);

    await v.put(`/floors/${main}`, {
      canvas_data: [
        { type: 'table', tableNumber: '1', x: 1, y: 1 },
        { type: 'table', tableNumber: '2', x: 2, y: 2 },
      ],
    });
    expect((await v.get(`/tables/${three}`)).json()).toMatchObject({ floor_id: null, x: null, y: null });
    expect((await v.get('/tables')).json().data).toHaveLength(3);

    await v.put(`/floors/${terrace}`, { canvas_data: [{ type: 'table', tableNumber: '2', x: 50, y: 60 }] });
    expect((await v.get(`/tables/${two}`)).json()).toMatchObject({ floor_id: terrace, x: 50, y: 60 });
    expect((await v.get(`/floors/${main}`)).json().canvas_data.map((item: any) => item.tableNumber)).toEqual(['1']);
    expect((await v.get(`/floors/${main}`)).json().tables.map((row: any) => row.id)).toEqual([one]);

    expect((await v.del(`/floors/${terrace}`)).statusCode).toBe(200);
    expect((await v.get(`/tables/${two}`)).json()).toMatchObject({ floor_id: null, x: null, y: null });
  });

  it('validates the canvas and changes nothing when it is refused', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    for (const canvas_data of [
      [{ type: 'table', x: 1, y: 1 }],
      [{ type: 'table', tableNumber: '' }],
      [
        { type: 'table', tableNumber: '1' },
        { type: 'table', tableNumber: 1 },
      ],
      [{ type: 'table', tableNumber: '1', tableType: 'round' }],
      [{ type: 'table', tableNumber: '1', minCovers: 6, maxCovers: 2 }],
      [{ type: 'table', tableNumber: '1', maxCovers: 0 }],
      [{ type: 'table', tableNumber: '1', x: 'left' }],
      [{ tableNumber: '1' }],
      'not a list',
    ]) {
      expect((await v.put(`/floors/${floor}`, { canvas_data })).statusCode, JSON.stringify(canvas_data)).toBe(400);
    }
    // A refused canvas rolls back tables it had already created.
    expect(
      (
        await v.put(`/floors/${floor}`, {
          canvas_data: [
            { type: 'table', tableNumber: '9' },
            { type: 'table', tableNumber: '8', minCovers: 5, maxCovers: 2 },
          ],
        })
      ).statusCode,
    ).toBe(400);
    expect((await v.get('/tables')).json().data).toEqual([]);
  });

  it('takes only the item fields the floor editor uses, in bounded sizes', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const decorations = [
      { type: 'label', text: 'Bar', x: -5.5, y: 5, rotation: -90, width: 120, height: 40 },
      { type: 'wall', x: 0, y: 0, width: 300, height: null, shape: null, size: 'thin' },
    ];
    expect((await v.put(`/floors/${floor}`, { canvas_data: decorations })).statusCode).toBe(200);
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual(decorations);

    const refused: [unknown, RegExp][] = [
      [[{ type: 'label', colour: 'red' }], /^body\.canvas_data\.0 has unknown field colour$/],
      [[{ type: 'label', meta: { any: { depth: [1] } } }], /has unknown field meta/],
      [[{ type: 'label', text: 'x'.repeat(201) }], /^body\.canvas_data\.0\.text must be at most 200 characters$/],
      [[{ type: 'label', rotation: 720 }], /rotation must be at most 360/],
      [[{ type: 'label', width: -1 }], /width must be at least 0/],
      [[{ type: 'table', tableNumber: '1', x: 1e9 }], /x must be at most 1000000/],
      [
        Array.from({ length: MAX_CANVAS_ITEMS + 1 }, (_, i) => ({ type: 'label', text: String(i) })),
        /^body\.canvas_data must have at most 1000 items$/,
      ],
      [
        [{ type: 'label', text: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[['deep']]]]]]]]]]]]]]]]]]]]]]]]]]]]]] }],
        /^body is nested deeper than 32 levels$/,
      ],
    ];
    for (const [canvas_data, message] of refused) {
      const res = await v.put(`/floors/${floor}`, { canvas_data });
      expect(res.statusCode, JSON.stringify(canvas_data).slice(0, 80)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual(decorations);

    // The largest canvas allowed is saved whole.
    const full = Array.from({ length: MAX_CANVAS_ITEMS }, (_, i) => ({ type: 'label', text: `L${i}`, x: i, y: i }));
    expect((await v.put(`/floors/${floor}`, { canvas_data: full })).statusCode).toBe(200);
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toHaveLength(MAX_CANVAS_ITEMS);
  });

  it('reads back only the declared fields of items stored before the canvas was bounded', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const legacy = [{ item: { type: 'label', text: 'Old', x: 1, y: 2, junk: { deep: [1, 2, 3] } } }];
    await t.db.kysely
      .updateTable('floors')
      .set({ canvas_data: JSON.stringify(legacy) })
      .where('id', '=', floor)
      .where('venue_id', '=', venueId)
      .execute();
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual([{ type: 'label', text: 'Old', x: 1, y: 2 }]);
  });
});

describe('canvas sync at scale', () => {
  it('creates hundreds of tables from one canvas', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Hall' })).json().id;
    const canvas = Array.from({ length: 620 }, (_, i) => ({
      type: 'table',
      tableNumber: String(i + 1),
      maxCovers: 2 + (i % 5),
      x: i,
      y: i * 2,
    }));
    const res = await v.put(`/floors/${floor}`, { canvas_data: canvas });
    expect(res.statusCode, res.body).toBe(200);
    const tables = (await v.get('/tables')).json().data;
    expect(tables).toHaveLength(620);
    expect(tables[619]).toMatchObject({ table_number: '620', capacity: 6, floor_id: floor, x: 619, y: 1238 });
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toHaveLength(620);
  });

  it('a save writes only the tables whose canvas values changed', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const canvas = [1, 2, 3].map((n) => ({
      type: 'table',
      tableNumber: String(n),
      tableType: 'standard',
      minCovers: 1,
      maxCovers: 4,
      shape: 'rect',
      size: 'large',
      x: n,
      y: n,
    }));
    await v.put(`/floors/${floor}`, { canvas_data: canvas });
    const stamps = async () =>
      Object.fromEntries(
        (await t.db.kysely.selectFrom('venue_tables').select(['table_number', 'updated_at']).where('venue_id', '=', venueId).execute()).map(
          (row) => [row.table_number, row.updated_at],
        ),
      );
    const before = await stamps();
    t.clock.advance(60_000);
    const moved = canvas.map((item) => (item.tableNumber === '2' ? { ...item, x: 50 } : item));
    expect((await v.put(`/floors/${floor}`, { canvas_data: moved })).statusCode).toBe(200);
    const after = await stamps();
    expect(after['1']).toBe(before['1']);
    expect(after['3']).toBe(before['3']);
    expect(after['2']).not.toBe(before['2']);
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual(moved);
  });
});
