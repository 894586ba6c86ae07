/**
 * The first-run checklist of a venue (`/setup?venue=`): each set-up step done or not, computed from the
 * API, with a link to its screen; what going live still misses (`GET /api/my-venues/:id/readiness`,
 * the same fields a refused go-live names); the Go live button; and a new venue (created in draft so it
 * can be set up before guests can book it).
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../../api/client';
import { useCan, useCurrentVenue } from '../../shell/account';
import { SetupLink, SetupNav } from '../SetupNav';
import { fieldSection, fieldWords, messageOf, setupKey, useReadiness, useRefreshVenue, useVenueRecord, type VenueRecord } from './data';
import { NewVenue } from './NewVenue';

interface Step {
  key: string;
  label: string;
  hint: string;
  path: string;
  section?: string;
  /** undefined: not known yet, or the role may not read it. */
  done: boolean | undefined;
  unreadable?: boolean;
}

const hasOpeningHours = (venue: VenueRecord) => Object.values(venue.opening_hours ?? {}).some((periods) => (periods?.length ?? 0) > 0);

/**
 * How many rows a venue list endpoint has (undefined while loading or when the role may not read it).
 * The list is cached under the key and in the shape the set-up screens use for it (`['setup', venue,
 * what]`, the rows), so the two never read each other's data wrongly; read again whenever the checklist
 * opens, since the steps are done on other screens.
 */
function useCount(venueId: string | undefined, what: string, allowed: boolean, read: () => Promise<{ data: unknown[] }>) {
  return useQuery({
    queryKey: [...setupKey(venueId), what],
    queryFn: async () => (await read()).data,
    select: (rows) => rows.length,
    enabled: Boolean(venueId) && allowed,
    refetchOnMount: 'always',
  }).data;
}

function useSteps(venueId: string | undefined): Step[] {
  const can = useCan();
  const key = setupKey(venueId);
  const path = { params: { path: { venueId: venueId! } } };
  const enabled = Boolean(venueId);
  const venue = useVenueRecord(venueId).data;
  const availability = can('availability', 'read');
  const shifts = useCount(venueId, 'shifts', availability, () => call(api.GET('/api/my-venues/{venueId}/shifts', path)));
  const tables = useCount(venueId, 'tables', can('tables', 'read'), () => call(api.GET('/api/my-venues/{venueId}/tables', path)));
  const rules = useCount(venueId, 'access-rules', availability, () => call(api.GET('/api/my-venues/{venueId}/access-rules', path)));
  const policies = useCount(venueId, 'payment-policies', can('profiles', 'read'), () =>
    call(api.GET('/api/my-venues/{venueId}/payment-policies', path)),
  );
  const branding = useQuery({
    queryKey: [...key, 'branding'],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/branding', path)),
    enabled: enabled && can('venues.branding', 'read'),
    refetchOnMount: 'always',
  }).data;
  const widgets = useQuery({
    queryKey: [...key, 'widget-settings'],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/widget-settings', path)),
    enabled: enabled && can('venues.branding', 'read'),
    refetchOnMount: 'always',
  }).data;
  const payoutsReadable = can('payouts', 'read') || can('operators.settings', 'read');
  const payouts = useQuery({
    queryKey: ['payouts', 'status'],
    queryFn: () => call(api.GET('/api/my-operator/payout/status')),
    enabled: payoutsReadable,
    refetchOnMount: 'always',
  }).data;

  const details = venue && Boolean(venue.name && venue.address && venue.venue_type && venue.phone && venue.email);
  // Opening hours on the venue, or else shifts, count as opening times.
  const opening = !venue ? undefined : hasOpeningHours(venue) || (availability ? (shifts === undefined ? undefined : shifts > 0) : false);
  const readable = (allowed: boolean, done: boolean | undefined) => ({ done: allowed ? done : undefined, unreadable: !allowed });
  return [
    {
      key: 'details',
      label: 'Details',
      hint: 'name, type, address and how guests reach you',
      path: '/setup/venue',
      section: 'details',
      done: details,
    },
    {
      key: 'opening',
      label: 'Opening times',
      hint: 'the hours the venue opens, or its shifts',
      path: '/setup/availability',
      done: opening,
    },
    {
      key: 'tables',
      label: 'Tables',
      hint: 'at least one table on the floorplan',
      path: '/setup/floorplan',
      ...readable(can('tables', 'read'), tables === undefined ? undefined : tables > 0),
    },
    {
      key: 'rules',
      label: 'Booking rules',
      hint: 'at least one access rule guests can book',
      path: '/setup/availability',
      ...readable(availability, rules === undefined ? undefined : rules > 0),
    },
    {
      key: 'payment-policy',
      label: 'Payment policy',
      hint: 'deposits, refunds and cancellation',
      path: '/setup/catalogue',
      ...readable(can('profiles', 'read'), policies === undefined ? undefined : policies > 0),
    },
    {
      key: 'branding',
      label: 'Branding',
      hint: 'colours, font and logo for the widgets',
      path: '/setup/branding',
      ...readable(can('venues.branding', 'read'), branding ? branding.updated_at !== null || branding.logo_url !== null : undefined),
    },
    {
      key: 'widget',
      label: 'Widget',
      hint: 'a booking widget switched on for your site',
      path: '/setup/branding',
      ...readable(can('venues.branding', 'read'), widgets ? Object.values(widgets.data).some((widget) => widget.enabled) : undefined),
    },
    {
      key: 'payouts',
      label: 'Payouts',
      hint: 'your payout account, so deposits reach you',
      path: '/setup/payouts',
      ...readable(payoutsReadable, payouts ? payouts.status === 'enabled' : undefined),
    },
  ];
}

