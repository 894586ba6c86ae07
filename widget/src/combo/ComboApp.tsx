/**
 * The combo widget: the venue's enabled widgets as tabs on one page. A tab loads that widget's code and
 * public config when first opened, and keeps its flow while the guest switches tabs.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import type { BaseConfig } from '../lib/config';
import { Alert, Shell } from '../ui/Shell';

type Kind = 'bookings' | 'events' | 'vouchers';
interface ComboConfig extends BaseConfig {
  enabled: Record<Kind, boolean>;
  links: Record<Kind, string | null>;
}

const LABELS: Record<Kind, string> = { bookings: 'Book a table', events: "What's on", vouchers: 'Gift vouchers' };
const CONFIG_PATHS: Record<Kind, string> = {
  bookings: 'booking-widget-config',
  events: 'events-widget-config',
  vouchers: 'voucher-config',
};
type App = ComponentType<{ config: never; publicId: string; venueId: string; today: string }>;
const APPS: Record<Kind, () => Promise<App>> = {
  bookings: () => import('../bookings/BookingsApp').then((m) => m.BookingsApp as unknown as App),
  events: () => import('../events/EventsApp').then((m) => m.EventsApp as unknown as App),
  vouchers: () => import('../vouchers/VouchersApp').then((m) => m.VouchersApp as unknown as App),
};

function Tab(props: { kind: Kind; venueId: string; publicId: string; today: string }) {
  const [loaded, setLoaded] = useState<{ App: App; config: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    setError(null);
    Promise.all([APPS[props.kind](), api<unknown>(`/api/public/venues/${encodeURIComponent(props.venueId)}/${CONFIG_PATHS[props.kind]}`)])
      .then(([App, config]) => setLoaded({ App, config }))
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'This part could not be loaded.'));
  };
  useEffect(load, [props.kind, props.venueId]);
  if (error) return <Alert message={error} action={{ label: 'Try again', run: load }} />;
  if (!loaded) return <p class="mw-hint">Loading…</p>;
  const { App, config } = loaded;
  return <App config={config as never} publicId={`${props.publicId}:${props.kind}`} venueId={props.venueId} today={props.today} />;
}

export function ComboApp(props: { config: ComboConfig; publicId: string; venueId: string; today: string }) {
  const kinds = (['bookings', 'events', 'vouchers'] as Kind[]).filter((kind) => props.config.enabled[kind]);
  const [active, setActive] = useState<Kind | undefined>(kinds[0]);
  const [opened, setOpened] = useState<Kind[]>(kinds.slice(0, 1));
  const choose = (kind: Kind) => {
    setActive(kind);
    setOpened((current) => (current.includes(kind) ? current : [...current, kind]));
  };
  const onKey = (event: KeyboardEvent, index: number) => {
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const kind = kinds[(next + kinds.length) % kinds.length];
    choose(kind);
    document.getElementById(`mw-tab-${kind}`)?.focus();
  };
  if (kinds.length === 0) {
    return (
      <Shell config={props.config} heading={props.config.venue.name}>
        <p>Online booking is not open at the moment. Please contact the venue.</p>
      </Shell>
    );
  }
  return (
    <div class="mw-combo">
      <div role="tablist" aria-label={props.config.venue.name} class="mw-tabs">
        {kinds.map((kind, index) => (
          <button
            key={kind}
            id={`mw-tab-${kind}`}
            role="tab"
            type="button"
            aria-selected={active === kind ? 'true' : 'false'}
            aria-controls={`mw-panel-${kind}`}
            tabindex={active === kind ? 0 : -1}
            class="mw-tab"
            onClick={() => choose(kind)}
            onKeyDown={(event) => onKey(event, index)}
          >
            {LABELS[kind]}
          </button>
        ))}
      </div>
      {kinds.map((kind) => (
        <div key={kind} id={`mw-panel-${kind}`} role="tabpanel" aria-labelledby={`mw-tab-${kind}`} hidden={active !== kind}>
          {opened.includes(kind) ? <Tab kind={kind} venueId={props.venueId} publicId={props.publicId} today={props.today} /> : null}
        </div>
      ))}
    </div>
  );
}
