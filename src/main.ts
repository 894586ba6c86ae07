/** Reads the configuration, opens and migrates the database, builds the app and listens. */
import { loadConfig } from './config/config.js';
import { readEnv } from './config/env.js';
import { buildApp } from './app.js';
import { createContext } from './context.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { ensureWebhookSecret } from './modules/payments/webhook-secret.js';

export async function serve(): Promise<void> {
  const config = loadConfig(readEnv());
  const db = openDatabase(config.databaseUrl);
  await migrateToLatest(db);
  if (!config.paymentWebhookSecret) {
    // Decisions, Configuration: without PAYMENT_WEBHOOK_SECRET the database holds a random one, shown once.
    const webhook = await ensureWebhookSecret(db, new Date());
    if (webhook.created) console.log(`Payment webhook signing secret (set it at the provider): ${webhook.secret}`);
  }
  const ctx = createContext(config, db);
  const app = await buildApp(ctx);
  if (!ctx.botCheck.enabled) ctx.log.warn('TURNSTILE_SECRET_KEY is not set: the guest bot check is disabled');
  const secrets = await ctx.auth.prepareSecrets();
  if (!config.secretsKey) {
    ctx.log.warn('SECRETS_KEY is not set: two-factor secrets are encrypted with a key kept in the database; set SECRETS_KEY to keep the key apart from the data');
  }
  if (secrets.sealed > 0) ctx.log.info({ sealed: secrets.sealed }, 'two-factor secrets encrypted with the current key');
  if (secrets.unreadable > 0) ctx.log.error({ unreadable: secrets.unreadable }, 'two-factor secrets that no known key decrypts: is SECRETS_KEY right?');
  ctx.mail.start();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    await app.close();
    await ctx.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  serve().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
