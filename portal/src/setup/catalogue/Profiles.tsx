/**
 * Reusable profiles (list, table, event and ticket): a named set of settings an access rule, event or
 * ticket type points at. The form covers the settings that name other catalogue items; the API keeps
 * the rest as they were (fields left out are not changed).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey, usePaymentPolicies, usePricelists } from '../availability/data';
import { Check, Choice, Field, intOrNull, ItemList, SetupForm, useSave } from '../availability/kit';
import { useAdmissionGroups } from './data';

const FAMILIES = [
  ['table', 'Table profiles'],
  ['list', 'Guest-list profiles'],
  ['event', 'Event profiles'],
  ['ticket', 'Ticket profiles'],
] as const;
type Family = (typeof FAMILIES)[number][0];

/** What the form reads of any family (each family's own response carries these where it has them). */
interface Profile {
  id: string;
  name: string;
  payment_policy_id?: string | null;
  pricelist_id?: string | null;
  admission_rule_group_id?: string | null;
  table_assignment_mode?: string;
  duration_enabled?: boolean;
  duration_minutes?: number | null;
  visibility?: string;
  listed?: boolean;
  show_capacity?: boolean;
}

// The four families share one shape (GET/POST /<family>, PUT/DELETE /<family>/:id); one typed path stands for all four.
type Collection = '/api/my-venues/{venueId}/table-profiles';
type Item = '/api/my-venues/{venueId}/table-profiles/{id}';
const collection = (family: Family) => `/api/my-venues/{venueId}/${family}-profiles` as Collection;
const item = (family: Family) => `/api/my-venues/{venueId}/${family}-profiles/{id}` as Item;

function useProfiles(venueId: string, family: Family) {
  return useQuery({
    queryKey: setupKey(venueId, `${family}-profiles`),
    queryFn: async () => (await call(api.GET(collection(family), { params: { path: { venueId } } }))).data as Profile[],
  });
}

