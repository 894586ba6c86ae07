/**
 * Inbound text messages (docs/messages.md, STOP): `POST /api/public/sms/inbound`. Twilio posts its
 * form-encoded webhook (`From`, `Body`, …) signed with `X-Twilio-Signature`, which is required and
 * checked when Twilio is configured (the URL signed is PUBLIC_BASE_URL + the path). With the simulated
 * provider the route takes `{ from, body }` as JSON (or the same form) unsigned, for development and tests.
 * STOP (STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT) opts the number out of every text; START (YES, UNSTOP)
 * opts it back in. Anything else is ignored.
 */
import { Type } from 'typebox';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/connect.js';
import { textableNumber } from '../../domain/reminder-schedule.js';
import type { Clock } from '../clock.js';
import { badRequest, forbidden } from '../errors.js';
import { errorResponses } from '../http.js';
import type { RoutePlugin } from '../module.js';
import { setOptOut } from './consent.js';
import { validTwilioSignature } from './twilio.js';

const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit']);
const START_WORDS = new Set(['start', 'yes', 'unstop']);

export const smsInboundRoutes: RoutePlugin<{ db: Db; clock: Clock; config: Config }> = async (app, { db, clock, config }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(
    '/api/public/sms/inbound',
    {
      schema: {
        summary: 'Receive a text message from a guest (STOP / START)',
        description:
          'Extension (docs/messages.md). Twilio’s messaging webhook (form-encoded, `X-Twilio-Signature` required when Twilio is configured: 403 ' +
          'without a valid one), or `{ from, body }` with the simulated provider. STOP-type keywords opt the number out of all text messages, ' +
          'START-type keywords opt it back in. 400 without a sender number in international format.',
        tags: ['public'],
        body: Type.Object(
          {
            From: Type.Optional(Type.String({ maxLength: 40 })),
            Body: Type.Optional(Type.String({ maxLength: 2000 })),
            from: Type.Optional(Type.String({ maxLength: 40 })),
            body: Type.Optional(Type.String({ maxLength: 2000 })),
          },
          { additionalProperties: Type.String({ maxLength: 2000 }) },
        ),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            opted_out: Type.Union([Type.Boolean(), Type.Null()], { description: 'null: no keyword, nothing changed' }),
          }),
          ...errorResponses(400, 403),
        },
      },
    },
    async (request) => {
      const params = request.body as Record<string, string>;
      if (config.twilio) {
        const url = `${config.publicBaseUrl}${request.url}`;
        const signature = request.headers['x-twilio-signature'];
        if (!validTwilioSignature(config.twilio.authToken, url, params, typeof signature === 'string' ? signature : undefined))
          throw forbidden();
      }
      const from = textableNumber(params.From ?? params.from);
      if (!from) throw badRequest('from must be a number in international format');
      const word = (params.Body ?? params.body ?? '').trim().toLowerCase();
      const optedOut = STOP_WORDS.has(word) ? true : START_WORDS.has(word) ? false : null;
      if (optedOut !== null) await setOptOut(db, from, optedOut, clock.now());
      return { success: true as const, opted_out: optedOut };
    },
  );
};
