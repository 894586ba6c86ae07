/**
 * Guests' consent to messages (docs/messages.md, Consent): per operator account, channel and address.
 * SMS needs consent given (at booking time); reminder mail goes unless the guest unsubscribed. A number
 * that texted STOP is opted out everywhere until it texts START, whatever consents are recorded.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';

export type MessageChannel = 'mail' | 'sms';

export const normalisedAddress = (channel: MessageChannel, address: string) =>
  channel === 'mail' ? address.trim().toLowerCase() : address;

export async function recordConsent(
  conn: Conn,
  input: { operatorId: string; channel: MessageChannel; address: string; granted: boolean; source: string; now: Date },
): Promise<void> {
  const row = {
    operator_id: input.operatorId,
    channel: input.channel,
    address: normalisedAddress(input.channel, input.address),
    granted: input.granted ? 1 : 0,
    source: input.source,
    updated_at: input.now.toISOString(),
  };
  await kyselyOf(conn)
    .insertInto('message_consents')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['operator_id', 'channel', 'address'])
        .doUpdateSet({ granted: row.granted, source: row.source, updated_at: row.updated_at }),
    )
    .execute();
}

/** The recorded consent: true, false, or undefined when none was ever recorded. */
export async function consentOf(conn: Conn, operatorId: string, channel: MessageChannel, address: string): Promise<boolean | undefined> {
  const row = await kyselyOf(conn)
    .selectFrom('message_consents')
    .select('granted')
    .where('operator_id', '=', operatorId)
    .where('channel', '=', channel)
    .where('address', '=', normalisedAddress(channel, address))
    .executeTakeFirst();
  return row ? Number(row.granted) === 1 : undefined;
}

export async function isOptedOut(conn: Conn, phone: string): Promise<boolean> {
  const row = await kyselyOf(conn).selectFrom('sms_opt_outs').select('phone').where('phone', '=', phone).executeTakeFirst();
  return row !== undefined;
}

export async function setOptOut(conn: Conn, phone: string, optedOut: boolean, now: Date): Promise<void> {
  const db = kyselyOf(conn);
  if (!optedOut) {
    await db.deleteFrom('sms_opt_outs').where('phone', '=', phone).execute();
    return;
  }
  await db
    .insertInto('sms_opt_outs')
    .values({ phone, opted_out_at: now.toISOString() })
    .onConflict((oc) => oc.column('phone').doNothing())
    .execute();
}
