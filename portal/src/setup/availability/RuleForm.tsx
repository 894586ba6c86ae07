/**
 * An access rule's form: base (days, clock window), party sizes, stay, pacing, booking window, what the
 * guest sees, where they sit and which extras they are offered, and the payment policy, price list and
 * profiles it points at. A feature's values apply only while its toggle is on, as in the API.
 */
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { paths } from '../../api/schema';
import { useSetupLists } from './lists';
import { Check, Choice, DaysPicker, Field, intOrNull, SetupForm, useSave, type Day } from './kit';
import { setupKey, usePaymentPolicies, usePricelists, type AccessRule } from './data';

const UNITS = [
  ['minutes', 'minutes'],
  ['hours', 'hours'],
  ['days', 'days'],
  ['weeks', 'weeks'],
  ['months', 'months'],
] as const;
type Unit = (typeof UNITS)[number][0];
type RuleBody = paths['/api/my-venues/{venueId}/access-rules']['post']['requestBody']['content']['application/json'];

export function RuleForm({ venueId, rule, onDone }: { venueId: string; rule: AccessRule | null; onDone: () => void }) {
  const policies = usePaymentPolicies(venueId).data ?? [];
  const pricelists = usePricelists(venueId).data ?? [];
  const [name, setName] = useState(rule?.name ?? '');
  const [type, setType] = useState(rule?.rule_type ?? 'table');
  const [days, setDays] = useState<string[]>(rule?.days_of_week ?? []);
  const [from, setFrom] = useState(rule?.time_from ?? '');
  const [to, setTo] = useState(rule?.time_to ?? '');
  const [hidden, setHidden] = useState(rule?.app_opt_out ?? false);
  const [party, setParty] = useState(rule?.party_size_enabled ?? false);
  const [partyMin, setPartyMin] = useState(String(rule?.party_size_min ?? ''));
  const [partyMax, setPartyMax] = useState(String(rule?.party_size_max ?? ''));
  const [stayOn, setStayOn] = useState(rule?.duration_enabled ?? false);
  const [stay, setStay] = useState(String(rule?.duration_minutes ?? ''));
  const [coversOn, setCoversOn] = useState(rule?.max_covers_enabled ?? false);
  const [covers, setCovers] = useState(String(rule?.max_covers ?? ''));
  const [windowOn, setWindowOn] = useState(rule?.booking_window_enabled ?? false);
  const [cutoff, setCutoff] = useState(String(rule?.booking_cutoff_value ?? ''));
  const [cutoffUnit, setCutoffUnit] = useState((rule?.booking_cutoff_unit ?? 'hours') as Unit);
  const [start, setStart] = useState(String(rule?.booking_start_value ?? ''));
  const [startUnit, setStartUnit] = useState((rule?.booking_start_unit ?? 'days') as Unit);
  const [displayOn, setDisplayOn] = useState(rule?.display_enabled ?? false);
  const [title, setTitle] = useState(rule?.display_title ?? '');
  const [description, setDescription] = useState(rule?.display_description ?? '');
  const [assign, setAssign] = useState(rule?.table_assignment_mode ?? 'auto');
  const lists = useSetupLists(venueId);
  const [seatingOn, setSeatingOn] = useState(rule?.seating_enabled ?? false);
  const [areaIds, setAreaIds] = useState<string[]>(rule?.seating_area_ids ?? []);
  const [bundlesOn, setBundlesOn] = useState(rule?.bundles_enabled ?? false);
  const [bundleIds, setBundleIds] = useState<string[]>(rule?.bundle_ids ?? []);
  const [tableProfileId, setTableProfileId] = useState(rule?.table_profile_id ?? '');
  const [listProfileId, setListProfileId] = useState(rule?.list_profile_id ?? '');
  const [policyId, setPolicyId] = useState(rule?.payment_policy_id ?? '');
  const [pricelistId, setPricelistId] = useState(rule?.pricelist_id ?? '');
  const save = useSave([setupKey(venueId, 'access-rules')]);

  const submit = () =>
    save.run(() => {
      // PUT returns omitted fields to their defaults: what this form does not edit (seating, bundles,
      // door pricing, profiles, image…) is sent back as it is.
      const { id: _id, ...kept } = rule ?? { id: '' };
      const body = {
        ...kept,
        name,
        rule_type: type as 'table' | 'guestlist',
        days_of_week: days as Day[],
        time_from: from || null,
        time_to: to || null,
        app_opt_out: hidden,
        party_size_enabled: party,
        party_size_min: intOrNull(partyMin, 'Smallest party'),
        party_size_max: intOrNull(partyMax, 'Largest party'),
        duration_enabled: stayOn,
        duration_minutes: intOrNull(stay, 'Stay'),
        max_covers_enabled: coversOn,
        max_covers: intOrNull(covers, 'Most covers'),
        booking_window_enabled: windowOn,
        // A unit goes with its value: the API refuses one without the other.
        booking_cutoff_value: intOrNull(cutoff, 'Least notice'),
        booking_cutoff_unit: cutoff.trim() ? cutoffUnit : null,
        booking_start_value: intOrNull(start, 'Furthest ahead'),
        booking_start_unit: start.trim() ? startUnit : null,
        display_enabled: displayOn,
        display_title: title || null,
        display_description: description || null,
        table_assignment_mode: assign as 'auto' | 'guest_pick',
        payment_policy_id: policyId || null,
        pricelist_id: pricelistId || null,
        seating_enabled: seatingOn,
        seating_area_ids: areaIds,
        bundles_enabled: bundlesOn,
        bundle_ids: bundleIds,
        table_profile_id: tableProfileId || null,
        list_profile_id: listProfileId || null,
      };
      const typed = body as RuleBody;
      return rule
        ? call(api.PUT('/api/my-venues/{venueId}/access-rules/{id}', { params: { path: { venueId, id: rule.id } }, body: typed }))
        : call(api.POST('/api/my-venues/{venueId}/access-rules', { params: { path: { venueId } }, body: typed }));
    }, onDone);

  return (
    <SetupForm
      label={rule ? `Edit ${rule.name}` : 'New access rule'}
      busy={save.busy}
      failure={save.failure}
      submitText={rule ? 'Save access rule' : 'Add access rule'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        <Choice
          label="Books"
          value={type}
          onChange={setType}
          options={[
            ['table', 'Tables'],
            ['guestlist', 'Guest list'],
          ]}
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
      </div>
      <DaysPicker legend="Days" days={days} onChange={setDays} />
      <div className="row-fields">
        <Field label="From (optional)" type="time" value={from} onChange={setFrom} />
        <Field label="To (optional)" type="time" value={to} onChange={setTo} />
        <Check label="Hidden from guests" checked={hidden} onChange={setHidden} />
      </div>
      <p className="muted setup-hint">Without From and To the rule offers every hour its days’ shifts run.</p>
      <div className="row-fields">
        <Check label="Own party sizes" checked={party} onChange={setParty} />
        {party && (
          <>
            <Field label="Smallest party" short inputMode="numeric" value={partyMin} onChange={setPartyMin} />
            <Field label="Largest party" short inputMode="numeric" value={partyMax} onChange={setPartyMax} />
          </>
        )}
        <Check label="Own stay length" checked={stayOn} onChange={setStayOn} />
        {stayOn && <Field label="Stay (minutes)" short inputMode="numeric" value={stay} onChange={setStay} />}
        <Check label="Cap covers" checked={coversOn} onChange={setCoversOn} />
        {coversOn && <Field label="Most covers" short inputMode="numeric" value={covers} onChange={setCovers} />}
      </div>
      <div className="row-fields">
        <Check label="Booking window" checked={windowOn} onChange={setWindowOn} />
        {windowOn && (
          <>
            <Field label="Least notice" short inputMode="numeric" value={cutoff} onChange={setCutoff} />
            <Choice label="Notice unit" value={cutoffUnit} onChange={(v) => setCutoffUnit(v as Unit)} options={UNITS} />
            <Field label="Furthest ahead" short inputMode="numeric" value={start} onChange={setStart} />
            <Choice label="Ahead unit" value={startUnit} onChange={(v) => setStartUnit(v as Unit)} options={UNITS} />
          </>
        )}
      </div>
      <div className="row-fields">
        <Check label="Own title for guests" checked={displayOn} onChange={setDisplayOn} />
        {displayOn && (
          <>
            <Field label="Title" value={title} onChange={setTitle} />
            <Field label="Description" value={description} onChange={setDescription} />
          </>
        )}
      </div>
      <Picks
        legend="Where"
        toggle="Only some seating areas"
        on={seatingOn}
        setOn={setSeatingOn}
        items={lists.areas}
        ids={areaIds}
        setIds={setAreaIds}
      />
      <Picks
        legend="Extras"
        toggle="Offer bundles"
        on={bundlesOn}
        setOn={setBundlesOn}
        items={lists.bundles}
        ids={bundleIds}
        setIds={setBundleIds}
      />
      <div className="row-fields">
        {type === 'guestlist' ? (
          <Choice
            label="Guest-list profile"
            value={listProfileId}
            onChange={setListProfileId}
            options={[['', 'None'] as const, ...lists.listProfiles.map((p) => [p.id, p.name] as const)]}
          />
        ) : (
          <Choice
            label="Table profile"
            value={tableProfileId}
            onChange={setTableProfileId}
            options={[['', 'None'] as const, ...lists.tableProfiles.map((p) => [p.id, p.name] as const)]}
          />
        )}
        <Choice
          label="Payment policy"
          value={policyId}
          onChange={setPolicyId}
          options={[['', 'None: no deposit'] as const, ...policies.map((p) => [p.id, p.name] as const)]}
        />
        <Choice
          label="Price list"
          value={pricelistId}
          onChange={setPricelistId}
          options={[['', 'None'] as const, ...pricelists.map((p) => [p.id, p.name] as const)]}
        />
      </div>
      {policyId && <p className="muted">{policies.find((p) => p.id === policyId)?.guest_terms.cancellation}</p>}
    </SetupForm>
  );
}

/** A toggle and, while it is on, a checkbox per item (areas, bundles). */
function Picks(props: {
  legend: string;
  toggle: string;
  on: boolean;
  setOn: (on: boolean) => void;
  items: { id: string; name: string }[];
  ids: string[];
  setIds: (ids: string[]) => void;
}) {
  if (props.items.length === 0 && !props.on) return null;
  return (
    <fieldset className="setup-days">
      <legend>{props.legend}</legend>
      <Check label={props.toggle} checked={props.on} onChange={props.setOn} />
      {props.on &&
        props.items.map((item) => (
          <Check
            key={item.id}
            label={item.name}
            checked={props.ids.includes(item.id)}
            onChange={(checked) => props.setIds(checked ? [...props.ids, item.id] : props.ids.filter((id) => id !== item.id))}
          />
        ))}
    </fieldset>
  );
}
