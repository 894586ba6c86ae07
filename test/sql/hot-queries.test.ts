/**
 * The SQL each hot request sends, in order, checked in beside the code (docs/sql/hot-queries.<engine>.sql)
 * so that a reviewer sees a query change in the diff. The application runs on a database whose Kysely
 * records every query it compiles (parameters are left out: only the statements); each request is the
 * first of its kind on a fresh application, so no cache answers it.
 *
 * A change to a hot query fails this test until the file is regenerated: `npm run sql:update`
 * (vitest's file snapshots: `-u` rewrites them; CI never does).
 */
import { createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../src/modules/bookings/core/bookings.test-support.js';
import { crm } from '../../src/modules/guests/guests.test-support.js';
import { createOperator, createTestApp, insertVenue, insertVenueRow, venueApi, type TestApp, type TestOperator } from '../helpers/app.js';
import { ENGINE, settleChanges, type TestDb } from '../helpers/db.js';
import { insertAccessRule, insertShift } from '../helpers/rows.js';

const FRIDAY = '2026-06-19';
let recorded: RootOperationNode[] = [];
let recording = false;
const recorder: KyselyPlugin = {
  transformQuery({ node }) {
    if (recording) recorded.push(node);
    return node;
  },
  transformResult: async ({ result }) => result,
};

let t: TestApp;
let db: TestDb;
let op: TestOperator;
let venueId: string;
let ruleId: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' }, undefined, (base) => {
    db = base;
    return { ...base, kysely: base.kysely.withPlugin(recorder) };
  });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  const tables: string[] = [];
  for (let n = 1; n <= 4; n++) {
    tables.push(
      await insertVenueRow(
        t,
        'venue_tables',
        venueId,
        { table_number: String(n), capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
        'tbl',
      ),
    );
  }
  await insertBooking(t, op.operatorId, venueId, { booking_date: FRIDAY, tableIds: [tables[0]!] });
  for (const name of ['Joan Baker', 'José Álvarez', 'Jo Malone']) {
    const res = await venueApi(t, op.headers, venueId).post('/guests/walk-in', { name });
    if (res.statusCode >= 300) throw new Error(`walk-in ${res.statusCode}: ${res.body}`);
  }
});
afterAll(async () => t.close());

/** The statements one request sends, each compiled as the database receives it, in order. */
async function statementsOf(label: string, request: () => Promise<{ statusCode: number; body: string }>): Promise<string> {
  // The maintenance flag is re-read at most once a second, whenever a request finds it stale: refresh it
  // now so that no request here reads it (its one query is not the request's own).
  await t.ctx.maintenance.set(false);
  // PostgreSQL: the change notifications of the writes before this one (the setup's, the booking's) arrive
  // a moment after they commit; one that arrived mid-request would drop a cached row and add its read.
  await settleChanges(db);
  recorded = [];
  recording = true;
  const res = await request();
  recording = false;
  expect(res.statusCode, res.body).toBeLessThan(300);
  const executor = db.kysely.getExecutor();
  // One statement a line: hand-written SQL loses its indentation.
  const statements = recorded.map((node) => `${executor.compileQuery(node, createQueryId()).sql.replace(/\s+/g, ' ').trim()};`);
  return `-- ${label}\n${statements.join('\n')}\n`;
}

describe(`hot queries on ${ENGINE}`, () => {
  it('match docs/sql: public availability, booking, the staff list and guest search', async () => {
    const sections = [
      await statementsOf('GET /api/public/venues/:venueId/availability (date, party_size)', () =>
        t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${FRIDAY}&party_size=2` }),
      ),
      await statementsOf('POST /api/public/venues/:venueId/book (a table, no deposit)', () =>
        t.app.inject({
          method: 'POST',
          url: `/api/public/venues/${venueId}/book`,
          payload: {
            access_rule_id: ruleId,
            rule_type: 'table',
            date: FRIDAY,
            time: '19:00',
            party_size: 2,
            guest_name: 'Ann Guest',
            guest_email: 'ann@example.test',
          },
        }),
      ),
      await statementsOf('GET /api/my-venues/:venueId/bookings (date)', () =>
        venueApi(t, op.headers, venueId).get(`/bookings?date=${FRIDAY}`),
      ),
      await statementsOf('GET /api/my-guests/search (q)', () => crm(t, op.headers).get('/search?q=jo')),
    ];
    await expect(sections.join('\n')).toMatchFileSnapshot(`../../docs/sql/hot-queries.${ENGINE}.sql`);
  });
});
