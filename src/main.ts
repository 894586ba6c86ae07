/** Reads the configuration, opens and migrates the database, builds the app and listens. */
import { randomUUID } from 'node:crypto';
import { loadConfig } from './config/config.js';
import { readEnv, type Env } from './config/env.js';
import { buildApp, type App } from './app.js';
import { createContext, type AppContext } from './context.js';
import { scheduleJobs } from './jobs.js';
import { forgetInstance, heartbeat } from './platform/instances.js';
import { ensureWebhookSecret } from './modules/payments/index.js';
import { serveMetricsPort } from './platform/metrics-route.js';
import { freedMemoryReleaser } from './platform/malloc-trim.js';
import { collectWhenQuiet, QUIET_COLLECTION_DEFAULTS } from './platform/quiet-gc.js';
import { listenOrExplain, migrateOrExplain, openDatabaseOrExplain, StartupError } from './startup.js';

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
  const instanceId = randomUUID();
  const jobs = scheduleJobs(ctx, instanceId);
  let metricsServer: { close(): Promise<void> } | undefined;
  // A burst's garbage given back once the server goes quiet (platform/quiet-gc.ts), the caches' stale answers first.
  let swept = 0;
  let trimmed = '';
  const releaseFreedMemory = freedMemoryReleaser();
  const quiet = config.quietGcMs
    ? collectWhenQuiet(app.server, {
        ...QUIET_COLLECTION_DEFAULTS,
        quietMs: config.quietGcMs,
        beforeCollect: () => {
          swept = ctx.db.changes.sweepCaches();
          ctx.db.release?.();
        },
        afterCollect: () => {
          trimmed = releaseFreedMemory();
        },
        onCollected: ({ ms, heapBefore, heapAfter }) =>
          ctx.log.debug(
            {
              ms: Math.round(ms),
              heapBeforeMb: mb(heapBefore),
              heapAfterMb: mb(heapAfter),
              cacheEntriesDropped: swept,
              mallocTrim: trimmed,
            },
            'quiet: heap collected',
          ),
      })
    : undefined;
  const close = async () => {
    quiet?.stop();
    jobs.stop();
    await metricsServer?.close();
    await app.close();
    await forgetInstance(ctx.db, instanceId).catch((error: unknown) => ctx.log.warn({ err: error }, 'removing the heartbeat failed'));
    await ctx.close();
  };
  // Two-factor secrets stored in plain text, or under a key since replaced, are sealed with the current key.
  const secrets = await orClose(close, () => ctx.auth.prepareSecrets());
  await orClose(close, () => listenOrExplain(app, config));
  const metricsPort = config.metrics.port;
  if (metricsPort) {
    metricsServer = await orClose(close, () =>
      serveMetricsPort({ db: ctx.db, port: metricsPort, host: config.host, token: config.metrics.token }).catch((error: unknown) => {
        throw new StartupError(`METRICS_PORT ${metricsPort} could not be bound: ${error instanceof Error ? error.message : String(error)}`);
      }),
    );
  }
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
  ctx.sms.start();
  await heartbeat(ctx.db, instanceId, new Date());
  // Releasing unpaid bookings, the smart-table pass, retention and backups (jobs.ts).
  jobs.start();

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

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

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
