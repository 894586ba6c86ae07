/**
 * Access rules: the offers a guest picks (days, a clock window inside the shifts, party sizes, stay,
 * pacing, booking window, what the guest sees, and the payment policy and price list that set the
 * deposit). A feature's values apply only while its toggle is on, as in the API.
 */
import { api, call } from '../../api/client';
import { ItemList } from './kit';
import { setupKey, useAccessRules, usePaymentPolicies, usePricelists } from './data';
import { RuleForm } from './RuleForm';
import { dayList } from './Shifts';

export function AccessRules({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const rules = useAccessRules(venueId);
  const policies = usePaymentPolicies(venueId).data;
  const pricelists = usePricelists(venueId).data;
  return (
    <ItemList
      title="Access rules"
      noun="access rule"
      items={rules.data}
      loading={rules.isPending}
      canWrite={canWrite}
      nameOf={(r) => r.name}
      describe={(r) => {
        const policy = policies?.find((p) => p.id === r.payment_policy_id);
        const list = pricelists?.find((p) => p.id === r.pricelist_id);
        return (
          <>
            {r.rule_type === 'guestlist' ? 'Guest list' : 'Tables'} · {r.days_of_week.length ? dayList(r.days_of_week) : 'no days'} ·{' '}
            {r.time_from && r.time_to ? `${r.time_from}–${r.time_to}` : 'all shift hours'}
            {r.party_size_enabled ? ` · parties of ${r.party_size_min ?? 1}–${r.party_size_max ?? '…'}` : ''}
            {r.max_covers_enabled && r.max_covers ? ` · at most ${r.max_covers} covers` : ''}
            {policy ? ` · ${policy.name}` : ''}
            {list ? ` · price list ${list.name}` : ''}
            {r.app_opt_out ? ' · hidden from guests' : ''}
          </>
        );
      }}
      form={(item, close) => <RuleForm venueId={venueId} rule={item} onDone={close} />}
      remove={(r) => call(api.DELETE('/api/my-venues/{venueId}/access-rules/{id}', { params: { path: { venueId, id: r.id } } }))}
      keys={[setupKey(venueId, 'access-rules')]}
    />
  );
}
