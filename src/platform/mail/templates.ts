/**
 * Mail templates: one pure function turns a title, paragraphs, labelled details and an optional link
 * into a plain-text body and a simple HTML body signed with the venue's name. Every interpolated value
 * is HTML-escaped, and links must be http(s), so guest-supplied text (names, notes) can never become
 * markup or a script URL in a venue's mail.
 */
import { escapeHtml } from '../../domain/html.js';
import type { MailMessage } from './mail.js';

export interface MailContent {
  /** The heading (and the HTML document title). */
  title: string;
  /** Body paragraphs; a newline inside one is a line break. */
  paragraphs?: string[];
  /** Labelled facts such as the date, time and party size, shown as a two-column list. */
  details?: Array<{ label: string; value: string }>;
  /** One call to action, such as the guest's manage-booking page. */
  link?: { label: string; url: string };
  /** Signs the mail. */
  venueName: string;
}

export { escapeHtml };

const paragraphHtml = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

function safeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`mail link is not an absolute URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`mail link must be http(s): ${url}`);
  return parsed.href;
}

export function renderMail(content: MailContent): { text: string; html: string } {
  const paragraphs = content.paragraphs ?? [];
  const details = content.details ?? [];
  const url = content.link ? safeUrl(content.link.url) : undefined;

  const text = [
    content.title,
    ...paragraphs,
    ...(details.length ? [details.map((d) => `${d.label}: ${d.value}`).join('\n')] : []),
    ...(content.link && url ? [`${content.link.label}: ${url}`] : []),
    `— ${content.venueName}`,
  ].join('\n\n');

  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const labelCell = `${cell};color:#666;font-weight:normal`;
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(content.title)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#222">',
    '<div style="max-width:560px;margin:0 auto">',
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.title)}</h1>`,
    ...paragraphs.map((p) => `<p style="margin:0 0 12px">${paragraphHtml(p)}</p>`),
    ...(details.length
      ? [
          '<table style="border-collapse:collapse;margin:0 0 16px">',
          ...details.map(
            (d) =>
              `<tr><th align="left" style="${labelCell}">${escapeHtml(d.label)}</th><td style="${cell}">${paragraphHtml(d.value)}</td></tr>`,
          ),
          '</table>',
        ]
      : []),
    ...(content.link && url
      ? [`<p style="margin:0 0 16px"><a href="${escapeHtml(url)}" style="color:#1a56db">${escapeHtml(content.link.label)}</a></p>`]
      : []),
    `<p style="margin:24px 0 0;color:#666">${escapeHtml(content.venueName)}</p>`,
    '</div></body></html>',
  ].join('\n');

  return { text, html };
}

/**
 * A whole message from a venue: rendered bodies, the venue's name as the From display name and its
 * address (when it has one) as Reply-To, so a guest's reply reaches the venue rather than the platform.
 */
export function venueMessage(input: {
  to: string;
  subject: string;
  venue: { name: string; email?: string | null };
  content: Omit<MailContent, 'venueName' | 'title'> & { title?: string };
  attachments?: MailMessage['attachments'];
}): MailMessage {
  const { text, html } = renderMail({ ...input.content, title: input.content.title ?? input.subject, venueName: input.venue.name });
  return {
    to: input.to,
    subject: input.subject,
    text,
    html,
    senderName: input.venue.name,
    ...(input.venue.email ? { replyTo: input.venue.email } : {}),
    ...(input.attachments ? { attachments: input.attachments } : {}),
  };
}
