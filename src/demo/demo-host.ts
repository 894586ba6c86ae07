/**
 * The demo's stand-in for a venue's own website: one page embedding each enabled widget through its
 * loader snippet, as a venue would paste them. `maitred demo` writes it beside the data; served from
 * another origin than Maitred's (any other host or port), it shows the widgets as guests meet them.
 */
import { escapeHtml } from '../domain/html.js';

const LABELS: Record<string, string> = { bookings: 'Book a table', events: "What's on", vouchers: 'Gift vouchers', combo: 'All in one' };

export function demoHostPage(venueName: string, snippets: Record<string, string>): string {
  const sections = Object.entries(snippets).map(
    ([type, snippet]) => `<section>\n<h2>${escapeHtml(LABELS[type] ?? type)}</h2>\n${snippet}\n</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(venueName)} (demo site)</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }
section { margin: 2rem 0; }
</style>
</head>
<body>
<h1>${escapeHtml(venueName)}</h1>
<p>A stand-in for the venue's own website, embedding its Maitred widgets with the loader snippets.</p>
${sections.join('\n')}
<script>document.addEventListener('maitred:booked', (event) => console.log('booked', event.detail));</script>
</body>
</html>
`;
}
