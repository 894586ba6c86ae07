/**
 * Payouts (`/setup/payouts`): the account's payout onboarding status (`GET /api/my-operator/payout/status`,
 * read from the provider on each call), the provider's hosted onboarding (`POST …/payout/connect/start`:
 * a single-use link, opened in a new tab) and the money owed from before payouts were enabled
 * (`GET /api/my-operator/payout/balance`). Payouts belong to the account, not to one venue.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../../api/client';
import { useCan, useCurrentVenue } from '../../shell/account';
import { SetupNav } from '../SetupNav';
import { messageOf, pounds } from './data';

const STATUS_WORDS: Record<string, { title: string; text: string }> = {
  not_started: { title: 'Not started', text: 'Set up a payout account so guests’ deposits and payments reach your bank.' },
  onboarding: { title: 'Started, not finished', text: 'The provider still needs your details: continue onboarding.' },
  pending: { title: 'Being verified', text: 'Your details are sent; the provider is verifying them. Payouts start once it has.' },
  enabled: { title: 'Payouts on', text: 'Payments and payouts are enabled: money settles to your account.' },
  unconfigured: {
    title: 'Payments not configured',
    text: 'This platform has no payment provider set up, so payouts cannot be started. Ask the platform’s administrator.',
  },
  error: {
    title: 'Provider not reachable',
    text: 'The provider could not be read just now: showing the last known state. Try again shortly.',
  },
};

const yesNo = (value: boolean | undefined) => (value === undefined ? 'Not known' : value ? 'Yes' : 'No');

export default function PayoutsPage() {
  const can = useCan();
  const venue = useCurrentVenue();
  const client = useQueryClient();
  const readable = can('payouts', 'read') || can('operators.settings', 'read');
  const status = useQuery({
    queryKey: ['payouts', 'status'],
    queryFn: () => call(api.GET('/api/my-operator/payout/status')),
    enabled: readable,
  });
  const balance = useQuery({
    queryKey: ['payouts', 'balance'],
    queryFn: () => call(api.GET('/api/my-operator/payout/balance')),
    enabled: readable,
  });
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const linkRef = useRef<HTMLAnchorElement>(null);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const answer = await call(api.POST('/api/my-operator/payout/connect/start'));
      setLink(answer.url);
      await client.invalidateQueries({ queryKey: ['payouts'] });
      requestAnimationFrame(() => linkRef.current?.focus());
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  const state = status.data;
  const words = state ? (STATUS_WORDS[state.status] ?? { title: state.status, text: '' }) : undefined;
  const mayStart = can('operators.settings', 'write') && state && state.status !== 'enabled' && state.status !== 'unconfigured';

  return (
    <main className="page setup" id="main">
      <SetupNav venueId={venue?.id} />
      <h1>Payouts</h1>
      <p className="muted">Payouts belong to your account: every venue’s payments go to the same payout account.</p>
      {!readable && <p className="notice">Your role cannot see payouts.</p>}

      {readable && (
        <section className="panel setup__panel" aria-labelledby="payout-status-title">
          <h2 id="payout-status-title">Onboarding</h2>
          {status.isPending && <p>Reading the status from the provider…</p>}
          {status.error && (
            <p className="error" role="alert">
              {messageOf(status.error)}
            </p>
          )}
          {state && words && (
            <>
              <p>
                Status: <strong className={`payout-status payout-status--${state.status}`}>{words.title}</strong>
              </p>
              <p>{words.text}</p>
              {state.connected && (
                <dl className="facts">
                  <dt>Details submitted</dt>
                  <dd>{yesNo(state.details_submitted)}</dd>
                  <dt>Can take payments</dt>
                  <dd>{yesNo(state.charges_enabled)}</dd>
                  <dt>Payouts enabled</dt>
                  <dd>{yesNo(state.payouts_enabled)}</dd>
                  <dt>Account</dt>
                  <dd>
                    <code>{state.account_id}</code> <span className="muted">({state.provider})</span>
                  </dd>
                </dl>
              )}
            </>
          )}
          <div className="actions">
            {mayStart && (
              <Button className="button button--primary" isDisabled={busy} onPress={() => void start()}>
                {state.status === 'not_started' ? 'Start payout onboarding' : 'Continue payout onboarding'}
              </Button>
            )}
            <Button
              className="button"
              isDisabled={status.isFetching}
              onPress={() => void client.invalidateQueries({ queryKey: ['payouts'] })}
            >
              Refresh status
            </Button>
          </div>
          {link && state?.status !== 'enabled' && (
            <p className="notice" role="status">
              <a ref={linkRef} href={link} target="_blank" rel="noopener noreferrer">
                Open the provider’s onboarding (new tab)
              </a>
              . The link works once and expires in a few minutes; come back here and refresh the status when you are done.
            </p>
          )}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </section>
      )}

      {readable && (
        <section className="panel setup__panel" aria-labelledby="balance-title">
          <h2 id="balance-title">Balances</h2>
          {balance.error && (
            <p className="error" role="alert">
              {messageOf(balance.error)}
            </p>
          )}
          {balance.data && (
            <>
              <dl className="facts facts--money">
                <dt>Owed to you</dt>
                <dd>{pounds(balance.data.owed_pence)}</dd>
                <dt>Being transferred</dt>
                <dd>{pounds(balance.data.in_transfer_pence)}</dd>
                <dt>Transferred so far</dt>
                <dd>{pounds(balance.data.transferred_pence)}</dd>
              </dl>
              <p className="muted">
                Payments taken before your payout account was enabled are held for you, less the platform fee and any refunds, and
                transferred once it is enabled. Later payments settle to your account directly.
              </p>
            </>
          )}
        </section>
      )}
    </main>
  );
}
