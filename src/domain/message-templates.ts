/**
 * Guest message templates (docs/messages.md): the kinds of text a venue sends, their default wording, the
 * `{placeholder}`s each kind may use, validation of an operator's own wording, and rendering. Pure.
 *
 * A template is plain text with `{name}` placeholders (lower case, digits, underscores). `{{` and `}}` write
 * a literal brace. An unknown placeholder, a lone brace, an empty body or one longer than
 * TEMPLATE_MAX_LENGTH is refused, so a saved template always renders.
 */
export const MESSAGE_KINDS = ['confirmation', 'reminder', 'cancellation', 'waitlist_ready'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const isMessageKind = (value: string): value is MessageKind => (MESSAGE_KINDS as readonly string[]).includes(value);

/** Long enough for a few SMS segments; a text message is what the templates are written for. */
export const TEMPLATE_MAX_LENGTH = 480;

const COMMON = ['guest_name', 'venue_name', 'date', 'time', 'party_size'] as const;

export const TEMPLATE_PLACEHOLDERS: Record<MessageKind, readonly string[]> = {
  confirmation: [...COMMON, 'reference', 'manage_url'],
  reminder: [...COMMON, 'reference', 'confirm_url', 'cancel_url'],
  cancellation: [...COMMON, 'reference'],
  waitlist_ready: ['guest_name', 'venue_name', 'party_size', 'expires_at', 'url'],
};

export const DEFAULT_TEMPLATES: Record<MessageKind, string> = {
  confirmation: 'Hi {guest_name}, your booking at {venue_name} on {date} at {time} for {party_size} is confirmed. Manage it: {manage_url}',
  reminder:
    'Hi {guest_name}, a reminder of your booking at {venue_name} on {date} at {time} for {party_size}. ' +
    'Confirm: {confirm_url} Cancel: {cancel_url}',
  cancellation: 'Hi {guest_name}, your booking at {venue_name} on {date} at {time} has been cancelled.',
  waitlist_ready: 'Hi {guest_name}, your table for {party_size} at {venue_name} is ready. Please reply or come in by {expires_at}. {url}',
};

type Piece = { text: string } | { name: string };

/** The template's pieces, or the reason it is malformed. */
function parse(body: string): Piece[] | string {
  const pieces: Piece[] = [];
  let text = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if ((c === '{' || c === '}') && body[i + 1] === c) {
      text += c;
      i++;
      continue;
    }
    if (c === '}') return 'has a "}" without its "{" (write "}}" for a literal brace)';
    if (c !== '{') {
      text += c;
      continue;
    }
    const end = body.indexOf('}', i);
    const name = end === -1 ? '' : body.slice(i + 1, end);
    if (end === -1 || !/^[a-z][a-z0-9_]*$/.test(name))
      return 'has a "{" that does not start a {placeholder} (write "{{" for a literal brace)';
    if (text) pieces.push({ text });
    text = '';
    pieces.push({ name });
    i = end;
  }
  if (text) pieces.push({ text });
  return pieces;
}

/** Null when `body` is a valid template of `kind`, else the reason (for a 400). */
export function templateError(kind: MessageKind, body: string): string | null {
  if (!body.trim()) return 'template must not be empty';
  if (body.length > TEMPLATE_MAX_LENGTH) return `template must be at most ${TEMPLATE_MAX_LENGTH} characters`;
  const pieces = parse(body);
  if (typeof pieces === 'string') return `template ${pieces}`;
  const allowed = TEMPLATE_PLACEHOLDERS[kind];
  for (const piece of pieces)
    if ('name' in piece && !allowed.includes(piece.name))
      return `template uses {${piece.name}}, which a ${kind} message does not have (allowed: ${allowed.map((p) => `{${p}}`).join(', ')})`;
  return null;
}

/** The text of a valid template with its placeholders filled (a missing value renders empty). */
export function renderTemplate(body: string, values: Partial<Record<string, string>>): string {
  const pieces = parse(body);
  if (typeof pieces === 'string') throw new Error(`invalid template: ${pieces}`);
  return pieces
    .map((piece) => ('name' in piece ? (values[piece.name] ?? '') : piece.text))
    .join('')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
