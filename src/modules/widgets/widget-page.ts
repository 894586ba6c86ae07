/**
 * The HTML of a widget page and of the "closed" page, and the theme stylesheet. Pure functions: the
 * routes hand them the venue's public config and the build's asset names.
 *
 * The venue's config travels inlined as a JSON data block (never executed; `<`, U+2028 and U+2029
 * escaped so no text in it can end the element). The operator's `custom_css` is only ever the text of
 * a stylesheet served as `text/css` (theme.css), never part of this HTML.
 */
import { escapeHtml } from '../../domain/html.js';
import { WIDGET_TITLES, type EmbeddableWidget } from '../../domain/widget-embed.js';
import type { EntryAssets } from './widget-build.js';

/** The version of the embed protocol (loader ↔ widget postMessage); docs/widgets.md. */
export const EMBED_PROTOCOL_VERSION = 1;

export interface WidgetPageInput {
  type: EmbeddableWidget;
  publicId: string;
  venueId: string;
  venueName: string;
  /** The venue-local date today (YYYY-MM-DD). */
  today: string;
  config: unknown;
  assets: EntryAssets;
  themeUrl: string;
}

const FONTS: Record<string, string> = {
  serif: '"Iowan Old Style", "Palatino Linotype", Palatino, P052, "URW Palladio L", Georgia, serif',
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  mono: 'ui-monospace, "SFMono-Regular", Menlo, monospace',
};

/** A page's stylesheets (the build's, then the venue theme when given), module preloads and entry script. */
function assetTags(assets: EntryAssets, themeUrl?: string): string[] {
  return [
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...(themeUrl ? [`<link rel="stylesheet" href="${escapeHtml(themeUrl)}">`] : []),
    ...assets.preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
    `<script type="module" src="${escapeHtml(assets.script)}"></script>`,
  ];
}

/** JSON that is safe inside a `<script type="application/json">` element. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function widgetPageHtml(input: WidgetPageInput): string {
  const title = WIDGET_TITLES[input.type](input.venueName);
  const data = {
    type: input.type,
    public_id: input.publicId,
    venue_id: input.venueId,
    today: input.today,
    protocol: EMBED_PROTOCOL_VERSION,
    config: input.config,
  };
  const head = assetTags(input.assets, input.themeUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
${head.join('\n')}
<script type="application/json" id="maitred-config">${jsonForHtml(data)}</script>
</head>
<body>
<div id="app"><p class="mw-loading">Loading…</p></div>
<noscript><p class="mw-noscript">This page needs JavaScript to book. You can also contact the venue directly.</p></noscript>
</body>
</html>
`;
}

/**
 * The guest's manage page (the booking mail's link): its app reads the signed token from the address
 * and calls the manage API with it. No venue data is inlined: the token is the only credential.
 */
export function managePageHtml(assets: EntryAssets): string {
  const head = assetTags(assets);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Your booking</title>
<link rel="icon" href="data:,">
${head.join('\n')}
</head>
<body>
<div id="app"><p class="mw-loading">Loading your booking…</p></div>
<noscript><p class="mw-noscript">This page needs JavaScript. To change your booking, contact the venue directly.</p></noscript>
</body>
</html>
`;
}

/**
 * The guest's own account app (`/account`, docs/account.md): sign-in, bookings, tickets, vouchers, keys
 * and privacy. Nothing is inlined: the app signs in and calls the API with its bearer session.
 */
export function accountPageHtml(assets: EntryAssets): string {
  const head = assetTags(assets);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Your account</title>
<link rel="icon" href="data:,">
${head.join('\n')}
</head>
<body>
<div id="app"><p class="mw-loading">Loading your account…</p></div>
<noscript><p class="mw-noscript">Your account needs JavaScript. To change a booking, use the link in its email or contact the venue.</p></noscript>
</body>
</html>
`;
}

/** The page of an unknown, disabled or not-yet-live widget (answered with 404): no scripts. */
export function closedPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not available</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; color: #1f2933; background: #fff; }
main { max-width: 30rem; margin: 0 auto; text-align: center; }
h1 { font-size: 1.25rem; }
</style>
</head>
<body><main>
<h1>This page is not available</h1>
<p>Online booking here is closed at the moment. Please contact the venue directly.</p>
</main></body>
</html>
`;
}

const COLOUR = /^#[0-9a-fA-F]{3,8}$/;

/** The venue's theme: brand colours and font as CSS custom properties, then the operator's custom CSS. */
export function themeCss(input: {
  accent: string;
  background: string;
  text: string;
  fontKey: string;
  width: string;
  customCss: string;
}): string {
  const colour = (value: string, fallback: string) => (COLOUR.test(value) ? value : fallback);
  const lines = [
    ':root {',
    `  --mw-accent: ${colour(input.accent, '#b08d57')};`,
    `  --mw-bg: ${colour(input.background, '#ffffff')};`,
    `  --mw-text: ${colour(input.text, '#1f2933')};`,
    `  --mw-font: ${FONTS[input.fontKey] ?? FONTS.sans};`,
    '}',
    `body { --mw-width: var(--mw-width-${/^[a-z]+$/.test(input.width) ? input.width : 'medium'}); }`,
  ];
  return `${lines.join('\n')}\n/* venue custom CSS */\n${input.customCss}\n`;
}
