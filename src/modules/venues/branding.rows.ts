/**
 * A venue's branding and widget theme rows as the API shows them (the defaults filled in), and their reads.
 */
import type { Selectable } from 'kysely';
import type { Conn } from '../../db/transaction.js';
import { kyselyOf } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Branding, WidgetTheme } from './branding.schemas.js';
import type { VenueBrandingTable, WidgetSettingsTable, WidgetThemesTable } from './venues.table.js';

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

export type BrandingRow = Selectable<VenueBrandingTable>;
export type WidgetRow = Selectable<WidgetSettingsTable>;
export type ThemeRow = Selectable<WidgetThemesTable>;

export const loadBranding = (conn: Conn, venueId: string) =>
  kyselyOf(conn).selectFrom('venue_branding').selectAll().where('venue_id', '=', venueId).executeTakeFirst();
export const loadTheme = (conn: Conn, venueId: string) =>
  kyselyOf(conn).selectFrom('widget_themes').selectAll().where('venue_id', '=', venueId).executeTakeFirst();
export const loadWidgets = (conn: Conn, venueId: string) =>
  kyselyOf(conn).selectFrom('widget_settings').selectAll().where('venue_id', '=', venueId).execute();

export function toBranding(venue: VenueRow, row: BrandingRow | undefined): Branding {
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

export function toTheme(row: ThemeRow | undefined, accentColor: string): WidgetTheme {
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

/**
 * How a venue's guest pages look outside a widget (the manage page): its bookings widget's theme
 * stylesheet (brand colours, font, custom CSS) and its logo. Null parts when the venue has none.
 */
export async function venueLook(
  conn: Conn,
  venue: Pick<VenueRow, 'id' | 'logo_url'>,
): Promise<{ theme_url: string | null; logo_url: string | null }> {
  const [widgets, branding] = await Promise.all([loadWidgets(conn, venue.id), loadBranding(conn, venue.id)]);
  const widget = widgets.find((w) => w.widget_type === 'bookings') ?? widgets[0];
  return {
    theme_url: widget ? `/widget/${encodeURIComponent(widget.public_id)}/theme.css` : null,
    // As the widgets choose theirs (widget-configs.ts): the widget's, the branding's, the venue's.
    logo_url: widget?.logo_url ?? branding?.logo_url ?? venue.logo_url,
  };
}
