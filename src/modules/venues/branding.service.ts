/**
 * A venue's branding, its widgets (settings per type, shared theme, logos) and the cover image; the
 * public widget configurations built from them are widget-configs.ts.
 */
import type { Kysely } from 'kysely';
import { embedSnippets } from '../../domain/widget-embed.js';
import type { Db } from '../../db/connect.js';
import type { Conn } from '../../db/transaction.js';
import type { Database } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import { UPLOAD_LIMITS, type Uploads } from '../../platform/uploads.js';
import {
  BRANDING_DEFAULTS,
  WIDGET_THEME_DEFAULTS,
  loadBranding,
  loadTheme,
  loadWidgets,
  toBranding,
  toTheme,
  type BrandingRow,
  type ThemeRow,
  type WidgetRow,
} from './branding.rows.js';
import {
  WIDGET_TYPES,
  type Branding,
  type BrandingBody,
  type VoucherSettings,
  type WidgetSetting,
  type WidgetSettingBody,
  type WidgetThemeBody,
  type WidgetType,
} from './branding.schemas.js';
import { saveVoucherSettings, voucherSettingsOf } from './voucher-settings.js';
import { createWidgetConfigs } from './widget-configs.js';

const BRAND_FIELDS = ['theme', 'accent_color', 'bg_color', 'text_color', 'font_key'] as const;
const SHOW_FLAGS = ['show_map', 'show_about', 'show_tandc', 'show_info_card', 'show_contact'] as const;

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

  const voucherSettings = (venueId: string) => voucherSettingsOf(db, venueId);

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

  const service = {
    async branding(venue: VenueRow): Promise<Branding> {
      return toBranding(venue, await loadBranding(db, venue.id));
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
    saveVoucherSettings: (venueId: string, settings: VoucherSettings, conn: Conn = db) =>
      saveVoucherSettings(conn, venueId, settings, clock.now()),

    async widgetSettings(venue: VenueRow) {
      let widgets = await loadWidgets(db, venue.id);
      const missing = WIDGET_TYPES.filter((type) => !widgets.some((w) => w.widget_type === type));
      if (missing.length > 0) {
        await mintWidgets(undefined, venue.id, missing);
        widgets = await loadWidgets(db, venue.id);
      }
      const [brandingRow, themeRow, vouchers] = await Promise.all([
        loadBranding(db, venue.id),
        loadTheme(db, venue.id),
        voucherSettings(venue.id),
      ]);
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
  };

  return { ...service, ...createWidgetConfigs(deps) };
}

export type BrandingService = ReturnType<typeof createBrandingService>;
