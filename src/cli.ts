/**
 * ./bin/maitred: serve, migrate, operator create, guest create, maintenance on|off, outbox (--sms), backup, restore, demo.
 * Works while a server runs against the same database. With --json a command prints exactly one JSON
 * line on stdout; errors go to stderr with a non-zero exit (2 for bad usage).
 *
 * Each command imports what it needs when it runs: `maintenance on` loads the database layer and
 * nothing of the web app, so a command finishes in a fraction of the server's start-up time.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from './config/config.js';
import { readEnv, type Env } from './config/env.js';
import type { Db } from './db/connect.js';
import { AppError } from './platform/errors.js';
import { StartupError } from './startup.js';

class UsageError extends Error {}

/** Where a run of the program reads its environment and writes its output. */
interface CliIo {
  env: Env;
  out(text: string): void;
  err(text: string): void;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The project's version: the nearest package.json above this file (in src/ or dist/). */
function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    try {
      return (JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { version: string }).version;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dir.pathname === '/') throw error;
    }
  }
}

/** Opens the configured database (migrated first, unless the command is `migrate` itself). */
async function withDb<T>(io: CliIo, fn: (db: Db, databaseUrl: string) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const { databaseUrl } = loadConfig(io.env);
  const { openDatabaseOrExplain, migrateOrExplain } = await import('./startup.js');
  const db = await openDatabaseOrExplain(databaseUrl);
  try {
    if (options.migrate !== false) await migrateOrExplain(db, databaseUrl);
    return await fn(db, databaseUrl);
  } finally {
    await db.close();
  }
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

export function buildProgram(io: CliIo): Command {
  const print = (json: boolean, value: Record<string, unknown>, text: string) => io.out(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
  const program = new Command('maitred')
    .description('Maitred: hospitality booking and operations platform')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('serve')
    .description('run the server (what npm start runs)')
    .action(async () => {
      const { serve } = await import('./main.js');
      await serve(io.env);
    });

  program
    .command('migrate')
    .description('apply pending migrations and exit')
    .option('--json', 'print one JSON line')
    .action(async (options: { json?: boolean }) => {
      const { migrateOrExplain } = await import('./startup.js');
      const applied = await withDb(io, migrateOrExplain, { migrate: false });
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
      const { createOperatorAccount } = await import('./modules/team/index.js');
      const result = await withDb(io, (db) => createOperatorAccount(db, input, new Date()));
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
      const { insertUser } = await import('./modules/auth/index.js');
      const userId = await withDb(io, async (db) => {
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
      const { setMaintenance } = await import('./platform/maintenance.js');
      await withDb(io, (db) => setMaintenance(db, state === 'on'));
      print(Boolean(options.json), { maintenance: state === 'on' }, `Maintenance mode is ${state}`);
    });

  program
    .command('outbox')
    .description('the mail (and with --sms the text messages) kept in the database outbox, newest first')
    .option('--limit <n>', 'how many messages (default 20)')
    .option('--sms', 'list the text messages instead of the mail')
    .option('--json', 'print one JSON line')
    .action(async (options: { limit?: string; json?: boolean; sms?: boolean }) => {
      const { formatOutbox, listOutbox, OUTBOX_DEFAULT_LIMIT, OUTBOX_MAX_LIMIT } = await import('./platform/mail/outbox.js');
      const limit = options.limit === undefined ? OUTBOX_DEFAULT_LIMIT : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > OUTBOX_MAX_LIMIT) {
        throw new UsageError(`--limit must be a whole number from 1 to ${OUTBOX_MAX_LIMIT}`);
      }
      if (options.sms) {
        const { formatSmsOutbox, listSmsOutbox } = await import('./platform/sms/outbox.js');
        const texts = await withDb(io, (db) => listSmsOutbox(db, limit));
        const data = texts.map((e) => ({
          to: e.to,
          kind: e.kind,
          status: e.status,
          body: e.body,
          created_at: e.created_at,
          sent_at: e.sent_at,
        }));
        print(Boolean(options.json), { data }, formatSmsOutbox(texts));
        return;
      }
      const entries = await withDb(io, async (db) => {
        // Mail rendered when sent (a public booking's confirmation, a sale's tickets) needs the modules' templates: the
        // context is built only when the outbox holds such a row.
        const deferred = await db.kysely
          .selectFrom('mail_outbox')
          .select('id')
          .where('template', 'is not', null)
          .limit(1)
          .executeTakeFirst();
        if (!deferred) return listOutbox(db, limit);
        const { createContext } = await import('./context.js');
        const ctx = createContext(loadConfig({ ...io.env, LOG_LEVEL: 'silent' }), db);
        try {
          return await ctx.mail.list({ limit });
        } finally {
          await ctx.rateLimits.close();
          await ctx.mail.stop();
        }
      });
      const data = entries.map((e) => ({ to: e.to, subject: e.subject, created_at: e.created_at, sent_at: e.sent_at }));
      print(Boolean(options.json), { data }, formatOutbox(entries));
    });

  program
    .command('backup')
    .description('a consistent copy of the database and the uploads, taken while servers run')
    .option('--to <file>', 'where to write it (default ./data/backups/maitred-<time>.backup)')
    .option('--json', 'print one JSON line')
    .action(async (options: { to?: string; json?: boolean }) => {
      const config = loadConfig(io.env);
      const { takeBackup } = await import('./db/backup.js');
      const file = path.resolve(
        options.to ?? path.join('data', 'backups', `maitred-${new Date().toISOString().replace(/[:.]/g, '-')}.backup`),
      );
      const manifest = await withDb(io, (db) => takeBackup({ db, databaseUrl: config.databaseUrl, uploadsDir: config.uploadsDir }, file));
      print(
        Boolean(options.json),
        { file, ...manifest },
        `Backup written to ${file} (${manifest.engine}, ${manifest.migration ?? 'empty'})`,
      );
    });

  program
    .command('restore')
    .description('replace the database and uploads with a backup (refused while a server runs), then migrate it forward')
    .argument('<file>', 'a backup taken by maitred backup')
    .option('--json', 'print one JSON line')
    .action(async (file: string, options: { json?: boolean }) => {
      const config = loadConfig({ ...io.env, LOG_LEVEL: 'silent' });
      const [{ restoreBackup }, { openDatabaseOrExplain }, { createContext }] = await Promise.all([
        import('./db/backup.js'),
        import('./startup.js'),
        import('./context.js'),
      ]);
      const target = await openDatabaseOrExplain(config.databaseUrl);
      // The erasure ledger of the database being replaced: guests erased since the backup stay erased.
      const ledger = await target.kysely
        .selectFrom('guest_erasures')
        .selectAll()
        .execute()
        .catch(() => []);
      const restored = await restoreBackup({ db: target, databaseUrl: config.databaseUrl, uploadsDir: config.uploadsDir }, file);
      const erased = await withDb(io, async (db) => {
        const ctx = createContext(config, db);
        try {
          return await ctx.guests.reapplyErasures(ledger);
        } finally {
          await ctx.rateLimits.close();
          await ctx.mail.stop();
        }
      });
      const result = { restored: path.resolve(file), migrated: restored.migrated, erasures_reapplied: erased };
      print(
        Boolean(options.json),
        result,
        `Restored ${result.restored}${restored.migrated.length ? `, migrated ${restored.migrated.join(', ')}` : ''}; ${erased} erasure(s) re-applied`,
      );
    });

  program
    .command('demo')
    .description('a demo operator with one fully configured venue; prints the portal URL, its login and widget URLs')
    .option('--json', 'print one JSON line')
    .action(async (options: { json?: boolean }) => {
      // A known password: the demo is for looking around locally, never on a production deployment.
      if (io.env.NODE_ENV === 'production') throw new UsageError('demo refuses to run with NODE_ENV=production');
      const config = loadConfig({ ...io.env, LOG_LEVEL: 'silent' });
      const [{ createContext }, { buildApp }, { runDemo, DEMO_VENUE }, { createOperatorAccount }] = await Promise.all([
        import('./context.js'),
        import('./app.js'),
        import('./demo/demo.js'),
        import('./modules/team/index.js'),
      ]);
      const { demoHostPage } = await import('./demo/demo-host.js');
      const demo = await withDb(io, async (db) => {
        const ctx = createContext(config, db);
        const app = await buildApp(ctx);
        try {
          return await runDemo(app, (input) => createOperatorAccount(db, input, new Date()), ctx);
        } finally {
          await app.close();
          await ctx.rateLimits.close();
          await ctx.mail.stop();
        }
      });
      const { created: _created, operator_id: _operator, ...rest } = demo;
      // A stand-in for the venue's own site, embedding the widgets through their loader snippets.
      // Beside the SQLite database (the data directory), else in ./data.
      const sqliteFile = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl.slice('sqlite:'.length) : '';
      const dataDir = sqliteFile && sqliteFile !== ':memory:' ? path.dirname(sqliteFile) : 'data';
      const hostPage = path.resolve(dataDir, 'demo-host.html');
      mkdirSync(path.dirname(hostPage), { recursive: true });
      writeFileSync(hostPage, demoHostPage(DEMO_VENUE, demo.embed));
      // The widget addresses and snippets are under the base URL of this run (PUBLIC_BASE_URL, else
      // http://localhost:$PORT): the server must run with the same one (README, Try it). Images are stored
      // as paths, so they follow whatever base the server answers with. The operator portal, where the
      // demo's floor (today's and tomorrow's bookings) is open to the login, is under it too.
      const portalUrl = new URL('/app/', config.publicBaseUrl).toString();
      const result = { ...rest, base_url: config.publicBaseUrl, portal_url: portalUrl, host_page: hostPage };
      const lines = [
        `${demo.created ? 'Created' : 'Found'} the demo venue ${demo.venue_id}.`,
        `Operator portal: ${portalUrl}`,
        `Log in as ${demo.email} with the password ${demo.password}.`,
        `Addresses below are under ${config.publicBaseUrl}: start the server with the same PORT / PUBLIC_BASE_URL.`,
        ...Object.entries(demo.widgets).map(([type, url]) => `  ${type} widget: ${url ?? 'off'}`),
        '',
        'Embed snippets (paste into the venue site):',
        ...Object.entries(demo.embed).map(([type, snippet]) => `  ${type}:\n${snippet.replace(/^/gm, '    ')}`),
        '',
        `A page embedding them, as a venue site would: ${hostPage}`,
        `  serve it from another origin, e.g. python3 -m http.server 8080 --directory ${path.dirname(hostPage)}`,
        `  then open http://127.0.0.1:8080/${path.basename(hostPage)} while the server runs.`,
      ];
      print(Boolean(options.json), result, lines.join('\n'));
    });

  return program;
}

/**
 * Writes the one line an error deserves and returns the exit code: 2 for bad usage, 1 otherwise.
 * Expected failures (bad input, configuration, start-up) are one line without a stack trace; anything
 * else is a bug, so its stack is printed too.
 */
export function reportFailure(error: unknown, err: (text: string) => void): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  const expected =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof StartupError ||
    error instanceof AppError ||
    (error instanceof Error && error.name === 'BackupError');
  const message = error instanceof Error ? error.message : String(error);
  err(`maitred: ${expected ? message : error instanceof Error && error.stack ? error.stack : message}\n`);
  return error instanceof UsageError ? 2 : 1;
}

async function execute(args: string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    return reportFailure(error, io.err);
  }
}

/**
 * Runs the program on `args` (what follows `maitred` on the command line) in this process, with its
 * output captured: tests call it instead of spawning the binary. `env` defaults to this process's.
 */
export async function runCli(args: string[], options: { env?: Env } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await execute(args, {
    env: options.env ?? readEnv(),
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

/** ./bin/maitred: runs the program on process.argv and exits with its code on failure. */
export async function main(argv: string[] = process.argv): Promise<void> {
  const code = await execute(argv.slice(2), {
    env: readEnv(),
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  });
  // On success the process ends by itself once the command has closed what it opened (or, for
  // `serve`, keeps running); exiting here would cut off output still being written to a pipe.
  if (code !== 0) process.exit(code);
}
