// Copy-from of the profiles scopes: payment policies, access profiles (all four families), admission rules.
import { describe, expect, it } from 'vitest';
import { insertAccessRule, insertShift, insertTicketType, readRow } from '../../../test/helpers/rows.js';
import { byName, copied, created, data, dst, insertNamed, source, src, t, target, useTwoVenues } from './copy-from.test-support.js';

useTwoVenues();

describe('copy-from: payment-policies', () => {
  it('overwrites policies and re-points access rules, shifts and profiles by name', async () => {
    await created(
      src.post('/payment-policies', {
        name: 'Standard',
        deposit_type: 'hold',
        refund_type: 'partial',
        refund_percent: 40,
        cancel_type: 'cutoff',
        cancel_cutoff_value: 3,
        cancel_cutoff_unit: 'days',
      }),
    );
    await created(src.post('/payment-policies', { name: 'Events' }));
    const oldStandard = await created(dst.post('/payment-policies', { name: 'Standard' }));
    const oldGone = await created(dst.post('/payment-policies', { name: 'Gone' }));
    const rule = await insertAccessRule(t, target, { payment_policy_id: oldStandard });
    const goneRule = await insertAccessRule(t, target, { payment_policy_id: oldGone });
    const shift = await insertShift(t, target, { payment_policy_id: oldStandard });
    const profile = await created(dst.post('/table-profiles', { name: 'T', payment_policy_id: oldStandard }));
    const goneProfile = await created(dst.post('/event-profiles', { name: 'E', payment_policy_id: oldGone }));

    expect(await copied('payment-policies')).toBe(2);

    const policies = await data(dst, '/payment-policies');
    expect(policies.map((p) => p.name).sort()).toEqual(['Events', 'Standard']);
    const standard = byName(policies, 'Standard')!;
    expect(standard).toMatchObject({
      deposit_type: 'hold',
      refund_type: 'partial',
      refund_percent: 40,
      cancel_type: 'cutoff',
      cancel_cutoff_value: 3,
      cancel_cutoff_unit: 'days',
    });
    expect(await readRow(t, 'access_rules', rule)).toMatchObject({ payment_policy_id: standard.id });
    expect(await readRow(t, 'access_rules', goneRule)).toMatchObject({ payment_policy_id: null });
    expect(await readRow(t, 'shifts', shift)).toMatchObject({ payment_policy_id: standard.id });
    expect((await data(dst, '/table-profiles')).find((p) => p.id === profile)?.payment_policy_id).toBe(standard.id);
    expect((await data(dst, '/event-profiles')).find((p) => p.id === goneProfile)?.payment_policy_id).toBeNull();
  });
});

describe('copy-from: access-profiles', () => {
  it('copies all four families, translating their references to the target’s things of the same name', async () => {
    // Source things the profiles point at.
    const srcGroup = await created(src.post('/admission-groups', { name: 'Door' }));
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Deposit' }));
    const srcDrinks = await created(src.post('/bundles', { name: 'Drinks' }));
    const srcOnly = await created(src.post('/bundles', { name: 'Source only' }));
    const srcPromo = await created(src.post('/promo-codes', { name: 'VIP', code: 'VIP10', discount_pct: 10 }));
    const srcPricelist = await insertNamed('pricelists', source, { name: 'Peak' });
    const srcArea = await insertNamed('seating_areas', source, { name: 'Terrace' });
    const srcTable = await insertNamed('venue_tables', source, { table_number: 'T1' });
    // The target's things of the same names (no table T1 there).
    const dstGroup = await created(dst.post('/admission-groups', { name: 'Door' }));
    const dstPolicy = await created(dst.post('/payment-policies', { name: 'Deposit' }));
    const dstDrinks = await created(dst.post('/bundles', { name: 'Drinks' }));
    const dstPromo = await created(dst.post('/promo-codes', { name: 'VIP too', code: 'vip10', discount_pct: 15 }));
    const dstPricelist = await insertNamed('pricelists', target, { name: 'Peak' });
    const dstArea = await insertNamed('seating_areas', target, { name: 'Terrace' });

    await created(
      src.post('/list-profiles', {
        name: 'Friday',
        admission_rule_group_id: srcGroup,
        party_size_enabled: true,
        party_size_min: 1,
        party_size_max: 8,
      }),
    );
    await created(
      src.post('/table-profiles', {
        name: 'Dinner',
        payment_policy_id: srcPolicy,
        bundle_ids: [srcDrinks, srcOnly],
        pricelist_id: srcPricelist,
        seating_area_ids: [srcArea],
        guest_pick_area_ids: [srcArea],
        table_ids: [srcTable],
        duration_enabled: true,
        duration_minutes: 150,
      }),
    );
    await created(src.post('/event-profiles', { name: 'Gig', promo_code_ids: [srcPromo], payment_policy_id: srcPolicy, listed: false }));
    await created(src.post('/ticket-profiles', { name: 'GA', show_capacity: true }));

    // The target's old profiles, referred to by its access rules.
    const oldFriday = await created(dst.post('/list-profiles', { name: 'Friday' }));
    const oldGone = await created(dst.post('/table-profiles', { name: 'Gone' }));
    const rule = await insertAccessRule(t, target, { list_profile_id: oldFriday, table_profile_id: oldGone });

    expect(await copied('access-profiles')).toBe(4);

    const list = await data(dst, '/list-profiles');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'Friday', admission_rule_group_id: dstGroup, party_size_enabled: true, party_size_max: 8 });
    expect(list[0].id).not.toBe(oldFriday);
    const tables = await data(dst, '/table-profiles');
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({
      name: 'Dinner',
      payment_policy_id: dstPolicy,
      bundle_ids: [dstDrinks],
      pricelist_id: dstPricelist,
      seating_area_ids: [dstArea],
      guest_pick_area_ids: [dstArea],
      table_ids: [],
      duration_minutes: 150,
    });
    expect(await data(dst, '/event-profiles')).toEqual([
      expect.objectContaining({ name: 'Gig', promo_code_ids: [dstPromo], payment_policy_id: dstPolicy, listed: false }),
    ]);
    expect(await data(dst, '/ticket-profiles')).toEqual([expect.objectContaining({ name: 'GA', show_capacity: true })]);

    expect(await readRow(t, 'access_rules', rule)).toMatchObject({ list_profile_id: list[0].id, table_profile_id: null });
    // The source keeps its own profiles and references.
    expect((await data(src, '/table-profiles'))[0]).toMatchObject({ payment_policy_id: srcPolicy, bundle_ids: [srcDrinks, srcOnly] });
  });

  it('clears references the target has no counterpart for', async () => {
    const srcGroup = await created(src.post('/admission-groups', { name: 'Only at the source' }));
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Only at the source' }));
    const srcPricelist = await insertNamed('pricelists', source, { name: 'Only at the source' });
    await created(src.post('/list-profiles', { name: 'L', admission_rule_group_id: srcGroup }));
    await created(src.post('/table-profiles', { name: 'T', payment_policy_id: srcPolicy, pricelist_id: srcPricelist }));
    expect(await copied('access-profiles')).toBe(2);
    expect((await data(dst, '/list-profiles'))[0]).toMatchObject({ admission_rule_group_id: null });
    expect((await data(dst, '/table-profiles'))[0]).toMatchObject({ payment_policy_id: null, pricelist_id: null });
  });
});

