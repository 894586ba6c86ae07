/**
 * The Twilio adapter: its REST API through fetch (no SDK), `POST {apiBase}/2010-04-01/Accounts/{sid}/Messages.json`
 * with a form body (`To`, `From`, `Body`) and HTTP Basic auth (account SID : auth token). The base URL is
 * configurable (TWILIO_API_BASE) so tests run it against a local fake. Also the check of Twilio's
 * `X-Twilio-Signature` on inbound webhooks.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  apiBase: string;
}

/** A send that failed; `permanent` when retrying cannot help (a 4xx other than 429: bad number, refused). */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface SmsProvider {
  send(message: { to: string; body: string }): Promise<{ providerId: string }>;
}

const SEND_TIMEOUT_MS = 15_000;

export function twilioProvider(settings: TwilioSettings): SmsProvider {
  const url = `${settings.apiBase}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ To: message.to, From: settings.from, Body: message.body }).toString(),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsSendError(`Twilio unreachable: ${error instanceof Error ? error.message : String(error)}`, false);
      }
      const answer = (await response.json().catch(() => ({}))) as { sid?: unknown; message?: unknown; code?: unknown };
      if (!response.ok) {
        const permanent = response.status >= 400 && response.status < 500 && response.status !== 429;
        throw new SmsSendError(
          `Twilio answered ${response.status}: ${String(answer.message ?? '')} (${String(answer.code ?? '')})`,
          permanent,
        );
      }
      return { providerId: typeof answer.sid === 'string' ? answer.sid : '' };
    },
  };
}

/**
 * Twilio's request signature: base64 HMAC-SHA1, under the auth token, of the full URL followed by each
 * POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((key) => key + params[key])
      .join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function validTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
