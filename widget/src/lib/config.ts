/** The page's data: the venue's public config, inlined by the server as a JSON data block. */
export interface VenueInfo {
  id: string;
  name: string;
  address?: string | null;
  timezone: string;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  description?: string | null;
  logo_url?: string | null;
  cover_image_url?: string | null;
}

export interface WidgetLook {
  enabled: boolean;
  theme_mode: string;
  width: string;
  show_map: boolean;
  show_about: boolean;
  show_tandc: boolean;
  show_info_card: boolean;
  show_contact: boolean;
  logo_url?: string | null;
}

export interface PageData<C> {
  type: 'bookings' | 'events' | 'vouchers' | 'combo';
  public_id: string;
  venue_id: string;
  /** The venue's date today by the server's clock. */
  today: string;
  protocol: number;
  config: C;
}

export interface BaseConfig {
  venue: VenueInfo;
  widget: WidgetLook;
  publishable_key?: string | null;
  turnstile_site_key?: string | null;
}

export function pageData<C>(): PageData<C> {
  const element = document.getElementById('maitred-config');
  if (!element?.textContent) throw new Error('The page has no widget configuration');
  return JSON.parse(element.textContent) as PageData<C>;
}
