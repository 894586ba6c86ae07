/**
 * TOTP (RFC 6238) for one user: secrets sealed at rest (platform/secret-box.ts, bound to the user's id)
 * and each code accepted at most once. A code is claimed by moving the user's last accepted time step
 * forward with a conditional update, so of two requests carrying the same code only one gets through.
 */
import { createRequire } from 'node:module';
import type * as Otplib from 'otplib';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/secret-box.js';

// otplib loads on the first two-factor call, not at start-up; require(), not import(): the
// compiled runtime runs code from V8's code cache, where import() has no loader on Node 20
// (scripts/run-compiled.mjs).
const requireCjs = createRequire(import.meta.url);
export const otplib = () => requireCjs('otplib') as typeof Otplib;

// One step either side: a phone clock 30 s off still works.
const TOLERANCE_SECONDS = 30;

const contextOf = (userId: string) => `users.totp:${userId}`;

export function createTotp(deps: { db: Db; clock: Clock; secrets: SecretBox }) {
  const { db, clock, secrets } = deps;

  return {
    sealSecret: (userId: string, secret: string) => secrets.seal(secret, contextOf(userId)),
    openSecret: (userId: string, stored: string) => secrets.open(stored, contextOf(userId)),

    /** The time step `code` belongs to when it is valid now and later than the user's last accepted one. */
    async match(secret: string, code: string, lastStep: number | null): Promise<number | undefined> {
      const { verify: verifyTotp } = otplib();
      const result = await verifyTotp({
        secret,
        token: code,
        epoch: Math.floor(clock.now().getTime() / 1000),
        epochTolerance: TOLERANCE_SECONDS,
      });
      // The functional API also serves HOTP, whose result carries no time step.
      if (!result.valid || !('timeStep' in result) || (lastStep !== null && result.timeStep <= lastStep)) return undefined;
      return result.timeStep;
    },

    /** Records `step` as the user's last accepted one; false when that step (or a later one) was taken first. */
    async claimStep(userId: string, step: number): Promise<boolean> {
      const result = await db.kysely
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Seals every stored secret that is still plain text (written before encryption existed) or sealed
     * with a key other than the current one. Safe on several instances at once: each row changes only
     * if it still holds what was read. Answers how many values were sealed and how many could not be read.
     */
    async sealStoredSecrets(): Promise<{ sealed: number; unreadable: number }> {
      const rows = await db.kysely
        .selectFrom('users')
        .select(['id', 'totp_secret', 'totp_pending_secret'])
        .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
        .execute();
      let sealed = 0;
      let unreadable = 0;
      for (const row of rows) {
        for (const column of ['totp_secret', 'totp_pending_secret'] as const) {
          const stored = row[column];
          if (stored === null || !(await secrets.needsResealing(stored, contextOf(row.id)))) continue;
          let plain: string;
          try {
            plain = await secrets.open(stored, contextOf(row.id));
          } catch {
            unreadable++;
            continue;
          }
          const result = await db.kysely
            .updateTable('users')
            .set({ [column]: await secrets.seal(plain, contextOf(row.id)) })
            .where('id', '=', row.id)
            .where(column, '=', stored)
            .executeTakeFirst();
          sealed += Number(result.numUpdatedRows);
        }
      }
      return { sealed, unreadable };
    },
  };
}
