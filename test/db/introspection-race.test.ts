/**
 * Kysely's table introspection, which its migrator runs before every migration run, reads the whole
 * PostgreSQL catalog; a schema another session drops meanwhile used to fail it with 3F000 "schema … does
 * not exist" (seen in CI: a test's migration failed because another test file dropped its schema). Our
 * dialect repeats the read then. This test drops and creates schemas with tables in another session
 * while it introspects, and expects every read to succeed.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/connect.js';
import { ENGINE, TEST_PG_URL } from '../helpers/db.js';

/** TEST_PG_URL pointed at another database of the same server. */
function onDatabase(name: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

describe.runIf(ENGINE === 'postgres')('table introspection while other schemas are dropped', () => {
  it('never fails for a schema it does not care about', async () => {
    // A database of its own: the churn must not disturb the other test files' migrations on the server.
    const database = `maitred_race_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const db = openPostgres(onDatabase(database), { max: 2 });
    const churn = new pg.Client({ connectionString: onDatabase(database) });
    await churn.connect();
    let stop = false;
    let churned = 0;
    const churner = (async () => {
      while (!stop) {
        const schema = `race_${churned++ % 3}`;
        await churn.query(`create schema if not exists ${schema}; create table if not exists ${schema}.t (id serial primary key, a text)`);
        await churn.query(`drop schema ${schema} cascade`);
      }
    })();
    const failures: string[] = [];
    try {
      for (let read = 0; read < 150; read++) {
        await db.kysely.introspection.getTables().catch((error: Error) => failures.push(error.message));
      }
    } finally {
      stop = true;
      await churner;
      await churn.end();
      await db.close();
      await admin.query(`drop database if exists ${database}`);
      await admin.end();
    }
    expect(churned).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });
});
