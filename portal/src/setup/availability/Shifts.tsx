/**
 * Shifts: the days and hours the venue takes bookings (its own times, a named period, or the venue's
 * opening hours), with their party sizes, stay length and payment policy.
 */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { Check, Choice, DAY_NAMES, DaysPicker, type Day, Field, intOrNull, ItemList, SetupForm, useSave } from './kit';
import { setupKey, usePaymentPolicies, useShifts, useTimePeriods, type Shift, type TimePeriod } from './data';

/** When a shift runs, in words: `17:00–22:00`, `Dinner (17:00–22:00)` or `venue opening hours`. */
function shiftHours(shift: Shift, periods: TimePeriod[] | undefined): string {
  if (shift.time_type === 'custom') {
    const period = periods?.find((p) => p.id === shift.time_period_id);
    if (period) return `${period.name} (${period.time_from}–${period.time_to})`;
    if (shift.time_from && shift.time_to) return `${shift.time_from}–${shift.time_to}`;
  }
  return 'venue opening hours';
}

export const dayList = (days: string[]) => (days.length === 7 ? 'every day' : days.map((d) => DAY_NAMES[d]?.slice(0, 3) ?? d).join(', '));

export function Shifts({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const shifts = useShifts(venueId);
  const periods = useTimePeriods(venueId);
  return (
    <ItemList
      title="Shifts"
      noun="shift"
      items={shifts.data}
      loading={shifts.isPending}
      canWrite={canWrite}
      nameOf={(s) => s.name}
      describe={(s) => (
        <>
          {dayList(s.days_of_week)} · {shiftHours(s, periods.data)}
          {s.party_size_min || s.party_size_max ? ` · parties of ${s.party_size_min ?? 1}–${s.party_size_max ?? '…'}` : ''}
          {s.duration_type === 'custom' && s.duration_minutes ? ` · ${s.duration_minutes} min stays` : ''}
        </>
      )}
      form={(item, close) => <ShiftForm venueId={venueId} shift={item} onDone={close} />}
      remove={(s) => call(api.DELETE('/api/my-venues/{venueId}/shifts/{id}', { params: { path: { venueId, id: s.id } } }))}
      keys={[setupKey(venueId, 'shifts')]}
    />
  );
}

type Hours = 'venue' | 'period' | 'times';

function ShiftForm({ venueId, shift, onDone }: { venueId: string; shift: Shift | null; onDone: () => void }) {
  const periods = useTimePeriods(venueId).data ?? [];
  const policies = usePaymentPolicies(venueId).data ?? [];
  const [name, setName] = useState(shift?.name ?? '');
  const [days, setDays] = useState<string[]>(shift?.days_of_week ?? []);
  const [hours, setHours] = useState<Hours>(
    shift?.time_type !== 'custom' ? (shift ? 'venue' : 'times') : shift.time_period_id ? 'period' : 'times',
  );
  const [periodId, setPeriodId] = useState(shift?.time_period_id ?? periods[0]?.id ?? '');
  const [from, setFrom] = useState(shift?.time_from ?? '17:00');
  const [to, setTo] = useState(shift?.time_to ?? '22:00');
  const [scheduleStart, setScheduleStart] = useState(shift?.schedule_start ?? '');
  const [scheduleEnd, setScheduleEnd] = useState(shift?.schedule_end ?? '');
  const [partyMin, setPartyMin] = useState(String(shift?.party_size_min ?? ''));
  const [partyMax, setPartyMax] = useState(String(shift?.party_size_max ?? ''));
  const [customStay, setCustomStay] = useState(shift?.duration_type === 'custom');
  const [stay, setStay] = useState(String(shift?.duration_minutes ?? '120'));
  const [policyId, setPolicyId] = useState(shift?.payment_policy_id ?? '');
  const save = useSave([setupKey(venueId, 'shifts')]);

  const submit = () =>
    save.run(() => {
      const body = {
        name,
        days_of_week: days as Day[],
        time_type: hours === 'venue' ? ('default' as const) : ('custom' as const),
        time_period_id: hours === 'period' ? periodId || null : null,
        time_from: hours === 'times' ? from : null,
        time_to: hours === 'times' ? to : null,
        schedule_start: scheduleStart || null,
        schedule_end: scheduleEnd || null,
        party_size_min: intOrNull(partyMin, 'Smallest party'),
        party_size_max: intOrNull(partyMax, 'Largest party'),
        duration_type: customStay ? ('custom' as const) : ('default' as const),
        duration_minutes: customStay ? intOrNull(stay, 'Stay') : null,
        payment_policy_id: policyId || null,
        // Not edited here; PUT would return them to "everywhere" if left out.
        seating_area_ids: shift?.seating_area_ids ?? [],
        table_ids: shift?.table_ids ?? [],
      };
      return shift
        ? call(api.PUT('/api/my-venues/{venueId}/shifts/{id}', { params: { path: { venueId, id: shift.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/shifts', { params: { path: { venueId } }, body }));
    }, onDone);

  return (
    <SetupForm
      label={shift ? `Edit ${shift.name}` : 'New shift'}
      busy={save.busy}
      failure={save.failure}
      submitText={shift ? 'Save shift' : 'Add shift'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <Field label="Name" value={name} onChange={setName} />
      <DaysPicker legend="Days" days={days} onChange={setDays} />
      <div className="row-fields">
        <Choice
          label="Hours"
          value={hours}
          onChange={(v) => setHours(v as Hours)}
          options={[
            ['times', 'Its own times'],
            ['period', 'A time period'],
            ['venue', 'The venue’s opening hours'],
          ]}
        />
        {hours === 'times' && (
          <>
            <Field label="From" type="time" value={from} onChange={setFrom} />
            <Field label="To" type="time" value={to} onChange={setTo} />
          </>
        )}
        {hours === 'period' && (
          <Choice
            label="Time period"
            value={periodId}
            onChange={setPeriodId}
            options={[['', 'Choose…'] as const, ...periods.map((p) => [p.id, `${p.name} (${p.time_from}–${p.time_to})`] as const)]}
          />
        )}
      </div>
      <div className="row-fields">
        <Field label="Runs from (optional)" type="date" value={scheduleStart} onChange={setScheduleStart} />
        <Field label="Runs until (optional)" type="date" value={scheduleEnd} onChange={setScheduleEnd} />
        <Field label="Smallest party" short inputMode="numeric" value={partyMin} onChange={setPartyMin} />
        <Field label="Largest party" short inputMode="numeric" value={partyMax} onChange={setPartyMax} />
      </div>
      <div className="row-fields">
        <Check label="Its own stay length" checked={customStay} onChange={setCustomStay} />
        {customStay && <Field label="Stay (minutes)" short inputMode="numeric" value={stay} onChange={setStay} />}
        <Choice
          label="Payment policy"
          value={policyId}
          onChange={setPolicyId}
          options={[['', 'None (the venue’s default)'] as const, ...policies.map((p) => [p.id, p.name] as const)]}
        />
      </div>
    </SetupForm>
  );
}
