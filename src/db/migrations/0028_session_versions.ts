/**
 * Session versions (auth module; docs/decisions.md, "Session cache"): every instance keeps what a session
 * resolves to (its user, the user's role grant) in memory and checks it on each request with one indexed
 * read of the session row. `sessions.auth_version` is what that read compares: the database moves it, in
 * the transaction of the change, whenever something the cache holds changes:
 * - a user's role, account, account role, name or email (`users`, only when a value differs);
 * - a role, its permission grid or its venue scope (`roles`, `role_permissions`, `role_venues`): every
 *   session of the role's holders (`users_role_idx` finds them).
 * A session that ends (logout, revocation, password or two-factor change, a user deleted, an erasure) is
 * deleted, which the read sees without a version. Triggers, rather than the application, move the version
 * so that no writer (a module, the CLI, a future route, hand-written SQL) can forget to.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The users columns the session look-up reads (SessionUser): a change to any of them moves the version. */
const USER_COLUMNS = ['role', 'operator_id', 'role_id', 'name', 'email'];

const ROLE_TABLES = ['role_permissions', 'role_venues'];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('sessions')
    .addColumn('auth_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('users_role_idx').on('users').column('role_id').execute();
  const bumpRole = (role: string) =>
    `update sessions set auth_version = auth_version + 1 where user_id in (select id from users where role_id = ${role})`;

  if (postgres) {
    const changed = USER_COLUMNS.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
    await sql
      .raw(
        `create function sessions_bump_for_user() returns trigger language plpgsql as $$
         begin
           update sessions set auth_version = auth_version + 1 where user_id = old.id;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function sessions_bump_for_role() returns trigger language plpgsql as $$
         declare
           changed_role text;
         begin
           if tg_table_name = 'roles' then changed_role := old.id;
           elsif tg_op = 'INSERT' then changed_role := new.role_id;
           else changed_role := old.role_id;
           end if;
           ${bumpRole('changed_role')};
           if tg_op = 'UPDATE' and tg_table_name <> 'roles' then
             if new.role_id is distinct from old.role_id then
               ${bumpRole('new.role_id')};
             end if;
           end if;
           if tg_op = 'DELETE' then return old; end if;
           return new;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger users_session_version after update of ${USER_COLUMNS.join(', ')} on users
         for each row when (${changed}) execute function sessions_bump_for_user()`,
      )
      .execute(db);
    await sql
      .raw(`create trigger roles_session_version after update on roles for each row execute function sessions_bump_for_role()`)
      .execute(db);
    // Before the delete: after it, the holders' role_id is already null (on delete set null).
    await sql
      .raw(`create trigger roles_session_version_delete before delete on roles for each row execute function sessions_bump_for_role()`)
      .execute(db);
    for (const table of ROLE_TABLES) {
      await sql
        .raw(
          `create trigger ${table}_session_version after insert or update or delete on ${table}
           for each row execute function sessions_bump_for_role()`,
        )
        .execute(db);
    }
    return;
  }

  const changed = USER_COLUMNS.map((c) => `old.${c} is not new.${c}`).join(' or ');
  await sql
    .raw(
      `create trigger users_session_version after update of ${USER_COLUMNS.join(', ')} on users
       for each row when ${changed}
       begin update sessions set auth_version = auth_version + 1 where user_id = new.id; end`,
    )
    .execute(db);
  await sql.raw(`create trigger roles_session_version after update on roles begin ${bumpRole('old.id')}; end`).execute(db);
  await sql.raw(`create trigger roles_session_version_delete before delete on roles begin ${bumpRole('old.id')}; end`).execute(db);
  for (const table of ROLE_TABLES) {
    await sql
      .raw(`create trigger ${table}_session_version_insert after insert on ${table} begin ${bumpRole('new.role_id')}; end`)
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_session_version_update after update on ${table}
         begin ${bumpRole('old.role_id')}; ${bumpRole('new.role_id')}; end`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${table}_session_version_delete after delete on ${table} begin ${bumpRole('old.role_id')}; end`)
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql.raw('drop trigger users_session_version on users').execute(db);
    await sql.raw('drop trigger roles_session_version on roles').execute(db);
    await sql.raw('drop trigger roles_session_version_delete on roles').execute(db);
    for (const table of ROLE_TABLES) await sql.raw(`drop trigger ${table}_session_version on ${table}`).execute(db);
    await sql.raw('drop function sessions_bump_for_user()').execute(db);
    await sql.raw('drop function sessions_bump_for_role()').execute(db);
  } else {
    for (const name of ['users_session_version', 'roles_session_version', 'roles_session_version_delete']) {
      await sql.raw(`drop trigger ${name}`).execute(db);
    }
    for (const table of ROLE_TABLES) {
      for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_session_version_${event}`).execute(db);
    }
  }
  await db.schema.dropIndex('users_role_idx').execute();
  await db.schema.alterTable('sessions').dropColumn('auth_version').execute();
}
