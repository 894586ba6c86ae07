/**
 * What the widget routes answer: a widget's page (or the closed page), its theme stylesheet, the
 * build's asset files and the loader. The venue side (which widget a public id names, and its public
 * config) comes from the venues module through the composition root.
 */
import { localToday } from '../../domain/venue-time.js';
import type { EmbeddableWidget } from '../../domain/widget-embed.js';
import type { Clock } from '../../platform/clock.js';
import type { WidgetBuild } from './widget-build.js';
import { accountPageHtml, closedPageHtml, managePageHtml, themeCss, widgetPageHtml } from './widget-page.js';

interface PublicWidgetConfig {
  venue: { id: string; name: string; timezone: string };
  widget: { enabled: boolean; width: string; custom_css: string; accent_color: string };
  branding: { bg_color: string; text_color: string; font_key: string };
}

export interface WidgetLookup {
  (publicId: string): Promise<{ type: EmbeddableWidget; publicId: string; venueId: string; config: PublicWidgetConfig } | undefined>;
}

export function createWidgetPages(deps: { widgetPage: WidgetLookup; build: () => WidgetBuild | undefined; clock: Clock }) {
  const unavailable = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not available yet</title></head><body><p>The booking pages are being prepared. Please try again in a moment.</p></body></html>`;
  return {
    async page(publicId: string): Promise<{ status: number; html: string }> {
      const widget = await deps.widgetPage(publicId);
      if (!widget) return { status: 404, html: closedPageHtml() };
      const build = deps.build();
      if (!build) return { status: 503, html: unavailable };
      return {
        status: 200,
        html: widgetPageHtml({
          type: widget.type,
          publicId: widget.publicId,
          venueId: widget.venueId,
          venueName: widget.config.venue.name,
          // The server's today where the venue is: the widget's calendar starts there, whatever the
          // guest's device clock or zone says.
          today: localToday(deps.clock.now(), widget.config.venue.timezone),
          config: widget.config,
          assets: build.entry(widget.type),
          themeUrl: `/widget/${encodeURIComponent(widget.publicId)}/theme.css`,
        }),
      };
    },

    manage(): { status: number; html: string } {
      const build = deps.build();
      return build ? { status: 200, html: managePageHtml(build.entry('manage')) } : { status: 503, html: unavailable };
    },

    account(): { status: number; html: string } {
      const build = deps.build();
      return build ? { status: 200, html: accountPageHtml(build.entry('account')) } : { status: 503, html: unavailable };
    },

    async theme(publicId: string): Promise<string | undefined> {
      const widget = await deps.widgetPage(publicId);
      if (!widget) return undefined;
      const { widget: settings, branding } = widget.config;
      return themeCss({
        accent: settings.accent_color,
        background: branding.bg_color,
        text: branding.text_color,
        fontKey: branding.font_key,
        width: settings.width,
        customCss: settings.custom_css,
      });
    },

    asset: (name: string) => deps.build()?.asset(name),
    loader: () => deps.build()?.loader,
  };
}

export type WidgetPages = ReturnType<typeof createWidgetPages>;
