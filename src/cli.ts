/**
 * ./bin/maitred: serve, migrate, operator create, guest create, maintenance on|off, outbox.
 * Works while a server runs against the same database. With --json a command prints exactly one JSON
 * line on stdout; errors go to stderr with a non-zero exit.
 */
import { Command, CommanderError } from 'commander';
import { loadConfig } from './config/config.js';
import { readEnv } from './config/env.js';
import { openDatabase, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { setMaintenance } from './platform/maintenance.js';
import { formatOutbox, listOutbox, OUTBOX_DEFAULT_LIMIT, OUTBOX_MAX_LIMIT } from './platform/mail/outbox.js';
import { createOperatorAccount } from './modules/team/index.js';
import { insertUser } from './modules/auth/index.js';
import { serve } from './main.js';

class UsageError extends Error {}

/** Opens the configured database (migrated first, unless the command is `migrate` itself). */
async function withDb<T>(fn: (db: Db) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const config = loadConfig(readEnv());
  const db = openDatabase(config.databaseUrl);
  try {
    if (options.migrate !== false) await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

function print(json: boolean, value: Record<string, unknown>, text: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

function requireText(value: string | undefined, flag: string): string {
  if (!value || !value.trim()) throw new UsageError(`${flag} is required`);
  return value.trim();
}

function requirePassword(value: string | undefined): string {
  const password = requireText(value, '--password');
  if (password.length < 8) throw new UsageError('--password must be at least 8 characters');
  return password;
}

function requireEmail(value: string | undefined): string {
  const email = requireText(value, '--email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError('--email is not a valid email address');
  return email;
}

export function buildProgram(): Command {
  const program = new Command('maitred')
    .description('Maitred: hospitality booking and operations platform')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command('serve')
    .description('run the server (what npm start runs)')
    .action(async () => {
      await serve();
    });

  program
    .command('migrate')
    .description('apply pending migrations and exit')
    .option('--json', 'print one JSON line')
    .action(async (options: { json?: boolean }) => {
      const applied = await withDb((db) => migrateToLatest(db), { migrate: false });
      print(Boolean(options.json), { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
    });

  const operator = program.command('operator').description('operator accounts');
  operator
    .command('create')
    .description('an operator account, its primary-contact client user, and its Owner role')
    .requiredOption('--operator <name>', 'operator (company) name')
    .requiredOption('--name <name>', 'primary contact name')
    .requiredOption('--email <email>', 'primary contact email')
    .requiredOption('--password <password>', 'primary contact password (min 8 characters)')
    .option('--json', 'print one JSON line')
    .action(async (options: { operator: string; name: string; email: string; password: string; json?: boolean }) => {
      const input = {
        operatorName: requireText(options.operator, '--operator'),
        userName: requireText(options.name, '--name'),
        email: requireEmail(options.email),
        password: requirePassword(options.password),
      };
      const result = await withDb((db) => createOperatorAccount(db, input, new Date()));
      print(
        Boolean(options.json),
        { operator_id: result.operatorId, user_id: result.userId },
        `Created operator ${result.operatorId} with owner ${result.userId} (${input.email})`,
      );
    });

  const guest = program.command('guest').description('guest (consumer) users');
  guest
    .command('create')
    .description('a guest user, optionally with a keys balance')
    .requiredOption('--name <name>', 'guest name')
    .requiredOption('--email <email>', 'guest email')
    .requiredOption('--password <password>', 'password (min 8 characters)')
    .option('--keys <n>', 'starting keys balance')
    .option('--json', 'print one JSON line')
    .action(async (options: { name: string; email: string; password: string; keys?: string; json?: boolean }) => {
      const keys = options.keys === undefined ? 0 : Number(options.keys);
      if (!Number.isInteger(keys) || keys < 0) throw new UsageError('--keys must be a whole number ≥ 0');
      const name = requireText(options.name, '--name');
      const email = requireEmail(options.email);
      const password = requirePassword(options.password);
      const userId = await withDb(async (db) => {
        const now = new Date();
        const id = await insertUser(db, { role: 'guest', name, email, password }, now);
        if (keys > 0) {
          const { grantKeys } = await import('./modules/payments/index.js');
          await grantKeys(db, id, keys, now, 'Opening balance (CLI)');
        }
        return id;
      });
      print(Boolean(options.json), { user_id: userId }, `Created guest ${userId} (${email})${keys ? ` with ${keys} keys` : ''}`);
    });

  program
    .command('maintenance')
    .description('platform maintenance mode: every /api/* answers 503 while on')
    .argument('<state>', 'on or off')
    .option('--json', 'print one JSON line')
    .action(async (state: string, options: { json?: boolean }) => {
      if (state !== 'on' && state !== 'off') throw new UsageError('maintenance takes "on" or "off"');
      await withDb((db) => setMaintenance(db, state === 'on'));
      print(Boolean(options.json), { maintenance: state === 'on' }, `Maintenance mode is ${state}`);
    });

  program
    .command('outbox')
    .description('the mail kept in the database outbox (when no SMTP_URL), newest first')
    .option('--limit <n>', `how many messages (default ${OUTBOX_DEFAULT_LIMIT})`)
    .option('--json', 'print one JSON line')
    .action(async (options: { limit?: string; json?: boolean }) => {
      const limit = options.limit === undefined ? OUTBOX_DEFAULT_LIMIT : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > OUTBOX_MAX_LIMIT) {
        throw new UsageError(`--limit must be a whole number from 1 to ${OUTBOX_MAX_LIMIT}`);
      }
      const entries = await withDb((db) => listOutbox(db, limit));
      const data = entries.map((e) => ({ to: e.to, subject: e.subject, created_at: e.created_at, sent_at: e.sent_at }));
      print(Boolean(options.json), { data }, formatOutbox(entries));
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exit(error.exitCode === 0 ? 0 : 2);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`maitred: ${message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}
