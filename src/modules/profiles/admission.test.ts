import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  expectCreated,
  insertVenue,
  setupVenue,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { evaluateAdmission } from '../../domain/admission.js';
import { loadAdmissionRules } from './admission.service.js';
import { countRows, insertTicketType, readRow } from '../../../test/helpers/rows.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  ({ op, venueId, api } = await setupVenue(t));
});
afterAll(async () => t.close());

async function createGroup(body: object = { name: 'Group' }, a = api): Promise<string> {
  return expectCreated(await a.post('/admission-groups', body));
}

async function createRule(gid: string, body: object): Promise<string> {
  return expectCreated(await api.post(`/admission-groups/${gid}/rules`, body));
}

async function groups() {
  const res = await api.get('/admission-groups');
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: string; name: string; sort_order: number; rules: Record<string, unknown>[] }[];
}

const vipRule = {
  name: 'VIPs',
  cond_tags_enabled: true,
  cond_tags: ['VIP', 'Press'],
  act_discount_enabled: true,
  act_discount_pct: 50,
  act_autoapprove_enabled: true,
  act_maxplus_enabled: 1,
  act_maxplus: 5,
};

describe('admission groups and rules', () => {
  it('creates groups ordered by sort_order, each listing its rules', async () => {
    const late = await createGroup({ name: 'Late', sort_order: 5 });
    const early = await createGroup({ name: 'Early', sort_order: 1 });
    const ruleId = await createRule(late, vipRule);
    const list = (await groups()).filter((g) => [late, early].includes(g.id));
    expect(list.map((g) => g.name)).toEqual(['Early', 'Late']);
    expect(list[0].rules).toEqual([]);
    expect(list[1].rules).toEqual([
      {
        id: ruleId,
        group_id: late,
        name: 'VIPs',
        cond_tags_enabled: true,
        cond_tags: ['VIP', 'Press'],
        cond_bookings_enabled: false,
        cond_bookings_min: null,
        cond_connections_enabled: false,
        cond_connections_min: null,
        act_discount_enabled: true,
        act_discount_pct: 50,
        act_autoapprove_enabled: true,
        act_maxplus_enabled: true,
        act_maxplus: 5,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });

  it('updates a group (only the fields sent) and a rule (merging with what is stored)', async () => {
    const gid = await createGroup({ name: 'Before', sort_order: 3 });
    expect((await api.put(`/admission-groups/${gid}`, { name: 'After' })).json()).toEqual({ success: true });
    expect((await groups()).find((g) => g.id === gid)).toMatchObject({ name: 'After', sort_order: 3 });

    const rid = await createRule(gid, vipRule);
    const res = await api.put(`/admission-groups/${gid}/rules/${rid}`, {
      cond_bookings_enabled: true,
      cond_bookings_min: 3,
      act_discount_pct: 25,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rule = (await groups()).find((g) => g.id === gid)?.rules[0];
    expect(rule).toMatchObject({
      name: 'VIPs',
      cond_tags: ['VIP', 'Press'],
      cond_bookings_enabled: true,
      cond_bookings_min: 3,
      act_discount_pct: 25,
    });
  });

  it('deletes a rule', async () => {
    const gid = await createGroup();
    const keep = await createRule(gid, { name: 'Keep' });
    const drop = await createRule(gid, { name: 'Drop' });
    expect((await api.del(`/admission-groups/${gid}/rules/${drop}`)).json()).toEqual({ success: true });
    expect((await groups()).find((g) => g.id === gid)?.rules.map((r) => r.id)).toEqual([keep]);
    expect((await api.del(`/admission-groups/${gid}/rules/${drop}`)).statusCode).toBe(404);
  });

  it('deleting a group removes its rules and detaches it from list profiles', async () => {
    const gid = await createGroup({ name: 'Going' });
    const other = await createGroup({ name: 'Staying' });
    await createRule(gid, vipRule);
    await createRule(gid, { name: 'Second' });
    await createRule(other, { name: 'Other' });
    const profile = (await api.post('/list-profiles', { name: 'Uses it', admission_rule_group_id: gid })).json().id;
    const otherProfile = (await api.post('/list-profiles', { name: 'Uses other', admission_rule_group_id: other })).json().id;

    expect((await api.del(`/admission-groups/${gid}`)).json()).toEqual({ success: true });
    expect((await groups()).map((g) => g.id)).not.toContain(gid);
    expect(await countRows(t, 'admission_rules', { group_id: gid })).toBe(0);
    expect(await countRows(t, 'admission_rules', { group_id: other })).toBe(1);
    const profiles = (await api.get('/list-profiles')).json().data as { id: string; admission_rule_group_id: string | null }[];
    expect(profiles.find((p) => p.id === profile)?.admission_rule_group_id).toBeNull();
    expect(profiles.find((p) => p.id === otherProfile)?.admission_rule_group_id).toBe(other);
    expect((await api.del(`/admission-groups/${gid}`)).statusCode).toBe(404);
  });

  it('deleting a group also detaches it from ticket types (events module), and only that group', async () => {
    const gid = await createGroup({ name: 'Ticketed' });
    const other = await createGroup({ name: 'Other' });
    const detached = await insertTicketType(t, { admission_rule_group_id: gid });
    const kept = await insertTicketType(t, { admission_rule_group_id: other });
    expect((await api.del(`/admission-groups/${gid}`)).statusCode).toBe(200);
    expect(await readRow(t, 'ticket_types', detached)).toMatchObject({ admission_rule_group_id: null });
    expect(await readRow(t, 'ticket_types', kept)).toMatchObject({ admission_rule_group_id: other });
  });

  it('stores rules the guest-list booking evaluates', async () => {
    const gid = await createGroup({ name: 'Evaluated' });
    const vip = await createRule(gid, vipRule);
    const regulars = await createRule(gid, {
      name: 'Regulars',
      cond_bookings_enabled: true,
      cond_bookings_min: 5,
      act_discount_enabled: true,
      act_discount_pct: 20,
    });
    const rules = await loadAdmissionRules(t.db.kysely, venueId, gid);
    expect(rules.map((r) => r.id).sort()).toEqual([vip, regulars].sort());
    expect(evaluateAdmission(rules, { tags: ['press'], bookings: 6, connections: 0 }, { maxPlusOnes: 3 })).toEqual({
      discount_pct: 50,
      auto_approve: true,
      max_plus_ones: 5,
      matched_rule_ids: expect.arrayContaining([vip, regulars]),
    });
    expect(evaluateAdmission(rules, { tags: [], bookings: 6, connections: 0 }, { maxPlusOnes: 3 })).toMatchObject({
      discount_pct: 20,
      auto_approve: false,
      max_plus_ones: 3,
    });
    expect(await loadAdmissionRules(t.db.kysely, 'ven_other', gid)).toEqual([]);
  });
});

describe('admission validation', () => {
  it.each([
    [{}, /name/],
    [{ name: '' }, /name/],
    [{ name: '   ' }, /name/],
    [{ name: 'x', sort_order: 1.5 }, /sort_order/],
  ])('group %j → 400', async (body, message) => {
    const res = await api.post('/admission-groups', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('refuses an empty group name on update', async () => {
    const gid = await createGroup();
    expect((await api.put(`/admission-groups/${gid}`, { name: ' ' })).statusCode).toBe(400);
    expect((await api.put(`/admission-groups/${gid}`, { name: '' })).statusCode).toBe(400);
  });

  it.each([
    [{}, /name/],
    [{ name: 'x', cond_tags_enabled: true }, /cond_tags needs at least one tag/],
    [{ name: 'x', cond_tags_enabled: true, cond_tags: [] }, /cond_tags needs at least one tag/],
    [{ name: 'x', cond_tags: 'VIP' }, /cond_tags/],
    [{ name: 'x', cond_bookings_enabled: true }, /cond_bookings_min is required/],
    [{ name: 'x', cond_connections_enabled: true, cond_connections_min: null }, /cond_connections_min is required/],
    [{ name: 'x', cond_bookings_min: -1 }, /cond_bookings_min/],
    [{ name: 'x', act_discount_enabled: true }, /act_discount_pct is required/],
    [{ name: 'x', act_discount_pct: 101 }, /act_discount_pct/],
    [{ name: 'x', act_discount_pct: -5 }, /act_discount_pct/],
    [{ name: 'x', act_maxplus_enabled: true }, /act_maxplus is required/],
    [{ name: 'x', act_maxplus: 2.5 }, /act_maxplus/],
    [{ name: 'x', act_autoapprove_enabled: 'yes' }, /act_autoapprove_enabled/],
  ])('rule %j → 400', async (body, message) => {
    const gid = await createGroup();
    const res = await api.post(`/admission-groups/${gid}/rules`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('validates the merged rule on update', async () => {
    const gid = await createGroup();
    const rid = await createRule(gid, { name: 'x' });
    const res = await api.put(`/admission-groups/${gid}/rules/${rid}`, { act_discount_enabled: true });
    expect(res.statusCode).toBe(400);
    expect((await api.put(`/admission-groups/${gid}/rules/${rid}`, { name: ' ' })).statusCode).toBe(400);
  });
});

describe('admission access control', () => {
  it('answers 401, 403 and 404 as the guard says', async () => {
    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/admission-groups` })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { profiles: 'read' });
    const asReader = venueApi(t, reader.headers, venueId);
    expect((await asReader.get('/admission-groups')).statusCode).toBe(200);
    expect((await asReader.post('/admission-groups', { name: 'No' })).statusCode).toBe(403);
    const none = await createStaff(t, op, { tables: 'write' });
    expect((await venueApi(t, none.headers, venueId).get('/admission-groups')).statusCode).toBe(403);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    expect((await venueApi(t, op.headers, theirVenue).get('/admission-groups')).statusCode).toBe(404);
    const theirApi = venueApi(t, stranger.headers, theirVenue);
    const theirGroup = await createGroup({ name: 'Theirs' }, theirApi);
    const theirRule = (await theirApi.post(`/admission-groups/${theirGroup}/rules`, { name: 'Theirs' })).json().id;
    expect((await api.put(`/admission-groups/${theirGroup}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.del(`/admission-groups/${theirGroup}`)).statusCode).toBe(404);
    expect((await api.post(`/admission-groups/${theirGroup}/rules`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.put(`/admission-groups/${theirGroup}/rules/${theirRule}`, { name: 'x' })).statusCode).toBe(404);

    // A rule addressed through another group of the right venue is not found either.
    const mine = await createGroup();
    const mineToo = await createGroup();
    const rule = await createRule(mine, { name: 'Mine' });
    expect((await api.put(`/admission-groups/${mineToo}/rules/${rule}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.del(`/admission-groups/${mineToo}/rules/${rule}`)).statusCode).toBe(404);
  });
});
