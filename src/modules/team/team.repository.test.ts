/** `roleGrant`, the guard's one-statement read of a role, its grid and its venue scope. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { roleGrant } from './team.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('roleGrant', () => {
  it('grants the Owner role everything, over every venue', async () => {
    const op = await createOperator(t);
    expect(await roleGrant(t.db, op.operatorId, op.roleId)).toEqual({ isOwner: true, grants: new Map(), venueScope: null });
  });

  it("reads a custom role's grid (write implies read) and its venue scope", async () => {
    const op = await createOperator(t);
    const [a, b] = [await insertVenue(t, op.operatorId), await insertVenue(t, op.operatorId)];
    const staff = await createStaff(t, op, { tables: 'write', bookings: 'read' }, [a, b]);
    const grant = await roleGrant(t.db, op.operatorId, staff.roleId);
    expect(grant?.isOwner).toBe(false);
    expect(Object.fromEntries(grant!.grants)).toEqual({ tables: { read: true, write: true }, bookings: { read: true, write: false } });
    expect([...grant!.venueScope!].sort()).toEqual([a, b].sort());
  });

  it('gives a role without grid or scope no grant, over every venue', async () => {
    const op = await createOperator(t);
    const staff = await createStaff(t, op, {});
    expect(await roleGrant(t.db, op.operatorId, staff.roleId)).toEqual({ isOwner: false, grants: new Map(), venueScope: null });
  });

  it("is undefined for another account's role, whatever that role grants", async () => {
    const [op, stranger] = [await createOperator(t), await createOperator(t, 'Stranger Ltd')];
    const staff = await createStaff(t, stranger, { tables: 'write' }, [await insertVenue(t, stranger.operatorId)]);
    expect(await roleGrant(t.db, op.operatorId, staff.roleId)).toBeUndefined();
    expect(await roleGrant(t.db, op.operatorId, stranger.roleId)).toBeUndefined();
    expect(await roleGrant(t.db, op.operatorId, 'role_missing')).toBeUndefined();
  });
});
