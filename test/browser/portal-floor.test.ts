/**
 * The portal as staff use it during service, on one signed-in page at 1280 px (and a look at 820 px):
 * sign in, tonight's floor, a phone booking from an empty cell, moves (tables, time, both) by drag, by
 * keyboard and in the Move… dialog, a resize, late, a walk-in, a no-show, and a booking made through the
 * public API appearing without a reload. After each
 * step the API says what the portal did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  booking,
  cellPoint,
  chromiumPresent,
  dayBookings,
  expectAccessible,
  openPortal,
  pill,
  rowOf,
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

describe.skipIf(!chromiumPresent)('the reservation floor', () => {
  beforeAll(async () => {
    h = await startPortal();
    // The change stream keeps the floor live; polling every second is the fallback should it drop.
    ({ page, problems } = await openPortal(h, 1280, 1000));
  }, 60_000);
  afterAll(async () => h?.close());

  it('signs in with Email and Password and opens tonight’s floor on the venue’s date', async () => {
    await page.goto(`${h.origin}/app/`);
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    await signIn(page);
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    expect(page.url()).toContain('/app/floor');
    // The venue's day (the server's clock), not the device's (a zone 8 hours behind, months later).
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Mon, 15 Jun 2026');
    const expected = (await dayBookings(h)).filter((b) => !['cancelled', 'rejected', 'expired', 'door_rejected'].includes(b.status));
    await expect.poll(() => page.locator('.pill').count()).toBeGreaterThanOrEqual(expected.length);
    await expect.poll(() => page.locator('.now').count()).toBe(1);
    await screenshot(page, 'floor');
    await expectAccessible(page);
  });

  it('takes a phone booking from an empty cell', async () => {
    const point = await cellPoint(page, '10', '16:00');
    await page.mouse.click(point.x, point.y);
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('New at table 10');
    await dialog.getByRole('combobox', { name: 'Guest' }).fill('Pat Phone');
    await dialog.getByLabel('Phone').fill('+44 7700 900555');
    await dialog.getByLabel('Covers').fill('3');
    await expectAccessible(page);
    await screenshot(page, 'new-booking');
    await dialog.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const made = (await dayBookings(h)).find((b) => b.guest_name === 'Pat Phone')!;
    expect(made).toMatchObject({ status: 'confirmed', start_time: '16:00', guest_count: 3, table_ids: [await tableId(h, '10')] });
    await pill(page, 'Pat Phone').waitFor();
  });

  it('moves a booking to another table by drag, by keyboard, and resizes it', async () => {
    const id = await staffBooking(h, { time: '15:00', duration_minutes: 90, guest_name: 'Drew Drag', table_ids: [await tableId(h, '5')] });
    const target = pill(page, 'Drew Drag');
    await target.waitFor();
    await cellPoint(page, '5', '15:00');
    const from = (await target.boundingBox())!;
    const to = (await rowOf(page, '7').boundingBox())!;
    await page.mouse.move(from.x + 20, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 24, to.y + to.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await booking(h, id)).table_ids).toEqual([await tableId(h, '7')]);

    // By keyboard: one table down, Enter; the live region says what happened.
    await pill(page, 'Drew Drag').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('[role=status]').first().textContent()).toContain('table 8');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await booking(h, id)).table_ids).toEqual([await tableId(h, '8')]);
    await expect.poll(() => page.locator('[role=status]').first().textContent()).toContain('Moved Drew Drag to table 8');
    // Escape leaves it where it is.
    await pill(page, 'Drew Drag').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    expect((await booking(h, id)).table_ids).toEqual([await tableId(h, '8')]);

    // Resize: the right edge dragged by 30 minutes (60 px at 2 px a minute).
    const edge = (await pill(page, 'Drew Drag').boundingBox())!;
    await page.mouse.move(edge.x + edge.width - 4, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width + 26, edge.y + edge.height / 2, { steps: 4 });
    await page.mouse.move(edge.x + edge.width + 56, edge.y + edge.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await booking(h, id)).duration_minutes).toBe(120);
    await screenshot(page, 'after-moves');
  });

  it('moves a booking to another time and table by drag, and in 15-minute steps by keyboard', async () => {
    const id = await staffBooking(h, { time: '10:00', duration_minutes: 60, guest_name: 'Tess Time', table_ids: [await tableId(h, '23')] });
    await pill(page, 'Tess Time').waitFor();
    await cellPoint(page, '23', '10:00');
    // Along by 60 px (30 minutes at 2 px a minute) and down one row: time and table in one drag.
    const from = (await pill(page, 'Tess Time').boundingBox())!;
    const to = (await rowOf(page, '24').boundingBox())!;
    await page.mouse.move(from.x + 20, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 50, to.y + to.height / 2, { steps: 4 });
    await page.mouse.move(from.x + 82, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(async () => {
        const b = await booking(h, id);
        return [b.start_time, b.table_ids, b.duration_minutes];
      })
      .toEqual(['10:30', [await tableId(h, '24')], 60]);
    await expect.poll(() => page.locator('[role=status]').first().textContent()).toContain('Moved Tess Time to 10:30, table 24');

    // By keyboard: two steps later, Enter.
    await pill(page, 'Tess Time').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('[role=status]').first().textContent()).toContain('11:00');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await booking(h, id)).start_time).toBe('11:00');
    expect((await booking(h, id)).table_ids).toEqual([await tableId(h, '24')]);
    // One step earlier and one table up, together.
    await pill(page, 'Tess Time').focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.locator('[role=status]').first().textContent()).toContain('10:45, table 23');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => {
        const b = await booking(h, id);
        return [b.start_time, b.table_ids];
      })
      .toEqual(['10:45', [await tableId(h, '23')]]);
    // Recorded as a move in the booking's history.
    const history = (await h.t.app.inject({ url: `/api/bookings/${id}`, headers: h.staff })).json() as { history: { action: string }[] };
    expect(history.history.filter((e) => e.action === 'move')).toHaveLength(3);
    await screenshot(page, 'after-time-moves');
  });

  it('changes the time in the Move… dialog and rolls back a refused one with the server’s message and reference', async () => {
    const id = await staffBooking(h, { time: '11:00', duration_minutes: 60, guest_name: 'Mia Modal', table_ids: [await tableId(h, '25')] });
    await staffBooking(h, { time: '12:00', duration_minutes: 60, guest_name: 'Ben Blocker', table_ids: [await tableId(h, '25')] });
    await cellPoint(page, '25', '11:00');
    await pill(page, 'Mia Modal').click();
    const drawer = page.getByRole('dialog', { name: 'Booking: Mia Modal' });
    await drawer.getByRole('button', { name: 'Move…' }).click();
    const move = page.getByRole('dialog', { name: 'Move booking' });
    await move.getByLabel('Time').fill('10:15');
    await expectAccessible(page);
    await move.getByRole('button', { name: 'Move' }).click();
    await expect.poll(async () => (await booking(h, id)).start_time).toBe('10:15');
    expect((await booking(h, id)).table_ids).toEqual([await tableId(h, '25')]);

    // 12:15 on table 25 is Ben's: refused, the pill stays at 10:15, and the toast quotes the request id.
    await drawer.getByRole('button', { name: 'Move…' }).click();
    await move.getByLabel('Time').fill('12:15');
    await move.getByRole('button', { name: 'Move' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Not changed' });
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/Ref: \S+/);
    expect((await booking(h, id)).start_time).toBe('10:15');
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    await expect.poll(() => pill(page, 'Mia Modal').getAttribute('aria-label')).toContain('10:15');
    await screenshot(page, 'refused-move');
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('marks a guest late from the drawer, shown on the pill from the booking’s lifecycle', async () => {
    const id = await staffBooking(h, { time: '20:00', duration_minutes: 90, guest_name: 'Lena Lowe', table_ids: [await tableId(h, '26')] });
    await cellPoint(page, '26', '20:00');
    expect(await pill(page, 'Lena Lowe').getAttribute('aria-label')).not.toContain('Late');
    await pill(page, 'Lena Lowe').click();
    const drawer = page.getByRole('dialog', { name: 'Booking: Lena Lowe' });
    await drawer.getByRole('button', { name: 'Mark late' }).click();
    await expect.poll(async () => Object.keys((await booking(h, id)).lifecycle)).toContain('late');
    await drawer.getByRole('button', { name: 'Clear late' }).waitFor();
    await expect.poll(() => drawer.textContent()).toMatch(/Marked late \d\d:\d\d/);
    await page.keyboard.press('Escape');
    await expect.poll(() => pill(page, 'Lena Lowe').getAttribute('aria-label')).toContain('Late');
    expect(await pill(page, 'Lena Lowe').getAttribute('class')).toContain('pill--late');
  });

  it('rolls a refused move back and shows the server’s message', async () => {
    // Table 8 at 18:00 is Hannah Fischer's: a booking at 18:00 dragged there is refused (409).
    const id = await staffBooking(h, {
      time: '18:00',
      duration_minutes: 60,
      guest_name: 'Connie Clash',
      table_ids: [await tableId(h, '9')],
    });
    await cellPoint(page, '9', '18:00');
    const from = (await pill(page, 'Connie Clash').boundingBox())!;
    const to = (await rowOf(page, '8').boundingBox())!;
    await page.mouse.move(from.x + 10, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 12, to.y + to.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByRole('alert').filter({ hasText: 'Not changed' }).waitFor();
    expect((await booking(h, id)).table_ids).toEqual([await tableId(h, '9')]);
    // Back on table 9's row (the optimistic move undone).
    const row = (await rowOf(page, '9').boundingBox())!;
    const back = (await pill(page, 'Connie Clash').boundingBox())!;
    expect(back.y).toBeGreaterThan(row.y);
    expect(back.y + back.height).toBeLessThan(row.y + row.height);
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('seats a walk-in', async () => {
    await page.getByRole('button', { name: 'New…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('label', { hasText: 'Walk-in' }).click();
    expect(await dialog.getByRole('radio', { name: 'Walk-in' }).isChecked()).toBe(true);
    await dialog.getByRole('combobox', { name: 'Guest' }).fill('Walter Walkin');
    await dialog.getByLabel('Covers').fill('2');
    await dialog.getByLabel('Table').selectOption({ label: '3 (2)' });
    await dialog.getByRole('button', { name: 'Seat walk-in' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const walkIn = (await dayBookings(h)).find((b) => b.guest_name === 'Walter Walkin')!;
    expect(walkIn).toMatchObject({ status: 'checked_in', guest_count: 2, table_ids: [await tableId(h, '3')] });
    await pill(page, 'Walter Walkin').waitFor();
    expect(await pill(page, 'Walter Walkin').getAttribute('aria-label')).toContain('Seated');
  });

  it('marks a no-show from the booking’s drawer, with its history', async () => {
    const id = (await dayBookings(h)).find((b) => b.guest_name === 'Pat Phone')!.id;
    await cellPoint(page, '10', '16:00');
    await pill(page, 'Pat Phone').click();
    const drawer = page.getByRole('dialog', { name: 'Booking: Pat Phone' });
    await drawer.getByRole('button', { name: 'No-show' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'drawer');
    await drawer.getByRole('button', { name: 'No-show' }).click();
    await expect.poll(async () => (await booking(h, id)).status).toBe('no_show');
    await drawer.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => drawer.getByRole('tabpanel').textContent()).toContain('No-show');
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
  });

  it('drags a booking off its table onto the unassigned strip, and back onto another table', async () => {
    const id = await staffBooking(h, {
      time: '17:00',
      duration_minutes: 60,
      guest_name: 'Uma Unassigned',
      table_ids: [await tableId(h, '6')],
    });
    await pill(page, 'Uma Unassigned').waitFor();
    await cellPoint(page, '6', '17:00');
    const from = (await pill(page, 'Uma Unassigned').boundingBox())!;
    const strip = (await page.getByRole('group', { name: 'Unassigned bookings' }).boundingBox())!;
    await page.mouse.move(from.x + 10, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 10, strip.y + strip.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await booking(h, id)).table_ids).toEqual([]);
    const chip = page.getByRole('button', { name: /^Uma Unassigned,.*Drag onto a table/ });
    await chip.waitFor();
    await screenshot(page, 'unassigned');

    await cellPoint(page, '5', '17:00');
    const at = (await chip.boundingBox())!;
    const row = (await rowOf(page, '5').boundingBox())!;
    await page.mouse.move(at.x + 10, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x + 40, row.y + row.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await booking(h, id)).table_ids).toEqual([await tableId(h, '5')]);
  });

  it('blocks a table from the new dialog, drawn hatched on the grid', async () => {
    await page.getByRole('button', { name: 'New…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('label', { hasText: 'Block' }).click();
    await dialog.getByLabel('Table').selectOption({ label: '7 (4)' });
    await dialog.getByLabel('Reason').fill('Private party');
    await dialog.getByRole('button', { name: 'Block table' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const blocks = (await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/tables/blocks`, headers: h.staff })).json() as {
      data: { table_number: string; reason: string }[];
    };
    expect(blocks.data).toContainEqual(expect.objectContaining({ table_number: '7', reason: 'Private party' }));
    // The demo's own "Private party set-up" block is on the grid too: this one is the new block.
    await page
      .locator('.block')
      .filter({ hasText: /^Blocked: Private party$/ })
      .waitFor();
  });

  it('shows the smart-table proposal', async () => {
    await page.getByRole('button', { name: 'Smart tables' }).click();
    const panel = page.getByRole('region', { name: 'Smart-table proposal' });
    await expect.poll(() => panel.textContent()).toMatch(/seats freed|already as good/);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Smart tables' }).click();
  });

  it('shows a booking made through the public API without a reload', async () => {
    const slots = (await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=${h.today}&party_size=2` })).json() as {
      slots: { time: string; access_rule_id: string; available: boolean }[];
    };
    const slot = slots.slots.find((s) => s.available && s.time >= '14:00')!;
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${h.venueId}/book`,
      payload: {
        access_rule_id: slot.access_rule_id,
        rule_type: 'table',
        date: h.today,
        time: slot.time,
        party_size: 2,
        guest_name: 'Olive Online',
        guest_email: 'olive@example.test',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await page.locator('.strip, .pill').filter({ hasText: 'Olive Online' }).first().waitFor({ timeout: 8_000 });
  });

  it('has a list view and a floor plan with live table states, linkable from the URL', async () => {
    await page.getByRole('link', { name: 'List', exact: true }).click();
    await page.getByRole('table').waitFor();
    expect(page.url()).toContain('view=list');
    await expectAccessible(page);
    await screenshot(page, 'list');
    await page.getByRole('link', { name: 'Floor plan' }).click();
    await page.getByRole('group', { name: /^Floor plan/ }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: /^Table 3, 2 seats, Seated/ }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'plan');
    await page.getByRole('link', { name: 'Grid' }).click();
    expect(problems).toEqual([]);
  });

  it('reads at 820 px (a tablet at the host stand)', async () => {
    await page.setViewportSize({ width: 820, height: 1100 });
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    await screenshot(page, 'floor');
    // Nothing sticks out of the page: the grid scrolls inside its own box.
    const wider = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => !el.closest('.grid, .pacing__bars') && el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => `${el.tagName}.${el.className}`),
    );
    expect(wider).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'List', exact: true }).click();
    await page.getByRole('table').waitFor();
    await screenshot(page, 'list');
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(problems).toEqual([]);
  });
});
