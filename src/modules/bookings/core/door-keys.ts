/**
 * Each venue's Ed25519 key pair for booking QR tokens (venue_door_keys), created on first use: the
 * first instance to create it wins and the others read it. The private key is sealed with the platform's
 * secret box; the public key is published to the venue's staff (`GET /api/my-venues/:venueId/door-key`)
 * so a door device verifies tokens offline. Keys never change once made, so each instance caches them.
 *
 * The guest manage link is signed with one random secret per database (platform_settings), created the
 * same way: every instance sharing the database signs and checks with the same secret.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/connect.js';
import { afterCommit, kyselyOf, type Conn } from '../../../db/transaction.js';
import { generateVenueKeyPair, venuePublicKey } from '../../../domain/booking-tokens/index.js';
import type { Clock } from '../../../platform/clock.js';
import type { SecretBox } from '../../../platform/secret-box.js';

export interface DoorKey {
  publicKey: string;
  publicKeyPem: string;
  privateKey: string;
}

export const MANAGE_SECRET_SETTING = 'booking_manage_link_secret';

const contextOf = (venueId: string) => `venue_door_keys:${venueId}`;

export function createDoorKeys(deps: { db: Db; clock: Clock; secrets: SecretBox }) {
  const { db, clock, secrets } = deps;
  const cache = new Map<string, Promise<DoorKey>>();
  let manageSecret: Promise<string> | undefined;

  async function load(venueId: string): Promise<DoorKey> {
    const read = () => db.kysely.selectFrom('venue_door_keys').select('private_key').where('venue_id', '=', venueId).executeTakeFirst();
    let row = await read();
    if (!row) {
      const pair = generateVenueKeyPair();
      await db.kysely
        .insertInto('venue_door_keys')
        .values({
          venue_id: venueId,
          public_key: pair.publicKey,
          private_key: await secrets.seal(pair.privateKey, contextOf(venueId)),
          created_at: clock.now().toISOString(),
        })
        .onConflict((oc) => oc.column('venue_id').doNothing())
        .execute();
      row = await read();
      if (!row) throw new Error(`venue ${venueId} has no door key after creating one`);
    }
    const privateKey = await secrets.open(row.private_key, contextOf(venueId));
    return { privateKey, ...venuePublicKey(privateKey) };
  }

  async function loadManageSecret(conn: Conn): Promise<string> {
    await kyselyOf(conn)
      .insertInto('platform_settings')
      .values({ key: MANAGE_SECRET_SETTING, value: randomBytes(32).toString('base64url'), updated_at: clock.now().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await kyselyOf(conn)
      .selectFrom('platform_settings')
      .select('value')
      .where('key', '=', MANAGE_SECRET_SETTING)
      .executeTakeFirstOrThrow();
    return row.value;
  }

  return {
    /** The venue's key pair (created on first use). */
    keyOf(venueId: string): Promise<DoorKey> {
      let entry = cache.get(venueId);
      if (!entry) {
        entry = load(venueId);
        cache.set(venueId, entry);
        entry.catch(() => cache.delete(venueId));
      }
      return entry;
    },
    /** The secret signing guest manage links, read (or created) on `conn`: inside a transaction, pass it. */
    manageSecret(conn: Conn = db): Promise<string> {
      if (manageSecret) return manageSecret;
      // Read inside a transaction, the secret may be one that transaction creates and then rolls back:
      // only a committed read is kept.
      if (kyselyOf(conn).isTransaction) {
        return loadManageSecret(conn).then((secret) => {
          afterCommit(conn, () => {
            manageSecret ??= Promise.resolve(secret);
          });
          return secret;
        });
      }
      manageSecret = loadManageSecret(conn).catch((error: unknown) => {
        manageSecret = undefined;
        throw error;
      });
      return manageSecret;
    },
  };
}

export type DoorKeys = ReturnType<typeof createDoorKeys>;
