/** The venues module's copy-from scope `queue`: the door and queue settings kept on the venue row itself. */
import type { CopyRequest, CopyScope } from '../../platform/copy-scopes.js';

const QUEUE_COLUMNS = [
  'queue_skip_price',
  'surge_threshold',
  'surge_price',
  'backdoor_capacity',
  'last_entry_time',
  'max_plus_ones',
] as const;

export const queueCopyScope: CopyScope = {
  name: 'queue',
  permission: 'venues.settings',
  async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
    const source = await trx
      .selectFrom('venues')
      .select([...QUEUE_COLUMNS])
      .where('id', '=', sourceVenueId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('venues')
      .set({ ...source, updated_at: now.toISOString() })
      .where('id', '=', targetVenueId)
      .execute();
    return 1;
  },
};
