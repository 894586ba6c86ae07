/**
 * Child process of migrate-crash.test.ts: runs the migrations on the database it is given and, once the
 * CREATE TABLE of the named table has run, prints "paused" and waits to be killed (SIGKILL): in the
 * middle of a migration, with earlier statements of it (and earlier migrations) already executed.
 */
import {
  CreateTableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const [engine, target, schema, pauseAfter] = process.argv.slice(2);
if (!engine || !target || !schema || !pauseAfter) throw new Error('usage: migrate-pause.child.ts sqlite|postgres FILE|URL SCHEMA|- TABLE');

let pauseNext = false;
const pauseAfterTable: KyselyPlugin = {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (CreateTableNode.is(node) && node.table.table.identifier.name === pauseAfter) pauseNext = true;
    return node;
  },
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (!pauseNext) return result;
    process.stdout.write('paused\n');
    setInterval(() => undefined, 60_000);
    return new Promise<never>(() => undefined);
  },
};

const db: Db = engine === 'postgres' ? openPostgres(target, { schema: schema === '-' ? undefined : schema, max: 2 }) : openSqlite(target);
await migrateToLatest({ ...db, kysely: db.kysely.withPlugin(pauseAfterTable) });
process.stdout.write('finished\n');
await db.close();
