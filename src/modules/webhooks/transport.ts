/**
 * The one outbound request of a delivery, guarded against server-side request forgery: only http(s);
 * the host's every address (dns.lookup, all) must be public (domain/ip-ranges.ts) unless
 * WEBHOOKS_ALLOW_PRIVATE, checked when the endpoint is registered and again on each delivery, inside
 * the connection's own look-up, so the address connected to is the address checked (no DNS rebinding
 * between the check and the connection). No redirect is followed (a 3xx is a failed attempt), the whole
 * exchange is bounded by WEBHOOKS_TIMEOUT_MS, and at most RESPONSE_READ_BYTES of the answer are read.
 */
import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { classifyAddress } from '../../domain/ip-ranges.js';

const RESPONSE_READ_BYTES = 64 * 1024;

export interface TransportOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

export class RefusedAddressError extends Error {}

/** The URL's host as dns.lookup takes it (IPv6 literals without their brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Why the URL may not be used (undefined: it may): scheme, credentials, then every address of its host. */
export async function refusedUrl(raw: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The URL is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must be http or https';
  if (url.username || url.password) return 'The URL must not carry a user name or password';
  if (allowPrivate) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(hostOf(url), { all: true, verbatim: true });
  } catch {
    return `The URL's host ${url.hostname} could not be resolved`;
  }
  return refusedAmong(url.hostname, addresses);
}

function refusedAmong(host: string, addresses: readonly LookupAddress[]): string | undefined {
  if (addresses.length === 0) return `The URL's host ${host} could not be resolved`;
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.allowed) return `The URL's host ${host} resolves to ${address} (${verdict.reason}): webhooks go to public addresses only`;
  }
  return undefined;
}

/** A dns.lookup for http.request that refuses a host with any non-public address. */
function guardedLookup(allowPrivate: boolean): NonNullable<http.RequestOptions['lookup']> {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error);
      const refused = allowPrivate ? undefined : refusedAmong(hostname, addresses);
      if (refused) return callback(new RefusedAddressError(refused));
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  }) as NonNullable<http.RequestOptions['lookup']>;
}

export interface PostResult {
  statusCode: number;
  body: string;
}

/** POSTs `body` to `raw`; resolves with the answer whatever its status, rejects when none came (refused, network, timeout). */
export function postJson(raw: string, body: string, headers: Record<string, string>, options: TransportOptions): Promise<PostResult> {
  const url = new URL(raw);
  const literal = hostOf(url);
  if (isIP(literal) && !options.allowPrivate) {
    const verdict = classifyAddress(literal);
    if (!verdict.allowed) return Promise.reject(new RefusedAddressError(`${literal} is not a public address (${verdict.reason})`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        response.on('data', (chunk: Buffer) => {
          if (read >= RESPONSE_READ_BYTES) return;
          chunks.push(chunk.subarray(0, RESPONSE_READ_BYTES - read));
          read += chunk.length;
          if (read >= RESPONSE_READ_BYTES) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', (error) => (read >= RESPONSE_READ_BYTES ? done() : reject(error)));
      },
    );
    request.on('error', (error) =>
      reject(error.name === 'AbortError' || error.name === 'TimeoutError' ? new Error(`No answer within ${options.timeoutMs} ms`) : error),
    );
    request.end(body);
  });
}
