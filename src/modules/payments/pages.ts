/**
 * The small HTML pages the payments module serves: the pages the real provider's onboarding returns
 * to, and the shell of the simulated provider's hosted pages (`simulated/pages.ts`). Server-rendered,
 * no scripts.
 */
import type { FastifyReply } from 'fastify';

import { escapeHtml } from '../../domain/html.js';

export { escapeHtml };

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // No form-action: browsers apply it to the redirect after a submit, which goes to the success URL.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

/** Answers with a page, never cached nor framed. */
export const sendHtml = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers(PAGE_HEADERS).send(body);

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; background: #f5f5f4; color: #1c1917; margin: 0; }
main { max-width: 32rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 0.75rem; box-shadow: 0 1px 3px #0002; }
h1 { font-size: 1.4rem; margin-top: 0; }
.note { background: #fef3c7; padding: 0.75rem; border-radius: 0.5rem; font-size: 0.9rem; }
.error { background: #fee2e2; padding: 0.75rem; border-radius: 0.5rem; }
button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 0.5rem; border: 0; background: #1c1917; color: #fff; cursor: pointer; margin: 0.25rem 0; }
button.secondary { background: #e7e5e4; color: #1c1917; }
code { font-size: 0.85rem; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
