/**
 * The floorplan editor in Chromium: a new floor drawn with tables by keyboard and by mouse, a table moved
 * by drag and by arrow keys, two tables combined, undo and redo (keys and buttons), a deletion confirmed
 * and undone, a block, and a refused deletion rolled back. After each step the API says what was saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  chromiumPresent,
  expectAccessible,
  openPortal,
  screenshot,
  signIn,
  staffBooking,
  startPortal,
  tableId,
  type PortalHarness,
} from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];
let floorId: string;

interface FloorTable {
  id: string;
  table_number: string;
  x: number | null;
  y: number | null;
  capacity: number;
}

async function get<T>(url: string): Promise<T> {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}${url}`, headers: h.staff });
  expect(res.statusCode).toBe(200);
  return res.json() as T;
}

const floorTables = async () =>
  (await get<{ tables: FloorTable[] }>(`/floors/${floorId}`)).tables.sort((a, b) => a.table_number.localeCompare(b.table_number));
const combos = async () => (await get<{ data: { name: string; table_ids: string[] }[] }>('/tables/combos')).data;
const at = async (number: string) => (await floorTables()).find((t) => t.table_number === number);

const status = () => page.getByRole('status');
/** Waits until the editor has saved every change. */
async function saved() {
  await expect.poll(() => status().textContent(), { timeout: 10_000 }).toBe('All changes saved');
}
const table = (number: string) => page.getByRole('button', { name: new RegExp(`^Table ${number},`) });

/** The screen point of a point of the canvas (the SVG is scaled to its box), with the page scrolled to the top. */
async function canvasPoint(x: number, y: number) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await page.getByRole('group', { name: 'Floor plan editor' }).boundingBox())!;
  const scale = box.width / 1200;
  return { x: box.x + x * scale, y: box.y + y * scale };
}

