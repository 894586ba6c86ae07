import { Type, type Static } from 'typebox';
import { Nullable, Toggle } from '../../platform/http.js';
import { OpeningHours } from './venues.schemas.js';

export const WIDGET_TYPES = ['bookings', 'events', 'vouchers', 'combo'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export const WIDGET_WIDTHS = ['narrow', 'medium', 'wide'];
export const THEME_MODES = ['minimal', 'detailed'];
export const FONT_KEYS = ['serif', 'sans', 'mono'];
export const CUSTOM_CSS_MAX = 20000;

const HexColor = Type.String({
  maxLength: 7,
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
  description: 'a hex colour, #rgb or #rrggbb',
});

// ---------------------------------------------------------------------------------------------------
// Branding
// ---------------------------------------------------------------------------------------------------

export const Branding = Type.Object({
  theme: Type.String(),
  accent_color: Type.String(),
  bg_color: Type.String(),
  text_color: Type.String(),
  font_key: Type.String(),
  logo_url: Nullable(Type.String({ description: 'set through branding-logo' })),
  cover_image_url: Nullable(Type.String({ description: 'stored on the venue; set through cover-image' })),
  updated_at: Nullable(Type.String({ description: 'null while the venue uses the defaults' })),
});
export type Branding = Static<typeof Branding>;

export const BrandingBody = Type.Object(
  {
    theme: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: '^[a-z0-9][a-z0-9_-]{0,39}$',
        description: 'a preset name: lower-case letters, digits, - and _',
      }),
    ),
    accent_color: Type.Optional(HexColor),
    bg_color: Type.Optional(HexColor),
    text_color: Type.Optional(HexColor),
    font_key: Type.Optional(Type.Enum(FONT_KEYS)),
  },
  { description: 'Omitted fields keep their value (the default until first saved).' },
);
export type BrandingBody = Static<typeof BrandingBody>;

export const UrlResult = Type.Object({ success: Type.Boolean(), url: Type.String() });

export const CoverImageBody = Type.Object(
  {
    data: Type.Optional(Type.String({ description: 'base64 data URL of a PNG, JPEG, WebP or GIF image, max 3 MB' })),
    remove: Type.Optional(Type.Boolean({ description: '`true` removes the cover image' })),
  },
  { description: 'Either `data` or `remove: true`.' },
);
export const CoverImageResult = Type.Object({ success: Type.Boolean(), url: Nullable(Type.String()) });

// ---------------------------------------------------------------------------------------------------
// Widgets
// ---------------------------------------------------------------------------------------------------

export const WidgetTypeParams = Type.Object({ venueId: Type.String(), type: Type.Enum([...WIDGET_TYPES]) });

export const WidgetSetting = Type.Object({
  widget_type: Type.String(),
  enabled: Type.Boolean(),
  public_id: Type.String({ description: 'stable; the widget is served at `{base_url}/widget/<public_id>`' }),
  url: Type.String(),
  logo_url: Nullable(Type.String()),
  embed: Type.Object(
    {
      iframe: Type.String({ description: 'a plain iframe of the widget' }),
      loader: Type.String({
        description:
          'the loader: an element naming the widget, a `<noscript>` link and the async loader script, which sizes the iframe to its content (docs/widgets.md)',
      }),
    },
    { description: 'extension: the HTML to paste into the venue site' },
  ),
});
export type WidgetSetting = Static<typeof WidgetSetting>;

export const WidgetTheme = Type.Object({
  width: Type.String(),
  theme_mode: Type.String(),
  custom_css: Type.String(),
  accent_color: Type.String({ description: 'the branding accent colour' }),
  show_map: Type.Boolean(),
  show_about: Type.Boolean(),
  show_tandc: Type.Boolean(),
  show_info_card: Type.Boolean(),
  show_contact: Type.Boolean(),
});
export type WidgetTheme = Static<typeof WidgetTheme>;

export const WidgetSettingsResult = Type.Object({
  data: Type.Object({ bookings: WidgetSetting, events: WidgetSetting, vouchers: WidgetSetting, combo: WidgetSetting }),
  theme: WidgetTheme,
  vouchers_enabled: Type.Boolean({ description: 'gift vouchers are on in the voucher settings' }),
});

const Width = Type.Enum(WIDGET_WIDTHS);
const CustomCss = Nullable(Type.String({ maxLength: CUSTOM_CSS_MAX, description: `at most ${CUSTOM_CSS_MAX} characters; null clears` }));

export const WidgetSettingBody = Type.Object(
  {
    enabled: Toggle,
    width: Type.Optional(Width),
    custom_css: Type.Optional(CustomCss),
  },
  { description: 'width and custom_css are written to the global widget theme.' },
);
export type WidgetSettingBody = Static<typeof WidgetSettingBody>;

