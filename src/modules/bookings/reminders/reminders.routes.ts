/**
 * Reminder settings and message templates (`venues.settings`), and the reminder links' public routes: the
 * JSON API (`/api/public/bookings/reminder`) and the one-tap page the messages link to (`/booking-reminder`,
 * a server-rendered page whose single button posts the action: a link preview fetching the URL changes
 * nothing). docs/messages.md.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { TEMPLATE_PLACEHOLDERS } from '../../../domain/message-templates.js';
import { escapeHtml } from '../../../domain/html.js';
import { venueOf, type GuardFactory } from '../../../platform/auth-guard.js';
import { AppError } from '../../../platform/errors.js';
import { errorResponses, VenueParams } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import type { VenueTemplate } from '../../../platform/sms/templates.js';
import {
  ReminderActionAnswer,
  ReminderLinkView,
  ReminderSettingsAnswer,
  ReminderSettingsBody,
  ReminderToken,
  TemplateAnswer,
  TemplateBody,
  TemplateParams,
} from './reminders.schemas.js';
import { BAD_REMINDER_LINK_MESSAGE, type Reminders } from './reminders.service.js';

const withPlaceholders = (template: VenueTemplate) => ({ ...template, placeholders: [...TEMPLATE_PLACEHOLDERS[template.kind]] });

const TOKEN_ERRORS = `A malformed, forged or expired token is 400 \`{ "error": "${BAD_REMINDER_LINK_MESSAGE}" }\`; a booking gone is 404.`;

export const remindersRoutes: RoutePlugin<{ guard: GuardFactory; reminders: Reminders }> = async (app, { guard, reminders }) => {
  const tags = ['reminders'];
  const security = [{ bearer: [] }];
  const read = guard({ permission: 'venues.settings:read', venueParam: 'venueId' });
  const write = guard({ permission: 'venues.settings:write', venueParam: 'venueId' });

  app.get(
    '/api/my-venues/:venueId/reminder-settings',
    {
      schema: {
        summary: "Read the venue's booking reminder settings",
        description:
          'Extension (docs/messages.md). A venue that never saved any answers the defaults (off, 24 h and 2 h, mail and SMS, quiet 22:00–08:00, shift).',
        tags,
        security,
        params: VenueParams,
        response: { 200: ReminderSettingsAnswer, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => reminders.settings(venueOf(request)),
  );

  app.put(
    '/api/my-venues/:venueId/reminder-settings',
    {
      schema: {
        summary: "Replace the venue's booking reminder settings",
        description:
          'Extension (docs/messages.md). 400 for an offset out of range or repeated, a repeated channel, or quiet hours that start when they end.',
        tags,
        security,
        params: VenueParams,
        body: ReminderSettingsBody,
        response: { 200: ReminderSettingsAnswer, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => reminders.saveSettings(venueOf(request), request.body),
  );

  app.get(
    '/api/my-venues/:venueId/message-templates',
    {
      schema: {
        summary: "List the venue's guest message templates",
        description:
          'Extension (docs/messages.md): confirmation, reminder, cancellation and waitlist_ready, each with its wording (the venue’s or the default) and placeholders.',
        tags,
        security,
        params: VenueParams,
        response: { 200: Type.Object({ data: Type.Array(TemplateAnswer) }), ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => ({ data: (await reminders.templates(venueOf(request))).map(withPlaceholders) }),
  );

  app.put(
    '/api/my-venues/:venueId/message-templates/:kind',
    {
      schema: {
        summary: "Set the venue's wording of one guest message",
        description:
          'Extension (docs/messages.md). `{ body }` with `{placeholder}`s of that kind (`{{`/`}}` for literal braces); `{ body: null }` restores the default. ' +
          '400 for an unknown placeholder, a lone brace, an empty or too long body; 404 for an unknown kind.',
        tags,
        security,
        params: TemplateParams,
        body: TemplateBody,
        response: { 200: TemplateAnswer, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => withPlaceholders(await reminders.saveTemplate(venueOf(request), request.params.kind, request.body.body)),
  );

  const noStore = async (_request: unknown, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
  };

  app.get(
    '/api/public/bookings/reminder',
    {
      schema: {
        summary: 'What a reminder link does, for the booking it names',
        description: `Extension (docs/messages.md). Changes nothing. ${TOKEN_ERRORS} Rate-limited per client address (429).`,
        tags: ['public'],
        querystring: Type.Object({ token: ReminderToken }),
        response: { 200: ReminderLinkView, ...errorResponses(400, 404, 429) },
      },
      onRequest: noStore,
    },
    async (request) => reminders.view(request.query.token, { ip: request.ip }),
  );

  app.post(
    '/api/public/bookings/reminder',
    {
      schema: {
        summary: 'Do what a reminder link says: confirm, cancel, or unsubscribe from reminder mail',
        description:
          'Extension (docs/messages.md). Body `{ token }`. `confirm` records `guest_confirmed_at` (shown on the floor); a second confirm is 409 ' +
          'and changes nothing, as is confirming a booking no longer active. `cancel` cancels under the booking’s payment policy exactly as the ' +
          'manage link does (409 when the policy or the status refuses); a booking already cancelled is 409 and nothing moves. `unsubscribe` ' +
          `stops reminder mail to the guest from this operator (repeatable). ${TOKEN_ERRORS} Rate-limited per client address (429).`,
        tags: ['public'],
        body: Type.Object({ token: ReminderToken }),
        response: { 200: ReminderActionAnswer, ...errorResponses(400, 404, 409, 429, 502, 503) },
      },
      onRequest: noStore,
    },
    async (request) => reminders.act(request.body.token, { ip: request.ip }),
  );

  await app.register(reminderPages, { reminders });
};

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f5f5f4;color:#1c1917;margin:0}main{max-width:32rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:.75rem}
h1{font-size:1.4rem;margin-top:0}button{font:inherit;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#1c1917;color:#fff;cursor:pointer}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>
`;
}

const BUTTONS = { confirm: 'Confirm I am coming', cancel: 'Cancel my booking', unsubscribe: 'Stop reminder mail' } as const;

/** The one-tap page: its own context, so only it parses form bodies. Not in the API documents. */
const reminderPages: RoutePlugin<{ reminders: Reminders }> = async (app, { reminders }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const send = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(PAGE_HEADERS).send(html);
  const failed = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    return send(reply, error.status, page('Sorry', `<p>${escapeHtml(error.message)}</p>`));
  };

  app.get(
    '/booking-reminder',
    { schema: { hide: true, querystring: Type.Object({ token: Type.String({ maxLength: 1000 }) }) } },
    async (request, reply) => {
      try {
        const view = await reminders.view(request.query.token, { ip: request.ip });
        const when = `${view.date}${view.time ? ` at ${view.time}` : ''}`;
        const body =
          `<p>${escapeHtml(view.venue_name)}, ${escapeHtml(when)}, ${view.party_size} guest(s).</p>` +
          `<form method="post" action="/booking-reminder"><input type="hidden" name="token" value="${escapeHtml(request.query.token)}">` +
          `<button type="submit">${BUTTONS[view.action]}</button></form>`;
        return send(reply, 200, page('Your booking', body));
      } catch (error) {
        return failed(reply, error);
      }
    },
  );

  app.post(
    '/booking-reminder',
    { schema: { hide: true, body: Type.Object({ token: Type.String({ maxLength: 1000 }) }) } },
    async (request, reply) => {
      try {
        const done = await reminders.act(request.body.token, { ip: request.ip });
        const message =
          done.action === 'confirm'
            ? 'Thank you: your booking is confirmed. We look forward to seeing you.'
            : done.action === 'cancel'
              ? 'Your booking is cancelled. A confirmation is on its way by mail.'
              : 'You will receive no more reminder mail from this venue.';
        return send(reply, 200, page('Done', `<p>${escapeHtml(message)}</p>`));
      } catch (error) {
        return failed(reply, error);
      }
    },
  );
};