describe('copy-from: admission-rules', () => {
  it('copies groups with their rules and re-points the target’s list profiles by group name', async () => {
    const door = await created(src.post('/admission-groups', { name: 'Door', sort_order: 2 }));
    await created(
      src.post(`/admission-groups/${door}/rules`, {
        name: 'VIPs',
        cond_tags_enabled: true,
        cond_tags: ['VIP'],
        act_autoapprove_enabled: true,
      }),
    );
    await created(
      src.post(`/admission-groups/${door}/rules`, {
        name: 'Regulars',
        cond_bookings_enabled: true,
        cond_bookings_min: 3,
        act_discount_enabled: true,
        act_discount_pct: 10,
      }),
    );
    const late = await created(src.post('/admission-groups', { name: 'Late', sort_order: 1 }));
    await created(src.post(`/admission-groups/${late}/rules`, { name: 'Late rule', act_maxplus_enabled: true, act_maxplus: 1 }));

    const oldDoor = await created(dst.post('/admission-groups', { name: 'Door' }));
    await created(dst.post(`/admission-groups/${oldDoor}/rules`, { name: 'Old rule' }));
    const oldLegacy = await created(dst.post('/admission-groups', { name: 'Legacy' }));
    const profile = await created(dst.post('/list-profiles', { name: 'Uses door', admission_rule_group_id: oldDoor }));
    const legacyProfile = await created(dst.post('/list-profiles', { name: 'Uses legacy', admission_rule_group_id: oldLegacy }));

    expect(await copied('admission-rules')).toBe(5);

    const groups = await data(dst, '/admission-groups');
    expect(groups.map((g) => [g.name, g.sort_order])).toEqual([
      ['Late', 1],
      ['Door', 2],
    ]);
    const newDoor = byName(groups, 'Door')!;
    expect(newDoor.rules.map((r: any) => r.name).sort()).toEqual(['Regulars', 'VIPs']);
    expect(newDoor.rules.find((r: any) => r.name === 'VIPs')).toMatchObject({
      group_id: newDoor.id,
      cond_tags: ['VIP'],
      act_autoapprove_enabled: true,
    });
    expect(byName(groups, 'Late')!.rules).toEqual([expect.objectContaining({ name: 'Late rule', act_maxplus: 1 })]);
    expect(await t.db.kysely.selectFrom('admission_rules').select('id').where('group_id', '=', oldDoor).execute()).toEqual([]);

    const profiles = await data(dst, '/list-profiles');
    expect(profiles.find((p) => p.id === profile)?.admission_rule_group_id).toBe(newDoor.id);
    expect(profiles.find((p) => p.id === legacyProfile)?.admission_rule_group_id).toBeNull();
  });

  it('re-points the target’s ticket types (events module) by group name, leaving the source’s alone', async () => {
    const srcDoor = await created(src.post('/admission-groups', { name: 'Door' }));
    const oldDoor = await created(dst.post('/admission-groups', { name: 'Door' }));
    const oldGone = await created(dst.post('/admission-groups', { name: 'Gone' }));
    const door = await insertTicketType(t, { admission_rule_group_id: oldDoor });
    const gone = await insertTicketType(t, { admission_rule_group_id: oldGone });
    const sourceTicket = await insertTicketType(t, { admission_rule_group_id: srcDoor });

    expect(await copied('admission-rules')).toBe(1);
    const newDoor = byName(await data(dst, '/admission-groups'), 'Door')!;
    expect(await readRow(t, 'ticket_types', door)).toMatchObject({ admission_rule_group_id: newDoor.id });
    expect(await readRow(t, 'ticket_types', gone)).toMatchObject({ admission_rule_group_id: null });
    expect(await readRow(t, 'ticket_types', sourceTicket)).toMatchObject({ admission_rule_group_id: srcDoor });
  });
});
