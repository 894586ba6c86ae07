/**
 * Security headers on every response (helmet), set before anything else runs so errors, 404s and
 * maintenance answers carry them too. One policy serves the JSON API and the /docs page: swagger-ui
 * needs its own scripts and styles, inline style attributes, data: images and calls back to this
 * origin for "Try it out", and nothing else. Pages with their own policy (the simulated payment
 * provider's) and the uploaded images (uploads.ts) replace it with a stricter one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers are the same on every answer, so helmet's middleware runs once, here, and each request
 * only copies the result: helmet itself (and @fastify/helmet, which calls `helmet(options)` per request)
 * would parse and serialise the policy on every request, about 3 % of a cheap route's time.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { publicBaseUrl: string }): void {
  const headers = Object.entries(securityHeaders(options));
  app.addHook('onRequest', (_request, reply, done) => {
    // On the raw response, as helmet does: a route's own header (reply.header, or @fastify/static's
    // setHeaders for uploads) replaces the one set here.
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}

/** The headers helmet sets with our options, as a plain object (lower-case names). */
function securityHeaders(options: { publicBaseUrl: string }): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(helmetOptions(options))({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

function helmetOptions(options: { publicBaseUrl: string }): HelmetOptions {
  // HSTS and upgrading requests only make sense when the service is published over HTTPS; over plain
  // HTTP (development, a private network) they would lock browsers out of it.
  const https = new URL(options.publicBaseUrl).protocol === 'https:';
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The API and its docs are never framed (clickjacking); older browsers read X-Frame-Options.
    frameguard: { action: 'deny' },
    // API URLs carry venue and resource ids: none of them leaks to another site.
    referrerPolicy: { policy: 'no-referrer' },
    // A year, this host only: the operator's other subdomains are not ours to pin to HTTPS.
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
}
