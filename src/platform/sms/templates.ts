/**
 * A venue's message templates (docs/messages.md, Templates): its own wording per kind, or the default.
 * Validation and rendering are pure (src/domain/message-templates.ts).
 */
import { DEFAULT_TEMPLATES, MESSAGE_KINDS, templateError, type MessageKind } from '../../domain/message-templates.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { badRequest } from '../errors.js';

export interface VenueTemplate {
  kind: MessageKind;
  body: string;
  default_body: string;
  custom: boolean;
  updated_at: string | null;
}

export async function venueTemplates(conn: Conn, venueId: string): Promise<VenueTemplate[]> {
  const rows = await kyselyOf(conn).selectFrom('message_templates').selectAll().where('venue_id', '=', venueId).execute();
  const own = new Map(rows.map((row) => [row.kind, row]));
  return MESSAGE_KINDS.map((kind) => {
    const row = own.get(kind);
    return {
      kind,
      body: row?.body ?? DEFAULT_TEMPLATES[kind],
      default_body: DEFAULT_TEMPLATES[kind],
      custom: row !== undefined,
      updated_at: row?.updated_at ?? null,
    };
  });
}

/** The wording a venue uses for `kind`. */
export async function templateFor(conn: Conn, venueId: string, kind: MessageKind): Promise<string> {
  const row = await kyselyOf(conn)
    .selectFrom('message_templates')
    .select('body')
    .where('venue_id', '=', venueId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.body ?? DEFAULT_TEMPLATES[kind];
}

/** Saves the venue's wording (400 when invalid); null goes back to the default. */
export async function saveTemplate(conn: Conn, venueId: string, kind: MessageKind, body: string | null, now: Date): Promise<void> {
  const db = kyselyOf(conn);
  if (body === null) {
    await db.deleteFrom('message_templates').where('venue_id', '=', venueId).where('kind', '=', kind).execute();
    return;
  }
  const error = templateError(kind, body);
  if (error) throw badRequest(error);
  const at = now.toISOString();
  await db
    .insertInto('message_templates')
    .values({ venue_id: venueId, kind, body, updated_at: at })
    .onConflict((oc) => oc.columns(['venue_id', 'kind']).doUpdateSet({ body, updated_at: at }))
    .execute();
}
