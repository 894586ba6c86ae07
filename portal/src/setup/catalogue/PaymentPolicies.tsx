/**
 * Payment policies: whether a booking pays a deposit or a card hold, what cancelling refunds and until
 * when, each shown in the words a guest reads (the server's `guest_terms`, worded as the booking terms).
 */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey, usePaymentPolicies } from '../availability/data';
import { Choice, Field, intOrNull, ItemList, SetupForm, useSave } from '../availability/kit';

type Policy = NonNullable<ReturnType<typeof usePaymentPolicies>['data']>[number];

const DEPOSITS = [
  ['none', 'No deposit'],
  ['deposit', 'A deposit, paid when booking'],
  ['hold', 'A card hold (authorised, charged only by the venue)'],
] as const;
const REFUNDS = [
  ['none', 'Nothing refunded'],
  ['full', 'A full refund'],
  ['partial', 'Part refunded'],
] as const;
const CANCELS = [
  ['anytime', 'Any time before the booking'],
  ['cutoff', 'Up to a cut-off before the booking'],
  ['never', 'Never'],
] as const;
const UNITS = [
  ['minutes', 'minutes'],
  ['hours', 'hours'],
  ['days', 'days'],
  ['weeks', 'weeks'],
] as const;

export function PaymentPolicies({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const policies = usePaymentPolicies(venueId);
  return (
    <ItemList
      title="Payment policies"
      noun="payment policy"
      intro={<p className="muted">Access rules and shifts point at a policy; guests read its terms as written here.</p>}
      items={policies.data}
      loading={policies.isPending}
      canWrite={canWrite}
      nameOf={(p) => p.name}
      describe={(p) => (
        <ul className="setup-terms" aria-label={`What a guest reads for ${p.name}`}>
          <li>{p.guest_terms.deposit ?? 'Nothing is paid when booking.'}</li>
          <li>{p.guest_terms.cancellation}</li>
        </ul>
      )}
      form={(item, close) => <PolicyForm venueId={venueId} policy={item} onDone={close} />}
      remove={(p) => call(api.DELETE('/api/my-venues/{venueId}/payment-policies/{id}', { params: { path: { venueId, id: p.id } } }))}
      keys={[setupKey(venueId, 'payment-policies'), setupKey(venueId, 'access-rules'), setupKey(venueId, 'shifts')]}
    />
  );
}

function PolicyForm({ venueId, policy, onDone }: { venueId: string; policy: Policy | null; onDone: () => void }) {
  const [name, setName] = useState(policy?.name ?? '');
  const [deposit, setDeposit] = useState(policy?.deposit_type ?? 'deposit');
  const [refund, setRefund] = useState(policy?.refund_type ?? 'full');
  const [percent, setPercent] = useState(String(policy?.refund_percent ?? 100));
  const [cancel, setCancel] = useState(policy?.cancel_type ?? 'cutoff');
  const [cutoff, setCutoff] = useState(String(policy?.cancel_cutoff_value ?? 24));
  const [unit, setUnit] = useState(policy?.cancel_cutoff_unit ?? 'hours');
  const save = useSave([setupKey(venueId, 'payment-policies')]);
  const submit = () =>
    save.run(() => {
      const body = {
        name,
        deposit_type: deposit as (typeof DEPOSITS)[number][0],
        refund_type: refund as (typeof REFUNDS)[number][0],
        refund_percent: intOrNull(percent, 'Refund percent') ?? 100,
        cancel_type: cancel as (typeof CANCELS)[number][0],
        cancel_cutoff_value: intOrNull(cutoff, 'Cut-off') ?? 24,
        cancel_cutoff_unit: unit as (typeof UNITS)[number][0],
      };
      return policy
        ? call(api.PUT('/api/my-venues/{venueId}/payment-policies/{id}', { params: { path: { venueId, id: policy.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/payment-policies', { params: { path: { venueId } }, body }));
    }, onDone);
  return (
    <SetupForm
      label={policy ? `Edit ${policy.name}` : 'New payment policy'}
      busy={save.busy}
      failure={save.failure}
      submitText={policy ? 'Save payment policy' : 'Add payment policy'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        <Choice label="When booking" value={deposit} onChange={setDeposit} options={DEPOSITS} />
      </div>
      <div className="row-fields">
        <Choice label="Cancelling refunds" value={refund} onChange={setRefund} options={REFUNDS} />
        {refund === 'partial' && <Field label="Refund percent" short inputMode="numeric" value={percent} onChange={setPercent} />}
        <Choice label="Guests may cancel" value={cancel} onChange={setCancel} options={CANCELS} />
        {cancel === 'cutoff' && (
          <>
            <Field label="Cut-off" short inputMode="numeric" value={cutoff} onChange={setCutoff} />
            <Choice label="Cut-off unit" value={unit} onChange={setUnit} options={UNITS} />
          </>
        )}
      </div>
    </SetupForm>
  );
}
