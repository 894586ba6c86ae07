/**
 * What a venue pastes into its own site to show a widget (docs/widgets.md, "Embedding"): a plain iframe,
 * or the loader — an element naming the widget, a `<noscript>` link for browsers without scripts, and
 * the async loader script, which makes the iframe (title, `allow="payment"`, lazy loading), sizes it to
 * its content and falls back to a link when the widget does not answer.
 */
import { escapeHtml } from './html.js';

export const WIDGET_TITLES = {
  bookings: (venue: string) => `Book a table at ${venue}`,
  events: (venue: string) => `What's on at ${venue}`,
  vouchers: (venue: string) => `Gift vouchers for ${venue}`,
  combo: (venue: string) => venue,
} as const;

export type EmbeddableWidget = keyof typeof WIDGET_TITLES;

/** Widths the widget theme names, in CSS pixels: the iframe's max-width. */
export const WIDGET_MAX_WIDTH_PX: Record<string, number> = { narrow: 420, medium: 560, wide: 760 };

export function embedSnippets(input: { baseUrl: string; publicId: string; type: EmbeddableWidget; venueName: string; width?: string }) {
  const url = `${input.baseUrl}/widget/${encodeURIComponent(input.publicId)}`;
  const title = escapeHtml(WIDGET_TITLES[input.type](input.venueName));
  const maxWidth = WIDGET_MAX_WIDTH_PX[input.width ?? 'medium'] ?? WIDGET_MAX_WIDTH_PX.medium;
  const id = escapeHtml(input.publicId);
  return {
    iframe:
      `<iframe src="${escapeHtml(url)}" title="${title}" allow="payment" loading="lazy" ` +
      `style="display:block;width:100%;max-width:${maxWidth}px;height:720px;border:0"></iframe>`,
    loader:
      `<div data-maitred-widget="${id}" data-maitred-title="${title}"><noscript><a href="${escapeHtml(url)}">${title}</a></noscript></div>\n` +
      `<script async src="${escapeHtml(`${input.baseUrl}/widget/loader.js`)}"></script>`,
  };
}
