/** What the auth module deletes in the daily retention pass: sessions, sign-in challenges and email codes long expired. */
import type { Db } from '../../db/connect.js';
import { daysBefore, type RetentionRule } from '../../platform/retention.js';

export function authRetention(db: Db, days: { sessionsDays: number }): RetentionRule[] {
  return [
    {
      name: 'expired sessions',
      async prune(now, limit) {
        const before = daysBefore(now, days.sessionsDays);
        const result = await db.kysely
          .deleteFrom('sessions')
          .where('id', 'in', (eb) => eb.selectFrom('sessions').select('id').where('expires_at', '<', before).limit(limit))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
    {
      // Codes live minutes: a day past their expiry they explain nothing.
      name: 'expired two-factor challenges',
      async prune(now, limit) {
        const before = daysBefore(now, 1);
        const result = await db.kysely
          .deleteFrom('two_factor_challenges')
          .where('id', 'in', (eb) => eb.selectFrom('two_factor_challenges').select('id').where('expires_at', '<', before).limit(limit))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
    {
      name: 'expired email codes',
      async prune(now, limit) {
        const before = daysBefore(now, 1);
        const result = await db.kysely
          .deleteFrom('email_verifications')
          .where('id', 'in', (eb) => eb.selectFrom('email_verifications').select('id').where('expires_at', '<', before).limit(limit))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
  ];
}
