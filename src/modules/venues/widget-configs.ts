/**
 * The public configuration of each widget type (spec: Public widget endpoints) and the widget a public
 * id names, for the widget page. They are the same for every guest, so they are served from the venue
 * cache, which any write to the venue's data (or to data it cannot place) invalidates before that write returns.
 */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors.js';
import { VenueCache } from '../../platform/venue-cache.js';
import { WIDGET_TYPES, type WidgetType } from './branding.schemas.js';
import { loadBranding, loadTheme, loadWidgets, toBranding, toTheme } from './branding.rows.js';
import { toVenue } from './venues.service.js';
import { voucherSettingsOf } from './voucher-settings.js';

/** How long a cached public widget config may be served without a change. */
const PUBLIC_CONFIG_TTL_MS = 60_000;

export function createWidgetConfigs(deps: {
  db: Db;
  clock: Clock;
  publicBaseUrl: string;
  /** The widgets' keys: the payments platform's publishable key (null when payments cannot be taken) and the bot check's site key. */
  publishableKey: string | null;
  turnstileSiteKey: string | null;
}) {
  const { db, clock } = deps;
  const widgetUrl = (publicId: string) => `${deps.publicBaseUrl}/widget/${publicId}`;

  /** Everything a public widget needs from the venue; draft venues are not public. */
  async function publicParts(venueId: string, type: WidgetType) {
    const venue = await db.kysely.selectFrom('venues').selectAll().where('id', '=', venueId).executeTakeFirst();
    if (!venue || venue.status !== 'live') throw notFound('Venue');
    const [brandingRow, themeRow, widgets, vouchers] = await Promise.all([
      loadBranding(db, venue.id),
      loadTheme(db, venue.id),
      loadWidgets(db, venue.id),
      voucherSettingsOf(db, venue.id),
    ]);
    const branding = toBranding(venue, brandingRow);
    const theme = toTheme(themeRow, branding.accent_color);
    const rowOf = (t: WidgetType) => widgets.find((w) => w.widget_type === t);
    // The vouchers widget only sells while gift vouchers are on, whatever its own switch says.
    const enabledOf = (t: WidgetType) => Boolean(rowOf(t)?.enabled) && (t !== 'vouchers' || vouchers.enabled);
    const row = rowOf(type);
    const widget = {
      enabled: enabledOf(type),
      public_id: row?.public_id ?? null,
      theme_mode: theme.theme_mode,
      accent_color: theme.accent_color,
      width: theme.width,
      custom_css: theme.custom_css,
      show_map: theme.show_map,
      show_about: theme.show_about,
      show_tandc: theme.show_tandc,
      show_info_card: theme.show_info_card,
      show_contact: theme.show_contact,
      logo_url: row?.logo_url ?? branding.logo_url ?? venue.logo_url,
    };
    const publicVenue = {
      id: venue.id,
      name: venue.name,
      address: venue.address,
      timezone: venue.timezone,
      phone: venue.phone,
      email: venue.email,
      website: venue.website,
      description: venue.description,
      opening_hours: toVenue(venue).opening_hours,
      logo_url: venue.logo_url,
      cover_image_url: venue.cover_image_url,
    };
    const { cover_image_url: _cover, updated_at: _updated, ...publicBranding } = branding;
    return { venue, publicVenue, widget, branding: publicBranding, vouchers, rowOf, enabledOf };
  }

  // The key comes from the payments platform, which knows whether payments can actually be taken
  // (`stripe` without a secret key answers 503, so its publishable key must not reach the widgets).
  function keys() {
    return { publishable_key: deps.publishableKey, turnstile_site_key: deps.turnstileSiteKey };
  }

  const builders = {
    async bookingWidgetConfig(venueId: string) {
      const parts = await publicParts(venueId, 'bookings');
      const { venue } = parts;
      return {
        venue: parts.publicVenue,
        widget: parts.widget,
        branding: parts.branding,
        booking: {
          default_party_min: venue.default_party_min,
          default_party_max: venue.default_party_max,
          default_booking_duration: venue.default_booking_duration,
          max_plus_ones: venue.max_plus_ones,
          tables_enabled: Boolean(venue.tables_enabled),
          guest_list_enabled: Boolean(venue.guest_list_enabled),
          paid_guest_list_enabled: Boolean(venue.paid_guest_list_enabled),
        },
        ...keys(),
      };
    },

    async eventsWidgetConfig(venueId: string) {
      const parts = await publicParts(venueId, 'events');
      return { venue: parts.publicVenue, widget: parts.widget, branding: parts.branding, ...keys() };
    },

    async voucherConfig(venueId: string) {
      const parts = await publicParts(venueId, 'vouchers');
      return { venue: parts.publicVenue, widget: parts.widget, branding: parts.branding, settings: parts.vouchers, ...keys() };
    },

    async comboWidgetConfig(venueId: string) {
      const parts = await publicParts(venueId, 'combo');
      const link = (type: WidgetType) => {
        const row = parts.rowOf(type);
        return row && parts.enabledOf(type) ? widgetUrl(row.public_id) : null;
      };
      return {
        venue: { id: parts.venue.id, name: parts.venue.name, timezone: parts.venue.timezone },
        enabled: { bookings: parts.enabledOf('bookings'), events: parts.enabledOf('events'), vouchers: parts.enabledOf('vouchers') },
        links: { bookings: link('bookings'), events: link('events'), vouchers: link('vouchers') },
        widget: parts.widget,
        branding: parts.branding,
      };
    },
  };

  const configs = new VenueCache<unknown>(db.changes, clock, { ttlMs: PUBLIC_CONFIG_TTL_MS });
  const cached =
    <R>(name: string, compute: (venueId: string) => Promise<R>) =>
    (venueId: string): Promise<R> =>
      configs.get(venueId, name, () => compute(venueId)) as Promise<R>;
  const publicConfigs = {
    bookings: cached('bookings', builders.bookingWidgetConfig),
    events: cached('events', builders.eventsWidgetConfig),
    vouchers: cached('vouchers', builders.voucherConfig),
    combo: cached('combo', builders.comboWidgetConfig),
  };

  /**
   * The widget a public id names, with its type's public config, for the widget page; undefined when
   * the id is unknown, the venue is not live or the widget is switched off (the page says it is closed).
   */
  async function widgetPage(publicId: string) {
    const row = await db.kysely
      .selectFrom('widget_settings')
      .select(['venue_id', 'widget_type'])
      .where('public_id', '=', publicId)
      .executeTakeFirst();
    if (!row || !(WIDGET_TYPES as readonly string[]).includes(row.widget_type)) return undefined;
    const type = row.widget_type as WidgetType;
    const config = await publicConfigs[type](row.venue_id).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) return undefined;
      throw error;
    });
    if (!config?.widget.enabled) return undefined;
    return { type, publicId, venueId: row.venue_id, config };
  }

  return {
    widgetPage,
    bookingWidgetConfig: publicConfigs.bookings,
    eventsWidgetConfig: publicConfigs.events,
    voucherConfig: publicConfigs.vouchers,
    comboWidgetConfig: publicConfigs.combo,
  };
}
