/**
 * Creating an operator account: the operator, its system Owner role, and its primary-contact client
 * user holding that role (also listed as a member). Used by the CLI and by tests.
 */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import { newId } from '../../platform/ids.js';
import { insertUser } from '../auth/index.js';

export interface NewOperatorAccount {
  operatorName: string;
  userName: string;
  email: string;
  password: string;
}

export async function createOperatorAccount(db: Db, input: NewOperatorAccount, now: Date) {
  const at = now.toISOString();
  return withTransaction(db, async (trx) => {
    const operatorId = newId('op');
    await trx
      .insertInto('operators')
      .values({
        id: operatorId,
        name: input.operatorName,
        company_name: null,
        company_reg: null,
        vat_number: null,
        primary_user_id: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const roleId = newId('role');
    await trx
      .insertInto('roles')
      .values({
        id: roleId,
        operator_id: operatorId,
        name: 'Owner',
        description: 'Every permission on every venue',
        is_system: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const userId = await insertUser(
      trx,
      { role: 'client', name: input.userName, email: input.email, password: input.password, operator_id: operatorId, role_id: roleId },
      now,
    );
    await trx.updateTable('operators').set({ primary_user_id: userId }).where('id', '=', operatorId).execute();
    await trx
      .insertInto('members')
      .values({ id: newId('mem'), operator_id: operatorId, user_id: userId, role: 'owner', created_at: at, updated_at: at })
      .execute();
    return { operatorId, userId, roleId };
  });
}
