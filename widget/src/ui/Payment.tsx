/**
 * The payment step. With the simulated provider (publishable key `pk_test_simulated`) it is a test-card
 * form that confirms the intent through the simulated provider's endpoint; with Stripe, Stripe.js is
 * loaded here (and only here) and its Payment Element takes the card, with room for the bank's 3-D
 * Secure step (Stripe opens it over the page) and a link to finish in a new tab where a phone's browser
 * will not show it inside the frame. A declined or failed payment keeps everything the guest entered.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { money } from '../lib/format';
import { loadScript } from '../lib/script';
import { Alert } from './Shell';

export const SIMULATED_KEY = 'pk_test_simulated';

const payLabel = (pence: number | undefined) => (pence === undefined ? 'Pay the deposit' : `Pay ${money(pence)}`);

interface Props {
  publishableKey: string;
  clientSecret: string;
  intentId: string;
  /** Unknown for a deposit the booking answer does not price: the button then says "Pay the deposit". */
  amountPence?: number;
  onPaid: () => void;
}

export function Payment(props: Props) {
  return props.publishableKey === SIMULATED_KEY ? <SimulatedCard {...props} /> : <StripeCard {...props} />;
}

const TEST_CARDS = [
  { id: 'pm_card_visa', label: 'Test Visa card ending 4242 (succeeds)' },
  { id: 'pm_card_chargeDeclined', label: 'Test card ending 0002 (declined)' },
];

function SimulatedCard(props: Props) {
  const [card, setCard] = useState(TEST_CARDS[0].id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pay = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ status: string; last_payment_error?: { message?: string } | null }>(
        `/api/public/simulated-payments/${encodeURIComponent(props.intentId)}/confirm`,
        { method: 'POST', body: { payment_method: card } },
      );
      if (result.status === 'succeeded' || result.status === 'requires_capture') props.onPaid();
      else setError(result.last_payment_error?.message ?? 'Your card was declined. Try another card.');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The payment could not be taken. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="mw-step" onSubmit={(event) => void pay(event)} noValidate>
      <fieldset>
        <legend>{payLabel(props.amountPence)} (test mode)</legend>
        {TEST_CARDS.map((option) => (
          <label class="mw-choice" key={option.id}>
            <input type="radio" name="card" value={option.id} checked={card === option.id} onChange={() => setCard(option.id)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      <Alert message={error} />
      <button type="submit" class="mw-primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        {busy ? 'Paying…' : payLabel(props.amountPence)}
      </button>
    </form>
  );
}

interface StripeLike {
  elements(options: { clientSecret: string }): { create(kind: 'payment'): { mount(element: HTMLElement): void } };
  confirmPayment(options: {
    elements: unknown;
    redirect: 'if_required';
    confirmParams: { return_url: string };
  }): Promise<{ error?: { message?: string } }>;
}

function StripeCard(props: Props) {
  const mount = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ client: StripeLike; elements: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadScript('https://js.stripe.com/v3/')
      .then(() => {
        if (cancelled || !mount.current) return;
        const client = (window as unknown as { Stripe: (key: string) => StripeLike }).Stripe(props.publishableKey);
        const elements = client.elements({ clientSecret: props.clientSecret });
        elements.create('payment').mount(mount.current);
        setStripe({ client, elements });
      })
      .catch(() => setError('The card form could not be loaded. Check your connection and try again.'));
    return () => {
      cancelled = true;
    };
  }, [props.clientSecret, props.publishableKey]);

  const pay = async (event: Event) => {
    event.preventDefault();
    if (!stripe) return;
    setBusy(true);
    setError(null);
    const result = await stripe.client.confirmPayment({
      elements: stripe.elements,
      redirect: 'if_required',
      confirmParams: { return_url: location.href },
    });
    setBusy(false);
    if (result.error) setError(result.error.message ?? 'Your card was declined. Try another card.');
    else props.onPaid();
  };

  return (
    <form class="mw-step" onSubmit={(event) => void pay(event)} noValidate>
      <h2>{payLabel(props.amountPence)}</h2>
      <div ref={mount} class="mw-card-element" />
      <Alert message={error} />
      <button type="submit" class="mw-primary" disabled={!stripe || busy} aria-busy={busy ? 'true' : undefined}>
        {busy ? 'Paying…' : payLabel(props.amountPence)}
      </button>
      <p class="mw-hint">
        Trouble with your bank's check on a phone?{' '}
        <a href={location.href} target="_blank" rel="noopener">
          Finish in a new tab<span class="mw-sr"> (opens in a new tab)</span>
        </a>
        .
      </p>
    </form>
  );
}