describe.skipIf(!chromiumPresent)('the floorplan editor', () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openPortal(h, 1280));
  }, 60_000);
  afterAll(async () => h?.close());

  it('opens on the venue’s first floor with its tables', async () => {
    await page.goto(`${h.origin}/app/setup/floorplan?venue=${h.venueId}`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Floor plan', level: 1 }).waitFor();
    await table('1').waitFor();
    await expect.poll(() => page.locator('.fp-table').count()).toBe(12);
    await saved();
    await expectAccessible(page);
    await screenshot(page, 'floorplan');
  });

  it('adds a floor', async () => {
    await page.getByRole('button', { name: 'New floor…' }).click();
    await page.getByRole('dialog').getByLabel('Floor name').fill('Mezzanine');
    await page.getByRole('button', { name: 'Add floor' }).click();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Floors' }).getByRole('button', { name: 'Mezzanine' }).getAttribute('aria-current'))
      .toBe('page');
    const floors = (await get<{ data: { id: string; name: string }[] }>('/floors')).data;
    floorId = floors.find((f) => f.name === 'Mezzanine')!.id;
    expect(page.url()).toContain(`floor=${floorId}`);
    await expect.poll(() => page.locator('.fp-table').count()).toBe(0);
  });

  it('draws tables by keyboard: each on the next free spot, numbered after the venue’s highest', async () => {
    const add = page.getByRole('button', { name: 'Add table' });
    await add.focus();
    await page.keyboard.press('Enter');
    await table('28').waitFor();
    // The new table has the focus; back to Add table for the next one.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Table 28, 2 to 4 seats');
    await add.focus();
    await page.keyboard.press('Enter');
    await table('29').waitFor();
    await saved();
    expect((await floorTables()).map((t) => [t.table_number, t.x, t.y, t.capacity])).toEqual([
      ['28', 40, 40, 4],
      ['29', 160, 40, 4],
    ]);
  });

  it('draws a table by mouse where the floor is clicked, snapped to the grid', async () => {
    await page.getByRole('button', { name: 'Place tables by clicking' }).click();
    const p = await canvasPoint(603, 402);
    await page.mouse.click(p.x, p.y);
    await table('30').waitFor();
    await page.getByRole('button', { name: 'Place tables by clicking' }).click();
    await saved();
    expect(await at('30')).toMatchObject({ x: 550, y: 370 });
  });

  it('moves a table by drag and by arrow keys', async () => {
    const from = await canvasPoint(600, 405);
    const to = await canvasPoint(703, 405);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, from.y, { steps: 3 });
    await page.mouse.move(to.x, to.y, { steps: 3 });
    await page.mouse.up();
    await saved();
    expect(await at('30')).toMatchObject({ x: 650, y: 370 });

    await table('28').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await saved();
    expect(await at('28')).toMatchObject({ x: 50, y: 90 });
  });

  it('combines two tables selected with the keyboard and Shift', async () => {
    await table('28').focus();
    await page.keyboard.press('Enter');
    await table('29').focus();
    await page.keyboard.press('Shift+Enter');
    expect(await table('29').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByLabel('Combination name').inputValue()).toBe('28+29');
    await page.getByRole('button', { name: 'Combine' }).click();
    await saved();
    const ids = [(await at('28'))!.id, (await at('29'))!.id].sort();
    const combo = (await combos()).find((c) => c.name === '28+29');
    expect(combo && [...combo.table_ids].sort()).toEqual(ids);
    await expectAccessible(page);
    await screenshot(page, 'floorplan-combined');
  });

  it('undoes and redoes: the combination, then the move', async () => {
    await page.keyboard.press('Control+z');
    await saved();
    expect((await combos()).some((c) => c.name === '28+29')).toBe(false);
    await page.keyboard.press('Control+z');
    await saved();
    expect(await at('28')).toMatchObject({ x: 50, y: 40 });

    await page.getByRole('button', { name: 'Redo' }).click();
    await saved();
    expect(await at('28')).toMatchObject({ x: 50, y: 90 });
    await page.keyboard.press('Control+Shift+z');
    await saved();
    expect((await combos()).filter((c) => c.name === '28+29')).toHaveLength(1);
  });

  it('combines two tables selected by Shift-click', async () => {
    const a = await canvasPoint(210, 75);
    const b = await canvasPoint(700, 405);
    await page.mouse.click(a.x, a.y);
    await page.keyboard.down('Shift');
    await page.mouse.click(b.x, b.y);
    await page.keyboard.up('Shift');
    await expect.poll(() => page.getByLabel('Combination name').inputValue()).toBe('29+30');
    await page.getByRole('button', { name: 'Combine' }).click();
    await saved();
    const ids = [(await at('29'))!.id, (await at('30'))!.id].sort();
    expect([...(await combos()).find((c) => c.name === '29+30')!.table_ids].sort()).toEqual(ids);
  });

  it('deletes a table after confirmation, and undo draws it again with its combination', async () => {
    await table('30').focus();
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Delete table' }).click();
    await saved();
    expect((await floorTables()).map((t) => t.table_number)).toEqual(['28', '29']);
    expect((await get<{ data: { table_number: string }[] }>('/tables')).data.some((t) => t.table_number === '30')).toBe(false);
    expect((await combos()).some((c) => c.name === '29+30')).toBe(false);

    await page.getByRole('button', { name: 'Undo' }).click();
    await saved();
    const back = await at('30');
    expect(back).toMatchObject({ x: 650, y: 370 });
    expect([...(await combos()).find((c) => c.name === '29+30')!.table_ids].sort()).toEqual([(await at('29'))!.id, back!.id].sort());
  });

  it('edits the selected table’s number and seats, and blocks it for a time', async () => {
    await table('30').click();
    await page.getByLabel('Max seats').fill('6');
    await page.getByLabel('Max seats').press('Enter');
    await page.getByLabel('Number', { exact: true }).fill('12');
    await page.getByLabel('Number', { exact: true }).press('Tab');
    await expect.poll(() => page.getByText('Table 12 already exists').count()).toBe(1);
    await page.getByLabel('Number', { exact: true }).fill('31');
    await page.getByLabel('Number', { exact: true }).press('Enter');
    await table('31').waitFor();
    await saved();
    expect(await at('31')).toMatchObject({ capacity: 6, x: 650 });

    await page.getByLabel('Blocked from').fill(`${h.today}T18:00`);
    await page.getByLabel('Until').fill(`${h.today}T20:00`);
    await page.getByRole('button', { name: 'Block table' }).click();
    await page.getByRole('button', { name: /^Remove the block from/ }).waitFor();
    const id = (await at('31'))!.id;
    const blocks = (await get<{ data: { table_id: string; reason: string }[] }>(`/tables/blocks?date=${h.today}`)).data;
    expect(blocks.filter((b) => b.table_id === id)).toHaveLength(1);
  });

  it('resizes a table by its corner and turns it with R', async () => {
    const from = await canvasPoint(749, 439);
    const to = await canvasPoint(789, 459);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    await saved();
    await table('31').focus();
    await page.keyboard.press('r');
    await saved();
    const item = (await get<{ canvas_data: Record<string, unknown>[] }>(`/floors/${floorId}`)).canvas_data.find(
      (i) => i.tableNumber === '31',
    );
    expect(item).toMatchObject({ x: 650, y: 370, width: 140, height: 90, rotation: 15, maxCovers: 6 });
    await expectAccessible(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'floorplan-table');
  });

  it('rolls back a deletion the server refuses, and says why', async () => {
    await staffBooking(h, { time: '21:00', table_ids: [await tableId(h, '5')], guest_name: 'Kept Table' });
    await page.getByRole('navigation', { name: 'Floors' }).getByRole('button', { name: 'Ground floor' }).click();
    await table('5').focus();
    await page.keyboard.press('Delete');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete table' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('upcoming reservations');
    await table('5').waitFor();
    expect((await get<{ data: { table_number: string }[] }>('/tables')).data.some((t) => t.table_number === '5')).toBe(true);
    expect(problems).toEqual([]);
  });

  it('fits 820 px', async () => {
    const narrow = await openPortal(h, 820);
    await narrow.page.goto(`${h.origin}/app/setup/floorplan?venue=${h.venueId}&floor=${floorId}`);
    await signIn(narrow.page);
    await narrow.page.getByRole('button', { name: /^Table 28,/ }).waitFor();
    await narrow.page.getByRole('button', { name: /^Table 28,/ }).click();
    await screenshot(narrow.page, 'floorplan');
    await expectAccessible(narrow.page);
    expect(narrow.problems).toEqual([]);
    await narrow.page.context().close();
  });
});
