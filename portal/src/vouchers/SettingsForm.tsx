/**
 * The venue's gift-voucher settings: on or off, how long a voucher lasts, the amounts guests may buy
 * (preset amounts and/or their own within limits), how many at once, and the terms. Read-only, with
 * the reason, for a role without vouchers write.
 */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { LiveNotice } from '../shell/Notice';
import { messageOf, money, penceOf, poundsText, useRefreshVouchers, type VoucherSettings } from './data';

export function SettingsForm(props: { venueId: string; settings: VoucherSettings; canWrite: boolean }) {
  const s = props.settings;
  const [enabled, setEnabled] = useState(s.enabled);
  const [months, setMonths] = useState(String(s.expiration_months));
  const [min, setMin] = useState(poundsText(s.min_amount_pence));
  const [max, setMax] = useState(poundsText(s.max_amount_pence));
  const [fixed, setFixed] = useState((s.fixed_amounts ?? []).map(poundsText).join(', '));
  const [custom, setCustom] = useState(s.allow_custom);
  const [minQty, setMinQty] = useState(String(s.min_qty));
  const [maxQty, setMaxQty] = useState(String(s.max_qty));
  const [terms, setTerms] = useState(s.terms ?? '');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const refresh = useRefreshVouchers(props.venueId);

  function body() {
    const amount = (text: string, label: string) => {
      const pence = penceOf(text);
      if (pence === null) throw new Error(`${label} must be an amount in pounds, e.g. 25 or 25.50.`);
      return pence;
    };
    const whole = (text: string, label: string) => {
      if (!/^\d+$/.test(text.trim())) throw new Error(`${label} must be a whole number.`);
      return Number(text);
    };
    const presets = fixed
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => amount(part, 'Each preset amount'));
    return {
      enabled,
      expiration_months: whole(months, 'Months valid'),
      min_amount_pence: amount(min, 'Smallest amount'),
      max_amount_pence: amount(max, 'Largest amount'),
      fixed_amounts: presets.length > 0 ? presets : null,
      allow_custom: custom,
      min_qty: whole(minQty, 'Fewest at once'),
      max_qty: whole(maxQty, 'Most at once'),
      terms: terms.trim() || null,
    };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      await call(api.PUT('/api/my-venues/{venueId}/voucher-settings', { params: { path: { venueId: props.venueId } }, body: body() }));
      await refresh();
      setResult({ ok: true, text: 'Voucher settings saved.' });
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel money__panel" aria-labelledby="settings-title" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="settings-title">Voucher settings</h2>
      <p className="muted">
        What guests can buy in the vouchers widget.
        {!props.canWrite && ' Your role may see these settings but not change them.'}
      </p>
      <fieldset className="plain" disabled={!props.canWrite}>
        <label className="choice">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Sell gift vouchers
        </label>
        <div className="row-fields">
          <Text id="vs-months" label="Months valid" value={months} onChange={setMonths} numeric />
          <Text id="vs-min" label="Smallest amount (£)" value={min} onChange={setMin} />
          <Text id="vs-max" label="Largest amount (£)" value={max} onChange={setMax} />
          <Text id="vs-min-qty" label="Fewest at once" value={minQty} onChange={setMinQty} numeric />
          <Text id="vs-max-qty" label="Most at once" value={maxQty} onChange={setMaxQty} numeric />
        </div>
        <div className="row-fields">
          <Text
            id="vs-fixed"
            label="Preset amounts (£, comma-separated)"
            value={fixed}
            onChange={setFixed}
            hint={s.fixed_amounts?.length ? `Now: ${s.fixed_amounts.map(money).join(', ')}` : 'None: guests choose their own amount'}
          />
        </div>
        <label className="choice">
          <input type="checkbox" checked={custom} onChange={(e) => setCustom(e.target.checked)} /> Guests may choose their own amount
        </label>
        <div className="field">
          <label htmlFor="vs-terms">Terms</label>
          <textarea id="vs-terms" rows={3} value={terms} maxLength={5000} onChange={(e) => setTerms(e.target.value)} />
        </div>
      </fieldset>
      {props.canWrite && (
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save voucher settings'}
        </button>
      )}
      <LiveNotice result={result} />
    </form>
  );
}

function Text(props: { id: string; label: string; value: string; onChange: (v: string) => void; numeric?: boolean; hint?: string }) {
  return (
    <div className={props.numeric ? 'field field--short' : 'field'}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        inputMode={props.numeric ? 'numeric' : 'decimal'}
        value={props.value}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && (
        <small id={`${props.id}-hint`} className="muted">
          {props.hint}
        </small>
      )}
    </div>
  );
}