export function Profiles({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  return (
    <>
      {FAMILIES.map(([family, title]) => (
        <FamilyList key={family} venueId={venueId} family={family} title={title} canWrite={canWrite} />
      ))}
    </>
  );
}

function FamilyList({ venueId, family, title, canWrite }: { venueId: string; family: Family; title: string; canWrite: boolean }) {
  const profiles = useProfiles(venueId, family);
  const policies = usePaymentPolicies(venueId).data;
  const groups = useAdmissionGroups(venueId).data;
  const nameOf = (list: { id: string; name: string }[] | undefined, id: string | null | undefined) => list?.find((x) => x.id === id)?.name;
  return (
    <ItemList
      title={title}
      noun={`${family === 'list' ? 'guest-list' : family} profile`}
      items={profiles.data}
      loading={profiles.isPending}
      canWrite={canWrite}
      nameOf={(p) => p.name}
      describe={(p) =>
        [
          nameOf(policies, p.payment_policy_id) && `payment: ${nameOf(policies, p.payment_policy_id)}`,
          nameOf(groups, p.admission_rule_group_id) && `admission: ${nameOf(groups, p.admission_rule_group_id)}`,
          p.table_assignment_mode === 'guest_pick' && 'guests pick tables',
          p.duration_enabled && p.duration_minutes && `${p.duration_minutes} min stays`,
          p.visibility && p.visibility !== 'public' && p.visibility,
        ]
          .filter(Boolean)
          .join(' · ') || 'venue defaults'
      }
      form={(profile, close) => <ProfileForm venueId={venueId} family={family} profile={profile} onDone={close} />}
      remove={(p) => call(api.DELETE(item(family), { params: { path: { venueId, id: p.id } } }))}
      keys={[setupKey(venueId, `${family}-profiles`), setupKey(venueId, 'access-rules')]}
    />
  );
}

function ProfileForm(props: { venueId: string; family: Family; profile: Profile | null; onDone: () => void }) {
  const { venueId, family, profile } = props;
  const policies = usePaymentPolicies(venueId).data ?? [];
  const pricelists = usePricelists(venueId).data ?? [];
  const groups = useAdmissionGroups(venueId).data ?? [];
  const [name, setName] = useState(profile?.name ?? '');
  const [policyId, setPolicyId] = useState(profile?.payment_policy_id ?? '');
  const [pricelistId, setPricelistId] = useState(profile?.pricelist_id ?? '');
  const [groupId, setGroupId] = useState(profile?.admission_rule_group_id ?? '');
  const [assign, setAssign] = useState(profile?.table_assignment_mode ?? 'auto');
  const [stayOn, setStayOn] = useState(profile?.duration_enabled ?? false);
  const [stay, setStay] = useState(String(profile?.duration_minutes ?? ''));
  const [visibility, setVisibility] = useState(profile?.visibility ?? 'public');
  const [listed, setListed] = useState(profile?.listed ?? true);
  const [showCapacity, setShowCapacity] = useState(profile?.show_capacity ?? false);
  const save = useSave([setupKey(venueId, `${family}-profiles`)]);
  const submit = () =>
    save.run(() => {
      const settings: Record<string, unknown> =
        family === 'table'
          ? {
              payment_policy_id: policyId || null,
              pricelist_id: pricelistId || null,
              table_assignment_mode: assign,
              duration_enabled: stayOn,
              duration_minutes: intOrNull(stay, 'Stay'),
            }
          : family === 'event'
            ? { payment_policy_id: policyId || null, visibility, listed }
            : family === 'list'
              ? { admission_rule_group_id: groupId || null }
              : { visibility, show_capacity: showCapacity };
      const body = { name, ...settings } as { name: string };
      return profile
        ? call(api.PUT(item(family), { params: { path: { venueId, id: profile.id } }, body }))
        : call(api.POST(collection(family), { params: { path: { venueId } }, body }));
    }, props.onDone);
  const policyChoice = (
    <Choice
      label="Payment policy"
      value={policyId}
      onChange={setPolicyId}
      options={[['', 'None'] as const, ...policies.map((p) => [p.id, p.name] as const)]}
    />
  );
  const visibilityChoice = (
    <Choice
      label="Visibility"
      value={visibility}
      onChange={setVisibility}
      options={[
        ['public', 'Public'],
        ['private', 'Private (by link)'],
      ]}
    />
  );
  return (
    <SetupForm
      label={profile ? `Edit ${profile.name}` : `New ${family} profile`}
      busy={save.busy}
      failure={save.failure}
      submitText={profile ? 'Save profile' : 'Add profile'}
      onSubmit={() => void submit()}
      onCancel={props.onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        {family === 'table' && (
          <>
            {policyChoice}
            <Choice
              label="Price list"
              value={pricelistId}
              onChange={setPricelistId}
              options={[['', 'None'] as const, ...pricelists.map((p) => [p.id, p.name] as const)]}
            />
            <Choice
              label="Table choice"
              value={assign}
              onChange={setAssign}
              options={[
                ['auto', 'Assigned automatically'],
                ['guest_pick', 'The guest picks'],
              ]}
            />
          </>
        )}
        {family === 'event' && (
          <>
            {policyChoice}
            {visibilityChoice}
            <Check label="Listed" checked={listed} onChange={setListed} />
          </>
        )}
        {family === 'list' && (
          <Choice
            label="Admission rules"
            value={groupId}
            onChange={setGroupId}
            options={[['', 'None'] as const, ...groups.map((g) => [g.id, g.name] as const)]}
          />
        )}
        {family === 'ticket' && (
          <>
            {visibilityChoice}
            <Check label="Show what is left" checked={showCapacity} onChange={setShowCapacity} />
          </>
        )}
      </div>
      {family === 'table' && (
        <div className="row-fields">
          <Check label="Own stay length" checked={stayOn} onChange={setStayOn} />
          {stayOn && <Field label="Stay (minutes)" short inputMode="numeric" value={stay} onChange={setStay} />}
        </div>
      )}
    </SetupForm>
  );
}
