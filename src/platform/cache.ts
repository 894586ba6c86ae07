/**
 * HTTP caching helpers: edge-cacheable public responses, and ETag/If-None-Match → 304 for routes that
 * opt in with `config: { etag: true }` (computed over the serialised body in app.ts's onSend hook).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    etag?: boolean;
  }
}

/** Public, edge-cached for `seconds`, served stale while revalidating. */
export function publicCache(reply: FastifyReply, seconds = 60): void {
  reply.header('Cache-Control', `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${seconds * 2}`);
}

export function etagOf(payload: string | Buffer): string {
  return `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
}

export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}
