/**
 * For mail tests: a local SMTP server (smtp-server) that records what it receives, can refuse
 * recipients and be stopped and started on the same port, and a reader for the MIME that nodemailer
 * writes (multipart, base64, quoted-printable and encoded-word headers: enough to assert on).
 */
import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** (Re)starts listening on `port`. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function createTestSmtp(options: { refuse?: string[]; delayMs?: number; started?: boolean } = {}): Promise<TestSmtp> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined;

  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (options.refuse?.includes(address.address)) {
          return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const done = () => {
            received.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              raw: Buffer.concat(chunks).toString('utf8'),
            });
            callback();
          };
          if (options.delayMs) setTimeout(done, options.delayMs);
          else done();
        });
      },
    });

  const smtp: TestSmtp = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    async start() {
      server = make();
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async waitFor(count, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  if (options.started !== false) await smtp.start();
  return smtp;
}

export interface ParsedMail {
  headers: Map<string, string>;
  text?: string;
  html?: string;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQp(data.replace(/_/g, ' ')),
  );
}

function decodeQp(body: string): string {
  return body.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/gi, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
}

function split(part: string): { headers: Map<string, string>; body: string } {
  const end = part.indexOf('\r\n\r\n');
  const head = part.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body: part.slice(end + 4) };
}

function walk(headers: Map<string, string>, body: string, out: ParsedMail): void {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    for (const piece of body.split(`--${boundary}`).slice(1)) {
      if (piece.startsWith('--')) break;
      const part = split(piece.replace(/^\r\n/, '').replace(/\r\n$/, ''));
      walk(part.headers, part.body, out);
    }
    return;
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const content =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQp(body)
        : body;
  const disposition = headers.get('content-disposition') ?? '';
  if (disposition.startsWith('attachment')) {
    out.attachments.push({ filename: /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? '', contentType: type, content });
  } else if (type.startsWith('text/html')) out.html = content;
  else out.text = content;
}

export function parseMail(raw: string): ParsedMail {
  const { headers, body } = split(raw);
  const out: ParsedMail = { headers, attachments: [] };
  walk(headers, body.replace(/\r\n$/, ''), out);
  return out;
}
