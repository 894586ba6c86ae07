/**
 * The gift-vouchers widget: a preset or custom amount within the venue's bounds, quantity, delivery (to
 * the recipient or to the buyer), recipient and message, the buyer's details, bot check, payment, then
 * the codes. Entries are kept for the visit; a purchase awaiting payment is finalised after a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import { useVisit } from '../lib/visit';
import { api, ApiError } from '../lib/api';
import type { BaseConfig } from '../lib/config';
import { announceBooked, askScrollTop } from '../lib/embed';
import { isEmail, money } from '../lib/format';
import { BotCheck } from '../ui/BotCheck';
import { Field } from '../ui/Field';
import { Payment } from '../ui/Payment';
import { Alert, LiveStatus, Shell } from '../ui/Shell';

interface VoucherConfig extends BaseConfig {
  settings: {
    enabled: boolean;
    expiration_months: number;
    min_amount_pence: number;
    max_amount_pence: number;
    fixed_amounts: number[] | null;
    allow_custom: boolean;
    min_qty: number;
    max_qty: number;
    terms: string;
  };
}

interface Entries {
  amountPence: number;
  custom: string;
  quantity: number;
  delivery: 'email' | 'purchaser';
  recipientName: string;
  recipientEmail: string;
  message: string;
  purchaserName: string;
  purchaserEmail: string;
}
interface Issued {
  code: string;
  display_code: string;
  amount_pence: number;
  expires_at: string;
}
interface State {
  step: 'choose' | 'pay' | 'done';
  entries: Entries;
  /** `paid` once the card step succeeded: only then is finalize called, also after a reload. */
  intent: { id: string; secret: string; amount: number; paid?: boolean } | null;
  vouchers: Issued[];
}

