/**
 * What the payments module deletes in the daily retention pass: the ids of provider events processed
 * long ago (a redelivery that late would still fulfil nothing twice: the fulfilment's target claim stays),
 * and the simulated provider's delivered events. Money records (payment records, ledgers, fulfilments) are never deleted.
 */
import type { Db } from '../../db/connect.js';
import { daysBefore, type RetentionRule } from '../../platform/retention.js';

export function paymentsRetention(db: Db, days: { webhookEventsDays: number }): RetentionRule[] {
  return [
    {
      name: 'processed webhook events',
      async prune(now, limit) {
        const before = daysBefore(now, days.webhookEventsDays);
        const result = await db.kysely
          .deleteFrom('webhook_events')
          .where('id', 'in', (eb) => eb.selectFrom('webhook_events').select('id').where('received_at', '<', before).limit(limit))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
    {
      name: 'delivered simulated-provider events',
      async prune(now, limit) {
        const before = daysBefore(now, days.webhookEventsDays);
        const result = await db.kysely
          .deleteFrom('sim_events')
          .where('id', 'in', (eb) =>
            eb.selectFrom('sim_events').select('id').where('status', '=', 'delivered').where('created_at', '<', before).limit(limit),
          )
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
  ];
}
