/**
 * Security headers on every response (helmet), set before anything else runs so errors, 404s and
 * maintenance answers carry them too. One policy serves the JSON API and the /docs page: swagger-ui
 * needs its own scripts and styles, inline style attributes, data: images and calls back to this
 * origin for "Try it out", and nothing else. Pages with their own policy (the simulated payment
 * provider's) and the uploaded images (uploads.ts) replace it with a stricter one.
 */
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export async function registerSecurityHeaders(app: FastifyInstance, options: { publicBaseUrl: string }): Promise<void> {
  // HSTS and upgrading requests only make sense when the service is published over HTTPS; over plain
  // HTTP (development, a private network) they would lock browsers out of it.
  const https = new URL(options.publicBaseUrl).protocol === 'https:';
  await app.register(fastifyHelmet, {
    global: true,
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
  });
}