export function VouchersApp(props: { config: VoucherConfig; publicId: string; venueId: string }) {
  const { settings } = props.config;
  const key = `mw:vouchers:${props.publicId}`;
  const [state, setState] = useVisit<State>(
    key,
    (saved) => {
      if (saved) return saved;
      const first = settings.fixed_amounts?.[0] ?? settings.min_amount_pence;
      return {
        step: 'choose',
        intent: null,
        vouchers: [],
        entries: {
          amountPence: first,
          custom: '',
          quantity: Math.max(1, settings.min_qty),
          delivery: 'email',
          recipientName: '',
          recipientEmail: '',
          message: '',
          purchaserName: '',
          purchaserEmail: '',
        },
      };
    },
    (restored) => resume(restored),
  );
  const [errors, setErrors] = useState<Partial<Record<keyof Entries, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const entries = state.entries;
  const set = (changes: Partial<Entries>) => setState((current) => ({ ...current, entries: { ...current.entries, ...changes } }));
  const usingCustom = entries.custom !== '' || !settings.fixed_amounts?.length;

  /** A purchase left awaiting payment (a reload, a new tab) is finalised first. */
  function resume(visit: State) {
    if (visit.step === 'pay' && visit.intent?.paid) void finalize(visit.intent.id, true);
  }
  useEffect(() => resume(state), []);

  function amount(): number {
    return usingCustom ? Math.round(Number(entries.custom) * 100) : entries.amountPence;
  }

  /** What is wrong with the entries, by field (empty when nothing is). */
  function problems(): Partial<Record<keyof Entries, string>> {
    const found: Partial<Record<keyof Entries, string>> = {};
    const pence = amount();
    if (!Number.isFinite(pence) || pence < settings.min_amount_pence || pence > settings.max_amount_pence) {
      found.custom = `Choose an amount from ${money(settings.min_amount_pence)} to ${money(settings.max_amount_pence)}.`;
    }
    if (entries.delivery === 'email') {
      if (!entries.recipientName.trim()) found.recipientName = "Enter the recipient's name.";
      if (!isEmail(entries.recipientEmail)) found.recipientEmail = "Enter the recipient's email address.";
    }
    if (!entries.purchaserName.trim()) found.purchaserName = 'Enter your name.';
    if (!isEmail(entries.purchaserEmail)) found.purchaserEmail = 'Enter your email address.';
    return found;
  }

  // After a refused attempt the highlighted fields are checked again as the guest corrects them: a fixed
  // field loses its error at once, and the step's message goes when nothing is left to correct.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const found = problems();
    setErrors(found);
    if (Object.keys(found).length === 0) setStatus('');
  }, [entries]);

  async function start(event: Event) {
    event.preventDefault();
    const found = problems();
    const pence = amount();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setStatus('Please correct the highlighted fields.');
      return;
    }
    setStatus('');
    setBusy(true);
    setError(null);
    try {
      const intent = await api<{ intent_id: string; client_secret: string; amount_pence: number }>(
        '/api/public/voucher-purchase/create-intent',
        {
          method: 'POST',
          body: {
            venue_id: props.venueId,
            amount_pence: pence,
            quantity: entries.quantity,
            delivery: entries.delivery,
            recipient_name: entries.delivery === 'email' ? entries.recipientName.trim() : null,
            recipient_email: entries.delivery === 'email' ? entries.recipientEmail.trim() : null,
            purchaser_name: entries.purchaserName.trim(),
            purchaser_email: entries.purchaserEmail.trim(),
            message: entries.message.trim() || null,
            ...(token ? { turnstile_token: token } : {}),
          },
        },
      );
      setState((current) => ({
        ...current,
        step: 'pay',
        intent: { id: intent.intent_id, secret: intent.client_secret, amount: intent.amount_pence },
      }));
      askScrollTop();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function finalize(intentId: string, quiet = false) {
    setBusy(true);
    try {
      const result = await api<{ success: boolean; vouchers: Issued[]; payment_status: string }>('/api/public/voucher-purchase/finalize', {
        method: 'POST',
        body: { intent_id: intentId },
      });
      if (result.success) {
        setState((current) => ({ ...current, step: 'done', vouchers: result.vouchers }));
        setStatus('Your gift vouchers are ready.');
        announceBooked('voucher', intentId);
        askScrollTop();
      } else if (!quiet) {
        setError('The payment has not gone through yet. Please try again.');
      }
    } catch (caught) {
      if (!quiet) setError(caught instanceof ApiError ? caught.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const quantities: number[] = [];
  for (let n = Math.max(1, settings.min_qty); n <= Math.max(settings.min_qty, settings.max_qty); n++) quantities.push(n);

  return (
    <Shell config={props.config} heading={state.step === 'done' ? 'Thank you' : 'Gift vouchers'}>
      <LiveStatus message={status} />
      <Alert message={error} />
      {state.step === 'choose' ? (
        <form class="mw-step" onSubmit={(event) => void start(event)} noValidate>
          <fieldset>
            <legend>Amount</legend>
            {(settings.fixed_amounts ?? []).map((pence) => (
              <label class="mw-choice" key={pence}>
                <input
                  type="radio"
                  name="amount"
                  checked={!usingCustom && entries.amountPence === pence}
                  onChange={() => set({ amountPence: pence, custom: '' })}
                />
                {money(pence)}
              </label>
            ))}
            {settings.allow_custom || !settings.fixed_amounts?.length ? (
              <Field
                id="mw-custom"
                label={`Another amount in pounds (${money(settings.min_amount_pence)} to ${money(settings.max_amount_pence)})`}
                inputMode="decimal"
                value={entries.custom}
                error={errors.custom}
                onValue={(value) => set({ custom: value })}
              />
            ) : null}
          </fieldset>
          <div class="mw-field">
            <label for="mw-qty">How many</label>
            <select
              id="mw-qty"
              value={entries.quantity}
              onChange={(event) => set({ quantity: Number((event.target as HTMLSelectElement).value) })}
            >
              {quantities.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend>Delivery</legend>
            <label class="mw-choice">
              <input type="radio" name="delivery" checked={entries.delivery === 'email'} onChange={() => set({ delivery: 'email' })} />
              Email it to the recipient
            </label>
            <label class="mw-choice">
              <input
                type="radio"
                name="delivery"
                checked={entries.delivery === 'purchaser'}
                onChange={() => set({ delivery: 'purchaser' })}
              />
              Send it to me to pass on
            </label>
          </fieldset>
          {entries.delivery === 'email' ? (
            <>
              <Field
                id="mw-rname"
                label="Recipient's name"
                value={entries.recipientName}
                error={errors.recipientName}
                onValue={(value) => set({ recipientName: value })}
              />
              <Field
                id="mw-remail"
                label="Recipient's email"
                type="email"
                value={entries.recipientEmail}
                error={errors.recipientEmail}
                onValue={(value) => set({ recipientEmail: value })}
              />
            </>
          ) : null}
          <div class="mw-field">
            <label for="mw-message">Message (optional)</label>
            <textarea
              id="mw-message"
              maxLength={500}
              value={entries.message}
              onInput={(e) => set({ message: (e.target as HTMLTextAreaElement).value })}
            />
          </div>
          <Field
            id="mw-pname"
            label="Your name"
            autocomplete="name"
            value={entries.purchaserName}
            error={errors.purchaserName}
            onValue={(value) => set({ purchaserName: value })}
          />
          <Field
            id="mw-pemail"
            label="Your email"
            type="email"
            autocomplete="email"
            value={entries.purchaserEmail}
            error={errors.purchaserEmail}
            onValue={(value) => set({ purchaserEmail: value })}
          />
          {settings.terms ? <p class="mw-hint">{settings.terms}</p> : null}
          <BotCheck siteKey={props.config.turnstile_site_key} onToken={setToken} />
          <button type="submit" class="mw-primary" disabled={busy}>
            {busy ? 'Please wait…' : 'Continue to payment'}
          </button>
        </form>
      ) : null}
      {state.step === 'pay' && state.intent && props.config.publishable_key ? (
        <>
          <button type="button" class="mw-link" onClick={() => setState((current) => ({ ...current, step: 'choose', intent: null }))}>
            Change the vouchers
          </button>
          <Payment
            publishableKey={props.config.publishable_key}
            clientSecret={state.intent.secret}
            intentId={state.intent.id}
            amountPence={state.intent.amount}
            onPaid={() => {
              setState((current) => ({ ...current, intent: current.intent ? { ...current.intent, paid: true } : null }));
              void finalize(state.intent!.id);
            }}
          />
        </>
      ) : null}
      {state.step === 'done' ? (
        <section class="mw-step mw-done">
          <p>
            {state.entries.delivery === 'email'
              ? `We have emailed the vouchers to ${state.entries.recipientEmail}.`
              : `We have emailed the vouchers to you at ${state.entries.purchaserEmail}.`}
          </p>
          <ul class="mw-codes">
            {state.vouchers.map((voucher) => (
              <li key={voucher.code}>
                <strong>{voucher.display_code}</strong> — {money(voucher.amount_pence)}, valid until {voucher.expires_at.slice(0, 10)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Shell>
  );
}