function StepState({ step }: { step: Step }) {
  if (step.unreadable) return <span className="step-state step-state--unknown">Your role cannot see this</span>;
  if (step.done === undefined) return <span className="step-state step-state--unknown">Checking…</span>;
  return step.done ? (
    <span className="step-state step-state--done">
      <span aria-hidden="true">✓ </span>Done
    </span>
  ) : (
    <span className="step-state step-state--todo">
      <span aria-hidden="true">○ </span>Not done
    </span>
  );
}

export default function ChecklistPage() {
  const can = useCan();
  const current = useCurrentVenue();
  const venueId = current?.id;
  const venue = useVenueRecord(venueId);
  const readiness = useReadiness(venueId);
  const steps = useSteps(venueId);
  const refresh = useRefreshVenue(venueId);
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string; missing?: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const mayWrite = can('venues.settings', 'write');

  async function setStatus(status: 'live' | 'draft') {
    if (!venueId) return;
    setBusy(true);
    setResult(null);
    const answer = await api.PUT('/api/my-venues/{id}/status', { params: { path: { id: venueId } }, body: { status } });
    setBusy(false);
    const missing = (answer.error as { missing?: unknown } | undefined)?.missing;
    if (answer.response.ok) {
      setResult({ ok: true, text: status === 'live' ? 'The venue is live: guests can book it.' : 'The venue is back in draft.' });
    } else if (answer.response.status === 400 && Array.isArray(missing)) {
      setResult({ ok: false, text: 'Going live was refused: these are still missing.', missing: missing.map(String) });
    } else {
      try {
        await call(Promise.resolve(answer));
      } catch (error) {
        setResult({ ok: false, text: messageOf(error) });
      }
    }
    await refresh();
  }

  const done = steps.filter((step) => step.done).length;
  const record = venue.data;

  return (
    <main className="page setup" id="main">
      <SetupNav venueId={venueId} />
      <div className="setup__head">
        <h1>{record ? `Set up ${record.name}` : current ? 'Set-up checklist' : 'Set up your first venue'}</h1>
        {mayWrite && current && (
          <Button className="button" onPress={() => setCreating((open) => !open)} aria-expanded={creating}>
            New venue
          </Button>
        )}
      </div>
      {(creating || !current) && mayWrite && (
        <NewVenue
          onCreated={(id) => {
            setCreating(false);
            void navigate({ to: '/setup', search: { venue: id } });
          }}
          onCancel={current ? () => setCreating(false) : undefined}
        />
      )}
      {!current && !mayWrite && <p>Your role cannot create venues: ask the account owner.</p>}
      {venue.error && (
        <p className="error" role="alert">
          {messageOf(venue.error)}
        </p>
      )}

      {current && (
        <>
          <section className="panel setup__panel" aria-labelledby="steps-title">
            <h2 id="steps-title">
              Steps{' '}
              <span className="muted">
                ({done} of {steps.length} done)
              </span>
            </h2>
            <ol className="steps">
              {steps.map((step) => (
                <li key={step.key} className="steps__item">
                  <div className="steps__text">
                    <SetupLink path={step.path} section={step.section} venueId={venueId} className="steps__link">
                      {step.label}
                    </SetupLink>
                    <span className="muted"> {step.hint}</span>
                  </div>
                  <StepState step={step} />
                </li>
              ))}
            </ol>
          </section>

          <section className="panel setup__panel" aria-labelledby="live-title">
            <h2 id="live-title">Going live</h2>
            {readiness.data && (
              <p>
                Status:{' '}
                <strong className={`venue-status venue-status--${readiness.data.status}`}>
                  {readiness.data.status === 'live' ? 'Live' : 'Draft'}
                </strong>
                {readiness.data.status === 'live' ? ' — guests can find and book it.' : ' — guests cannot book it yet.'}
              </p>
            )}
            {readiness.error && (
              <p className="error" role="alert">
                {messageOf(readiness.error)}
              </p>
            )}
            {readiness.data && readiness.data.missing.length > 0 && (
              <>
                <p id="missing-title">Going live still needs:</p>
                <MissingList venueId={venueId} missing={readiness.data.missing} labelledBy="missing-title" />
              </>
            )}
            {readiness.data?.ready && readiness.data.status === 'draft' && (
              <p>
                Everything going live needs is set.
                {done < steps.length && ` ${steps.length - done} set-up steps are not done yet: guests can book only what is set up.`}
              </p>
            )}
            {mayWrite && readiness.data && (
              <div className="actions">
                {readiness.data.status === 'draft' ? (
                  <Button className="button button--primary" isDisabled={busy} onPress={() => void setStatus('live')}>
                    Go live
                  </Button>
                ) : (
                  <Button className="button" isDisabled={busy} onPress={() => void setStatus('draft')}>
                    Back to draft
                  </Button>
                )}
              </div>
            )}
            <div aria-live="polite">
              {result && (
                <div className={result.ok ? 'notice notice--ok' : 'error'} role={result.ok ? 'status' : 'alert'}>
                  <p className="setup__result">{result.text}</p>
                  {result.missing && <MissingList venueId={venueId} missing={result.missing} />}
                </div>
              )}
            </div>
          </section>
        </>
      )}
    </main>
  );
}

function MissingList(props: { venueId: string | undefined; missing: string[]; labelledBy?: string }) {
  return (
    <ul className="missing" aria-labelledby={props.labelledBy}>
      {props.missing.map((field) => (
        <li key={field}>
          <SetupLink path="/setup/venue" section={fieldSection(field)} venueId={props.venueId}>
            {fieldWords(field)}
          </SetupLink>
        </li>
      ))}
    </ul>
  );
}
