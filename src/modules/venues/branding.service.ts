/**
 * A venue's branding, its widgets (settings per type, shared theme, logos), the cover image, and the
 * public widget configurations built from them.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import { UPLOAD_LIMITS, type Uploads } from '../../platform/uploads.js';
import {
  WIDGET_TYPES,
  type Branding,
  type BrandingBody,
  type VoucherSettings,
  type WidgetSetting,
  type WidgetSettingBody,
  type WidgetTheme,
  type WidgetThemeBody,
  type WidgetType,
} from './branding.schemas.js';
import { toVenue } from './venues.service.js';
import { saveVoucherSettings, voucherSettingsOf } from './voucher-settings.js';
import type { VenueBrandingTable, WidgetSettingsTable, WidgetThemesTable } from './venues.table.js';
import type { Selectable } from 'kysely';
import { VenueCache } from '../../platform/venue-cache.js';
import { embedSnippets } from '../../domain/widget-embed.js';

export const BRANDING_DEFAULTS = {
  theme: 'classic',
  accent_color: '#b08d57',
  bg_color: '#ffffff',
  text_color: '#1f2933',
  font_key: 'sans',
} as const;

export const WIDGET_THEME_DEFAULTS = {
  width: 'medium',
  theme_mode: 'detailed',
  custom_css: '',
  show_map: 1,
  show_about: 1,
  show_tandc: 1,
  show_info_card: 1,
  show_contact: 1,
} as const;

const BRAND_FIELDS = ['theme', 'accent_color', 'bg_color', 'text_color', 'font_key'] as const;
const SHOW_FLAGS = ['show_map', 'show_about', 'show_tandc', 'show_info_card', 'show_contact'] as const;

type BrandingRow = Selectable<VenueBrandingTable>;
type WidgetRow = Selectable<WidgetSettingsTable>;
type ThemeRow = Selectable<WidgetThemesTable>;

export function createBrandingService(deps: {
  db: Db;
  clock: Clock;
  uploads: Pick<Uploads, 'saveImage'>;
  publicBaseUrl: string;
  /** The widgets' keys: the payments platform's publishable key (null when payments cannot be taken) and the bot check's site key. */
  publishableKey: string | null;
  turnstileSiteKey: string | null;
}) {
  const { db, clock, uploads } = deps;
  const now = () => clock.now().toISOString();
  const widgetUrl = (publicId: string) => `${deps.publicBaseUrl}/widget/${publicId}`;

  const loadBranding = (venueId: string) =>
    db.kysely.selectFrom('venue_branding').selectAll().where('venue_id', '=', venueId).executeTakeFirst();
  const loadTheme = (venueId: string) =>
    db.kysely.selectFrom('widget_themes').selectAll().where('venue_id', '=', venueId).executeTakeFirst();
  const loadWidgets = (venueId: string) => db.kysely.selectFrom('widget_settings').selectAll().where('venue_id', '=', venueId).execute();
  const voucherSettings = (venueId: string) => voucherSettingsOf(db, venueId);

  function toBranding(venue: VenueRow, row: BrandingRow | undefined): Branding {
    return {
      theme: row?.theme ?? BRANDING_DEFAULTS.theme,
      accent_color: row?.accent_color ?? BRANDING_DEFAULTS.accent_color,
      bg_color: row?.bg_color ?? BRANDING_DEFAULTS.bg_color,
      text_color: row?.text_color ?? BRANDING_DEFAULTS.text_color,
      font_key: row?.font_key ?? BRANDING_DEFAULTS.font_key,
      logo_url: row?.logo_url ?? null,
      cover_image_url: venue.cover_image_url,
      updated_at: row?.updated_at ?? null,
    };
  }

  function toTheme(row: ThemeRow | undefined, accentColor: string): WidgetTheme {
    const source = row ?? WIDGET_THEME_DEFAULTS;
    return {
      width: source.width,
      theme_mode: source.theme_mode,
      custom_css: source.custom_css,
      accent_color: accentColor,
      show_map: Boolean(source.show_map),
      show_about: Boolean(source.show_about),
      show_tandc: Boolean(source.show_tandc),
      show_info_card: Boolean(source.show_info_card),
      show_contact: Boolean(source.show_contact),
    };
  }

  const toWidget = (row: WidgetRow, venueName: string, width: string): WidgetSetting => ({
    widget_type: row.widget_type,
    enabled: Boolean(row.enabled),
    public_id: row.public_id,
    url: widgetUrl(row.public_id),
    logo_url: row.logo_url,
    embed: embedSnippets({
      baseUrl: deps.publicBaseUrl,
      publicId: row.public_id,
      type: row.widget_type as WidgetType,
      venueName,
      width,
    }),
  });

  /** Creates the missing widget rows (public ids are minted once and never change). */
  async function mintWidgets(trx: Kysely<Database> | undefined, venueId: string, types: readonly WidgetType[]): Promise<void> {
    const at = now();
    await (trx ?? db.kysely)
      .insertInto('widget_settings')
      .values(
        types.map((type) => ({
          venue_id: venueId,
          widget_type: type,
          enabled: 0,
          public_id: newId('wgt'),
          logo_url: null,
          created_at: at,
          updated_at: at,
        })),
      )
      // A concurrent first read minted the row already: keep its id.
      .onConflict((oc) => oc.columns(['venue_id', 'widget_type']).doNothing())
      .execute();
  }

  async function saveTheme(
    trx: Kysely<Database>,
    venueId: string,
    changes: Partial<Omit<ThemeRow, 'venue_id' | 'created_at' | 'updated_at'>>,
  ) {
    if (Object.keys(changes).length === 0) return;
    const at = now();
    await trx
      .insertInto('widget_themes')
      .values({ ...WIDGET_THEME_DEFAULTS, ...changes, venue_id: venueId, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('venue_id').doUpdateSet({ ...changes, updated_at: at }))
      .execute();
  }

  async function saveBranding(venueId: string, changes: Partial<Omit<BrandingRow, 'venue_id' | 'created_at' | 'updated_at'>>) {
    const at = now();
    await db.kysely
      .insertInto('venue_branding')
      .values({ ...BRANDING_DEFAULTS, logo_url: null, ...changes, venue_id: venueId, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('venue_id').doUpdateSet({ ...changes, updated_at: at }))
      .execute();
  }

  /** Everything a public widget needs from the venue; draft venues are not public. */
  async function publicParts(venueId: string, type: WidgetType) {
    const venue = await db.kysely.selectFrom('venues').selectAll().where('id', '=', venueId).executeTakeFirst();
    if (!venue || venue.status !== 'live') throw notFound('Venue');
    const [brandingRow, themeRow, widgets, vouchers] = await Promise.all([
      loadBranding(venue.id),
      loadTheme(venue.id),
      loadWidgets(venue.id),
      voucherSettings(venue.id),
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

  const service = {
    async branding(venue: VenueRow): Promise<Branding> {
      return toBranding(venue, await loadBranding(venue.id));
    },

    async updateBranding(venue: VenueRow, input: BrandingBody): Promise<void> {
      // Only the brand fields: the logo has its own upload route, and unknown fields are ignored.
      const changes = Object.fromEntries(BRAND_FIELDS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
      if (Object.keys(changes).length > 0) await saveBranding(venue.id, changes);
    },

    async uploadBrandingLogo(venue: VenueRow, data: string) {
      const image = await uploads.saveImage(data, UPLOAD_LIMITS.brandLogo);
      await saveBranding(venue.id, { logo_url: image.url });
      return { success: true, url: image.url };
    },

    async coverImage(venue: VenueRow, input: { data?: string; remove?: boolean }) {
      if (input.remove === true && input.data !== undefined) throw badRequest('Send either data or remove, not both');
      const url = input.remove === true ? null : (await uploads.saveImage(input.data, UPLOAD_LIMITS.coverImage)).url;
      await db.kysely.updateTable('venues').set({ cover_image_url: url, updated_at: now() }).where('id', '=', venue.id).execute();
      return { success: true, url };
    },

    /** A venue's gift-voucher settings merged with the defaults (the vouchers module's settings routes). */
    voucherSettings,

    /** Stores a venue's whole gift-voucher settings record (the vouchers module validates it first). */
    saveVoucherSettings: (venueId: string, settings: VoucherSettings) => saveVoucherSettings(db, venueId, settings, clock.now()),

    async widgetSettings(venue: VenueRow) {
      let widgets = await loadWidgets(venue.id);
      const missing = WIDGET_TYPES.filter((type) => !widgets.some((w) => w.widget_type === type));
      if (missing.length > 0) {
        await mintWidgets(undefined, venue.id, missing);
        widgets = await loadWidgets(venue.id);
      }
      const [brandingRow, themeRow, vouchers] = await Promise.all([loadBranding(venue.id), loadTheme(venue.id), voucherSettings(venue.id)]);
      const theme = toTheme(themeRow, toBranding(venue, brandingRow).accent_color);
      const byType = (type: WidgetType) =>
        toWidget(
          widgets.find((w) => w.widget_type === type)!,
          venue.name,
          theme.width,
        );
      return {
        data: { bookings: byType('bookings'), events: byType('events'), vouchers: byType('vouchers'), combo: byType('combo') },
        theme,
        vouchers_enabled: vouchers.enabled,
      };
    },

    async updateWidget(venue: VenueRow, type: WidgetType, input: WidgetSettingBody) {
      const enabled = toFlag(input.enabled)!;
      if (type === 'vouchers' && enabled === 1 && !(await voucherSettings(venue.id)).enabled) {
        throw badRequest('Gift vouchers are turned off for this venue: turn them on before enabling the vouchers widget');
      }
      return withTransaction(db, async (trx) => {
        await mintWidgets(trx, venue.id, [type]);
        const row = await trx
          .updateTable('widget_settings')
          .set({ enabled, updated_at: now() })
          .where('venue_id', '=', venue.id)
          .where('widget_type', '=', type)
          .returning('public_id')
          .executeTakeFirstOrThrow();
        const theme: Partial<ThemeRow> = {};
        if (input.width !== undefined) theme.width = input.width;
        if (input.custom_css !== undefined) theme.custom_css = input.custom_css ?? '';
        await saveTheme(trx, venue.id, theme);
        return { success: true, public_id: row.public_id };
      });
    },

    async updateTheme(venue: VenueRow, input: WidgetThemeBody): Promise<void> {
      const changes: Partial<ThemeRow> = {};
      if (input.width !== undefined) changes.width = input.width;
      if (input.theme_mode !== undefined) changes.theme_mode = input.theme_mode;
      if (input.custom_css !== undefined) changes.custom_css = input.custom_css ?? '';
      for (const flag of SHOW_FLAGS) {
        const value = toFlag(input[flag]);
        if (value !== undefined) changes[flag] = value;
      }
      await withTransaction(db, (trx) => saveTheme(trx, venue.id, changes));
    },

    async uploadWidgetLogo(venue: VenueRow, data: string, type: WidgetType = 'bookings') {
      const image = await uploads.saveImage(data, UPLOAD_LIMITS.widgetLogo);
      await withTransaction(db, async (trx) => {
        await mintWidgets(trx, venue.id, [type]);
        await trx
          .updateTable('widget_settings')
          .set({ logo_url: image.url, updated_at: now() })
          .where('venue_id', '=', venue.id)
          .where('widget_type', '=', type)
          .execute();
      });
      return { success: true, url: image.url };
    },

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

  // The public widget configs are the same for every guest: served from the venue cache, which any
  // write to the venue's data (or to data it cannot place) invalidates before that write returns.
  const configs = new VenueCache<unknown>(db.changes, clock, { ttlMs: PUBLIC_CONFIG_TTL_MS });
  const cached =
    <R>(name: string, compute: (venueId: string) => Promise<R>) =>
    (venueId: string): Promise<R> =>
      configs.get(venueId, name, () => compute(venueId)) as Promise<R>;
  const publicConfigs = {
    bookings: cached('bookings', service.bookingWidgetConfig),
    events: cached('events', service.eventsWidgetConfig),
    vouchers: cached('vouchers', service.voucherConfig),
    combo: cached('combo', service.comboWidgetConfig),
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
    ...service,
    widgetPage,
    bookingWidgetConfig: publicConfigs.bookings,
    eventsWidgetConfig: publicConfigs.events,
    voucherConfig: publicConfigs.vouchers,
    comboWidgetConfig: publicConfigs.combo,
  };
}

/** How long a cached public widget config may be served without a change. */
const PUBLIC_CONFIG_TTL_MS = 60_000;

export type BrandingService = ReturnType<typeof createBrandingService>;
