/**
 * The CRM's own writes: guest tags per scope (full replacement), walk-in records, and the activity items
 * they leave. Every write that relates a guest to a venue joins the roster in the same transaction.
 */
import { lockKey, withTransaction, kyselyOf, type Conn } from '../../db/transaction.js';
import type { Db } from '../../db/connect.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { domainEvents } from '../../platform/domain-events.js';
import { badRequest } from '../../platform/errors.js';
import { sequentialId } from '../../platform/ids.js';
import { compareText, requiredText, clearableText } from '../../platform/text.js';
import { insertWalkInGuest, WALK_IN_EMAIL_DOMAIN } from '../auth/index.js';
import { guestTagsEvent } from './guest-events.js';
import type { TagsBody, WalkInBody } from './guests.schemas.js';
import { joinRoster } from './roster.js';

export async function recordActivity(
  conn: Conn,
  item: { operatorId: string; userId: string; venueId: string | null; kind: 'tags_changed' | 'walk_in'; detail: object; at: Date },
): Promise<void> {
  await kyselyOf(conn)
    .insertInto('guest_activity')
    .values({
      id: sequentialId('gac'),
      operator_id: item.operatorId,
      user_id: item.userId,
      venue_id: item.venueId,
      kind: item.kind,
      detail: JSON.stringify(item.detail),
      at: item.at.toISOString(),
    })
    .execute();
}

/** Tags trimmed, blank ones refused, duplicates (any case) kept once in their first spelling. */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    if (!tag) throw badRequest('tags must not contain blank tags');
    if (!seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
  }
  return [...seen.values()].sort(compareText);
}

/** A guest's tags: the global set and each venue's set (venues within `venueIds`, null: all). */
export async function tagsOf(conn: Conn, operatorId: string, userId: string, venueIds: readonly string[] | null) {
  const rows = await kyselyOf(conn)
    .selectFrom('guest_tags')
    .select(['venue_id', 'tag'])
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId)
    .execute();
  const global: string[] = [];
  const perVenue = new Map<string, string[]>();
  for (const row of rows) {
    if (row.venue_id === '') global.push(row.tag);
    else if (!venueIds || venueIds.includes(row.venue_id)) perVenue.set(row.venue_id, [...(perVenue.get(row.venue_id) ?? []), row.tag]);
  }
  for (const list of perVenue.values()) list.sort(compareText);
  return { global: global.sort(compareText), perVenue };
}

/**
 * Replaces the guest's tag set at one scope (`global`, or a venue the caller reaches); records what
 * changed; a venue tag joins the guest to that venue in the roster. Serialised per guest.
 */
export async function replaceTags(
  deps: { db: Db; clock: Clock; reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow> },
  auth: AuthInfo,
  operatorId: string,
  userId: string,
  body: TagsBody,
): Promise<void> {
  const scope = body.scope ?? 'global';
  if (scope === 'global' && body.venue_id !== undefined) throw badRequest('venue_id is only for scope venue');
  if (scope === 'venue' && body.venue_id === undefined) throw badRequest('venue_id is required for scope venue');
  const venueId = scope === 'venue' ? (await deps.reachableVenue(auth, body.venue_id!)).id : '';
  const tags = cleanTags(body.tags);
  const now = deps.clock.now();
  await withTransaction(deps.db, async (trx) => {
    await lockKey(deps.db, trx, `guest-tags:${operatorId}:${userId}`);
    const before = (
      await trx
        .selectFrom('guest_tags')
        .select('tag')
        .where('operator_id', '=', operatorId)
        .where('user_id', '=', userId)
        .where('venue_id', '=', venueId)
        .execute()
    ).map((row) => row.tag);
    const added = tags.filter((tag) => !before.includes(tag));
    const removed = before.filter((tag) => !tags.includes(tag));
    if (added.length === 0 && removed.length === 0) return;
    await trx
      .deleteFrom('guest_tags')
      .where('operator_id', '=', operatorId)
      .where('user_id', '=', userId)
      .where('venue_id', '=', venueId)
      .execute();
    if (tags.length > 0) {
      await trx
        .insertInto('guest_tags')
        .values(tags.map((tag) => ({ operator_id: operatorId, user_id: userId, venue_id: venueId, tag, created_at: now.toISOString() })))
        .execute();
    }
    if (venueId) await joinRoster(trx, { operatorId, venueId, userId, at: now });
    await recordActivity(trx, {
      operatorId,
      userId,
      venueId: venueId || null,
      kind: 'tags_changed',
      detail: { scope, added, removed },
      at: now,
    });
    await domainEvents.emit(trx, guestTagsEvent({ operatorId, userId, venueId: venueId || null, scope, tags, added, removed }, now));
  });
}

/** A walk-in guest record (synthesised email, no password) in the venue's roster. */
export async function createWalkIn(deps: { db: Db; clock: Clock }, auth: AuthInfo, venue: VenueRow, body: WalkInBody) {
  const name = requiredText(body.name, 'name');
  const phone = clearableText(body.phone ?? undefined) ?? null;
  const now = deps.clock.now();
  return withTransaction(deps.db, async (trx) => {
    const id = await insertWalkInGuest(trx, { name, phone }, now);
    await trx
      .insertInto('guest_walk_ins')
      .values({ user_id: id, operator_id: venue.operator_id, venue_id: venue.id, created_by: auth.user.id, created_at: now.toISOString() })
      .execute();
    await joinRoster(trx, { operatorId: venue.operator_id, venueId: venue.id, userId: id, at: now, phone });
    await recordActivity(trx, {
      operatorId: venue.operator_id,
      userId: id,
      venueId: venue.id,
      kind: 'walk_in',
      detail: { by: auth.user.name },
      at: now,
    });
    return { id, name, email: `walkin+${id}@${WALK_IN_EMAIL_DOMAIN}`, phone };
  });
}
