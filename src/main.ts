/** Reads the configuration, opens and migrates the database, builds the app and listens. */
import { loadConfig } from './config/config.js';
import { readEnv, type Env } from './config/env.js';
import { buildApp, type App } from './app.js';
import { createContext, type AppContext } from './context.js';
import { ensureWebhookSecret } from './modules/payments/index.js';
import { listenOrExplain, migrateOrExplain, openDatabaseOrExplain } from './startup.js';

export interface Server {
  app: App;
  ctx: AppContext;
  /** Stops accepting requests, then closes the database and shared stores. */
  close(): Promise<void>;
}

/**
 * Starts the server and resolves once it listens. Expected failures (configuration, database, port)
 * reject with a ConfigError or StartupError whose message says what to fix; whatever was opened is
 * closed again first.
 */
export async function serve(env: Env = readEnv()): Promise<Server> {
  const config = loadConfig(env);
  const db = await openDatabaseOrExplain(config.databaseUrl);
  const ctx = await orClose(
    () => db.close(),
    async () => {
      await migrateOrExplain(db, config.databaseUrl);
      if (!config.paymentWebhookSecret) {
        // Decisions, Configuration: without PAYMENT_WEBHOOK_SECRET the database holds a random one, shown once.
        const webhook = await ensureWebhookSecret(db, new Date());
        if (webhook.created) console.log(`Payment webhook signing secret (set it at the provider): ${webhook.secret}`);
      }
      return createContext(config, db);
    },
  );
  const app = await orClose(
    () => ctx.close(),
    () => buildApp(ctx),
  );
  const close = async () => {
    clearInterval(expiry);
    await app.close();
    await ctx.close();
  };
  // Two-factor secrets stored in plain text, or under a key since replaced, are sealed with the current key.
  const secrets = await orClose(close, () => ctx.auth.prepareSecrets());
  await orClose(close, () => listenOrExplain(app, config));
  if (!ctx.botCheck.enabled) ctx.log.warn('TURNSTILE_SECRET_KEY is not set: the guest bot check is disabled');
  if (!config.secretsKey) {
    ctx.log.warn(
      'SECRETS_KEY is not set: two-factor secrets are encrypted with a key kept in the database; set SECRETS_KEY to keep the key apart from the data',
    );
  }
  if (secrets.sealed > 0) ctx.log.info({ sealed: secrets.sealed }, 'two-factor secrets encrypted with the current key');
  if (secrets.unreadable > 0)
    ctx.log.error({ unreadable: secrets.unreadable }, 'two-factor secrets that no known key decrypts: is SECRETS_KEY right?');
  ctx.mail.start();
  // Unpaid deposit bookings are released once their payment window passes: each instance sweeps every
  // JOBS_INTERVAL_MS (a minute by default); conditional status updates make concurrent sweeps harmless.
  // The daily smart-table pass is checked on the same beat: a venue runs once its reassign_time passes,
  // and a conditional update lets exactly one instance run it.
  const expiry = setInterval(() => {
    ctx.bookings.expireUnpaid().catch((error: unknown) => ctx.log.error({ err: error }, 'releasing unpaid bookings failed'));
    ctx.smartTables.runDue().catch((error: unknown) => ctx.log.error({ err: error }, 'the smart-table pass failed'));
  }, config.jobsIntervalMs);
  expiry.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  return { app, ctx, close };
}

/** Runs one start-up step; if it fails, closes what the earlier steps opened and rethrows. */
async function orClose<T>(close: () => Promise<unknown>, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    // The step's error is what start-up reports; a failure to close as well is added as its cause.
    await close().catch((closeError: unknown) => {
      if (error instanceof Error && error.cause === undefined) error.cause = closeError;
    });
    throw error;
  }
}
