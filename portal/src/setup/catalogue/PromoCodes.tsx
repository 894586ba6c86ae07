/** Promo codes: a discount in percent, optionally capped in uses and with an expiry; the counter can be reset. */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey } from '../availability/data';
import { Field, FormError, intOrNull, ItemList, SetupForm, useSave } from '../availability/kit';
import { usePromoCodes, type PromoCode } from './data';

export function PromoCodes({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const codes = usePromoCodes(venueId);
  const reset = useSave([setupKey(venueId, 'promo-codes')]);
  return (
    <ItemList
      title="Promo codes"
      noun="promo code"
      items={codes.data}
      loading={codes.isPending}
      canWrite={canWrite}
      nameOf={(p) => p.code}
      describe={(p) =>
        `${p.name} · ${p.discount_pct}% off · used ${p.uses}${p.max_uses ? ` of ${p.max_uses}` : ''} times${p.expires_at ? ` · until ${p.expires_at.slice(0, 10)}` : ''}`
      }
      extra={(p) =>
        p.uses > 0 ? (
          <button
            type="button"
            className="button"
            disabled={reset.busy}
            aria-label={`Reset the uses of ${p.code}`}
            onClick={() =>
              void reset.run(() =>
                call(api.POST('/api/my-venues/{venueId}/promo-codes/{id}/reset', { params: { path: { venueId, id: p.id } } })),
              )
            }
          >
            Reset uses
          </button>
        ) : null
      }
      form={(item, close) => <PromoForm venueId={venueId} promo={item} onDone={close} />}
      remove={(p) => call(api.DELETE('/api/my-venues/{venueId}/promo-codes/{id}', { params: { path: { venueId, id: p.id } } }))}
      keys={[setupKey(venueId, 'promo-codes')]}
    />
  );
}

function PromoForm({ venueId, promo, onDone }: { venueId: string; promo: PromoCode | null; onDone: () => void }) {
  const [name, setName] = useState(promo?.name ?? '');
  const [code, setCode] = useState(promo?.code ?? '');
  const [discount, setDiscount] = useState(String(promo?.discount_pct ?? '10'));
  const [max, setMax] = useState(String(promo?.max_uses ?? ''));
  const [expires, setExpires] = useState(promo?.expires_at?.slice(0, 10) ?? '');
  const save = useSave([setupKey(venueId, 'promo-codes')]);
  const submit = () =>
    save.run(() => {
      const pct = Number(discount);
      if (discount.trim() === '' || !Number.isFinite(pct)) throw new FormError('Discount must be a number from 0 to 100');
      const body = {
        name,
        code,
        discount_pct: pct,
        max_uses: intOrNull(max, 'Most uses'),
        // The end of the chosen day, UTC: the code works through that date everywhere.
        expires_at: expires ? `${expires}T23:59:59Z` : null,
      };
      return promo
        ? call(api.PUT('/api/my-venues/{venueId}/promo-codes/{id}', { params: { path: { venueId, id: promo.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/promo-codes', { params: { path: { venueId } }, body }));
    }, onDone);
  return (
    <SetupForm
      label={promo ? `Edit ${promo.code}` : 'New promo code'}
      busy={save.busy}
      failure={save.failure}
      submitText={promo ? 'Save promo code' : 'Add promo code'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        <Field label="Code" value={code} onChange={setCode} autoCapitalize="characters" />
        <Field label="Discount (%)" short inputMode="decimal" value={discount} onChange={setDiscount} />
        <Field label="Most uses" short inputMode="numeric" value={max} onChange={setMax} />
        <Field label="Expires after (optional)" type="date" value={expires} onChange={setExpires} />
      </div>
    </SetupForm>
  );
}
