/**
 * Secrets kept in the database (TOTP secrets) are sealed with AES-256-GCM: a random 96-bit IV per value
 * and a context string bound in as associated data, so a sealed value copied onto another row does not
 * open. Format: `v1:<iv>:<tag>:<ciphertext>`, each part base64url.
 *
 * The key is SECRETS_KEY. Without it, a random key is created once per database and kept in
 * `platform_settings` (the first instance to start wins, the others read it), so the embedded default
 * works with no set-up; that protects copies of the data that leave out that one row, less than a key
 * kept apart, hence the warning at start. When SECRETS_KEY is set later, values sealed with the stored
 * key still open (it is kept as a fallback) and are sealed again with SECRETS_KEY.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { Clock } from './clock.js';

export const SECRETS_KEY_SETTING = 'secrets_key';
const VERSION = 'v1';
const IV_BYTES = 12;

export class UnreadableSecretError extends Error {
  constructor() {
    super('A stored secret could not be decrypted: is SECRETS_KEY the key it was sealed with?');
    this.name = 'UnreadableSecretError';
  }
}

/** Values written before encryption existed are plain text; they never start with the version tag. */
export const isSealed = (value: string) => value.startsWith(`${VERSION}:`);

export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join(':');
}

/** Opens a sealed value with this key; throws UnreadableSecretError for a wrong key, context or a damaged value. */
export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split(':');
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
    throw new UnreadableSecretError();
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new UnreadableSecretError();
  }
}

/** The key kept in the database, creating it when there is none yet. */
export async function ensureStoredSecretsKey(db: Db, now: Date): Promise<{ key: Buffer; created: boolean }> {
  const inserted = await db.kysely
    .insertInto('platform_settings')
    .values({ key: SECRETS_KEY_SETTING, value: randomBytes(32).toString('base64'), updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  const key = await storedSecretsKey(db);
  if (!key) throw new Error('The stored secrets key could not be read back');
  return { key, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export async function storedSecretsKey(db: Db): Promise<Buffer | undefined> {
  const row = await db.kysely.selectFrom('platform_settings').select('value').where('key', '=', SECRETS_KEY_SETTING).executeTakeFirst();
  return row ? Buffer.from(row.value, 'base64') : undefined;
}

export interface SecretBox {
  /** Seals with the current key (SECRETS_KEY, or the database's own). */
  seal(plaintext: string, context: string): Promise<string>;
  /** Opens a sealed value with any known key; a legacy plain-text value is returned as it is. */
  open(stored: string, context: string): Promise<string>;
  /** Whether a stored value should be sealed again: plain text, or sealed with a key other than the current one. */
  needsResealing(stored: string, context: string): Promise<boolean>;
  /** Resolves the key now (creating the database's own when SECRETS_KEY is unset); true when it was just created. */
  prepare(): Promise<{ createdStoredKey: boolean }>;
}

export function createSecretBox(deps: { db: Db; clock: Clock; configuredKey: Buffer | undefined }): SecretBox {
  const { db, clock, configuredKey } = deps;
  interface Keyring {
    current: Buffer;
    fallbacks: Buffer[];
    created: boolean;
  }
  let keyring: Promise<Keyring> | undefined;
  const load = async (): Promise<Keyring> => {
    if (configuredKey) {
      const stored = await storedSecretsKey(db);
      return { current: configuredKey, fallbacks: stored && !stored.equals(configuredKey) ? [stored] : [], created: false };
    }
    const { key, created } = await ensureStoredSecretsKey(db, clock.now());
    return { current: key, fallbacks: [], created };
  };
  const keys = () =>
    (keyring ??= load().catch((error) => {
      keyring = undefined;
      throw error;
    }));

  return {
    async seal(plaintext, context) {
      return seal((await keys()).current, plaintext, context);
    },
    async open(stored, context) {
      if (!isSealed(stored)) return stored;
      const { current, fallbacks } = await keys();
      for (const key of [current, ...fallbacks]) {
        try {
          return open(key, stored, context);
        } catch {
          // try the next key
        }
      }
      throw new UnreadableSecretError();
    },
    async needsResealing(stored, context) {
      if (!isSealed(stored)) return true;
      try {
        open((await keys()).current, stored, context);
        return false;
      } catch {
        return true;
      }
    },
    async prepare() {
      return { createdStoredKey: (await keys()).created };
    },
  };
}
