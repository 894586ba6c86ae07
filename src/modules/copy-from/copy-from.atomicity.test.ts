// Copy-from is all or nothing: a failing scope leaves the target as it was, and concurrent copies do not interleave.
import { describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids.js';
import { insertAccessRule, readRow } from '../../../test/helpers/rows.js';
import { CopyScopes, type CopyScope } from '../../platform/copy-scopes.js';
import { createCopyFromService } from './copy-from.service.js';
import { copied, copy, created, data, dst, op, source, src, t, target, useTwoVenues } from './copy-from.test-support.js';

useTwoVenues();

describe('copy-from atomicity', () => {
  /** A scope that does the real work of other scopes, then fails: everything it did must be undone. */
  const failingAfter = (names: string[], fail: CopyScope['copy']): CopyScope => ({
    name: 'failing',
    permission: 'catalogue',
    async copy(request) {
      for (const name of names) await t.ctx.copyScopes.get(name)!.copy(request);
      return fail(request);
    },
  });

  async function targetState() {
    return {
      bundles: await data(dst, '/bundles'),
      policies: await data(dst, '/payment-policies'),
      promos: await data(dst, '/promo-codes'),
      groups: await data(dst, '/admission-groups'),
      tables: await data(dst, '/table-profiles'),
      lists: await data(dst, '/list-profiles'),
    };
  }

  async function scenario() {
    await created(src.post('/bundles', { name: 'Source bundle' }));
    await created(src.post('/payment-policies', { name: 'Source policy' }));
    await created(src.post('/promo-codes', { name: 'Source', code: 'SRC', discount_pct: 5 }));
    await created(src.post('/admission-groups', { name: 'Source group' }));
    await created(src.post('/list-profiles', { name: 'Source list' }));
    const bundle = await created(dst.post('/bundles', { name: 'Target bundle' }));
    await created(dst.post(`/bundles/${bundle}/items`, { name: 'Item', price: 100 }));
    const policy = await created(dst.post('/payment-policies', { name: 'Target policy' }));
    await created(dst.post('/promo-codes', { name: 'Target', code: 'DST', discount_pct: 5 }));
    const group = await created(dst.post('/admission-groups', { name: 'Target group' }));
    await created(dst.post('/list-profiles', { name: 'Target list', admission_rule_group_id: group }));
    await created(dst.post('/table-profiles', { name: 'Target table', payment_policy_id: policy, bundle_ids: [bundle] }));
    const rule = await insertAccessRule(t, target, { payment_policy_id: policy, bundle_ids: JSON.stringify([bundle]) });
    return { rule, before: await targetState(), ruleBefore: await readRow(t, 'access_rules', rule) };
  }

  const auth = () => t.ctx.access.loadAuth({ headers: op.headers } as never).then((a) => a!);
  const everything = ['bundles', 'payment-policies', 'promo-codes', 'admission-rules', 'access-profiles'];
  /** The copy-from service over a registry holding only `scope`. */
  const serviceWith = (scope: CopyScope) => {
    const scopes = new CopyScopes();
    scopes.register(scope);
    return createCopyFromService({ db: t.db, clock: t.clock, access: t.ctx.access, scopes });
  };

  it('a scope that throws after writing leaves the target exactly as it was', async () => {
    const { rule, before, ruleBefore } = await scenario();
    const service = serviceWith(
      failingAfter(everything, async () => {
        throw new Error('boom');
      }),
    );
    await expect(service.copyFrom(await auth(), target, { source_venue_id: source, scope: 'failing' })).rejects.toThrow('boom');
    expect(await targetState()).toEqual(before);
    expect(await readRow(t, 'access_rules', rule)).toEqual(ruleBefore);
  });

  it('a scope that hits a database error half-way leaves the target exactly as it was', async () => {
    const { rule, before, ruleBefore } = await scenario();
    const service = serviceWith(
      failingAfter(everything, async ({ trx }) => {
        // (venue_id, code) is unique: a second SRC at the target violates it.
        const row = await trx
          .selectFrom('promo_codes')
          .selectAll()
          .where('venue_id', '=', target)
          .where('code', '=', 'SRC')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('promo_codes')
          .values({ ...row, id: newId('promo') })
          .execute();
        return 0;
      }),
    );
    await expect(service.copyFrom(await auth(), target, { source_venue_id: source, scope: 'failing' })).rejects.toThrow();
    expect(await targetState()).toEqual(before);
    expect(await readRow(t, 'access_rules', rule)).toEqual(ruleBefore);
    // The database is usable afterwards, and a real copy still works.
    expect(await copied('bundles')).toBe(1);
  });

  it('concurrent copies into one venue do not interleave: the target ends with one copy of the source', async () => {
    for (const name of ['One', 'Two', 'Three']) {
      const id = await created(src.post('/bundles', { name }));
      await created(src.post(`/bundles/${id}/items`, { name: `${name} item`, price: 100 }));
    }
    await created(src.post('/promo-codes', { name: 'P', code: 'PROMO', discount_pct: 5 }));
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => copy(i % 2 ? 'bundles' : 'promo-codes')));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const bundles = await data(dst, '/bundles');
    expect(bundles.map((b) => b.name).sort()).toEqual(['One', 'Three', 'Two']);
    expect(bundles.every((b) => b.items.length === 1)).toBe(true);
    expect((await t.db.kysely.selectFrom('bundle_items').select('id').where('venue_id', '=', target).execute()).length).toBe(3);
    expect((await data(dst, '/promo-codes')).map((p) => p.code)).toEqual(['PROMO']);
  });
});