export const WidgetSettingResult = Type.Object({ success: Type.Boolean(), public_id: Type.String() });

export const WidgetThemeBody = Type.Object(
  {
    width: Type.Optional(Width),
    theme_mode: Type.Optional(Type.Enum(THEME_MODES)),
    custom_css: Type.Optional(CustomCss),
    show_map: Type.Optional(Toggle),
    show_about: Type.Optional(Toggle),
    show_tandc: Type.Optional(Toggle),
    show_info_card: Type.Optional(Toggle),
    show_contact: Type.Optional(Toggle),
  },
  { description: 'Omitted fields keep their value. Colours, logo and font are branding and are not touched here.' },
);
export type WidgetThemeBody = Static<typeof WidgetThemeBody>;

export const WidgetLogoBody = Type.Object({
  data: Type.String({ description: 'base64 data URL of a PNG, JPEG, WebP or GIF image, max 2 MB' }),
  type: Type.Optional(Type.Enum([...WIDGET_TYPES], { description: 'default `bookings`' })),
});

// ---------------------------------------------------------------------------------------------------
// Public widget configuration
// ---------------------------------------------------------------------------------------------------

export const PublicVenueParams = Type.Object({ venueId: Type.String() });

const PublicVenue = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address: Type.String(),
  timezone: Type.String(),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  website: Nullable(Type.String()),
  description: Nullable(Type.String()),
  opening_hours: Nullable(OpeningHours),
  logo_url: Nullable(Type.String()),
  cover_image_url: Nullable(Type.String()),
});

const PublicWidget = Type.Object({
  enabled: Type.Boolean(),
  public_id: Nullable(Type.String({ description: 'null until the operator has opened the widget settings' })),
  theme_mode: Type.String(),
  accent_color: Type.String(),
  width: Type.String(),
  custom_css: Type.String(),
  show_map: Type.Boolean(),
  show_about: Type.Boolean(),
  show_tandc: Type.Boolean(),
  show_info_card: Type.Boolean(),
  show_contact: Type.Boolean(),
  logo_url: Nullable(Type.String({ description: 'the widget logo, else the brand logo, else the venue logo' })),
});

const PublicBranding = Type.Object({
  theme: Type.String(),
  accent_color: Type.String(),
  bg_color: Type.String(),
  text_color: Type.String(),
  font_key: Type.String(),
  logo_url: Nullable(Type.String()),
});

const Keys = {
  publishable_key: Nullable(Type.String({ description: 'payment provider publishable key; null when payments are off' })),
  turnstile_site_key: Nullable(Type.String({ description: 'bot-check site key; null when not configured' })),
};

export const BookingWidgetConfig = Type.Object({
  venue: PublicVenue,
  widget: PublicWidget,
  branding: PublicBranding,
  booking: Type.Object({
    default_party_min: Type.Integer(),
    default_party_max: Type.Integer(),
    default_booking_duration: Type.Integer(),
    max_plus_ones: Type.Integer(),
    tables_enabled: Type.Boolean(),
    guest_list_enabled: Type.Boolean(),
    paid_guest_list_enabled: Type.Boolean(),
  }),
  ...Keys,
});

export const EventsWidgetConfig = Type.Object({ venue: PublicVenue, widget: PublicWidget, branding: PublicBranding, ...Keys });

export const VoucherSettings = Type.Object({
  enabled: Type.Boolean(),
  expiration_months: Type.Integer(),
  min_amount_pence: Type.Integer(),
  max_amount_pence: Type.Integer(),
  fixed_amounts: Nullable(Type.Array(Type.Integer())),
  allow_custom: Type.Boolean(),
  min_qty: Type.Integer(),
  max_qty: Type.Integer(),
  terms: Type.String(),
});
export type VoucherSettings = Static<typeof VoucherSettings>;

export const VoucherConfig = Type.Object({
  venue: PublicVenue,
  widget: PublicWidget,
  branding: PublicBranding,
  settings: VoucherSettings,
  ...Keys,
});

const PerWidget = <T extends Parameters<typeof Type.Object>[0][string]>(schema: T) =>
  Type.Object({ bookings: schema, events: schema, vouchers: schema });

export const ComboWidgetConfig = Type.Object({
  venue: Type.Object({
    id: Type.String(),
    name: Type.String(),
    timezone: Type.String({ description: 'extension: the venue’s IANA zone' }),
  }),
  enabled: PerWidget(Type.Boolean()),
  links: PerWidget(Nullable(Type.String({ description: '`{base_url}/widget/<public_id>` of an enabled widget, else null' }))),
  widget: PublicWidget,
  branding: PublicBranding,
});
