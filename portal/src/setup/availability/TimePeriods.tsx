/** Named time periods (`Lunch 12:00–15:00`) that shifts can point at. */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { Field, ItemList, SetupForm, useSave } from './kit';
import { setupKey, useTimePeriods, type TimePeriod } from './data';

export function TimePeriods({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const periods = useTimePeriods(venueId);
  const keys = [setupKey(venueId, 'time-periods')];
  return (
    <ItemList
      title="Time periods"
      noun="time period"
      items={periods.data}
      loading={periods.isPending}
      canWrite={canWrite}
      nameOf={(p) => p.name}
      describe={(p) => `${p.time_from}–${p.time_to}`}
      form={(item, close) => <PeriodForm venueId={venueId} period={item} onDone={close} />}
      remove={(p) => call(api.DELETE('/api/my-venues/{venueId}/time-periods/{id}', { params: { path: { venueId, id: p.id } } }))}
      keys={keys}
    />
  );
}

function PeriodForm({ venueId, period, onDone }: { venueId: string; period: TimePeriod | null; onDone: () => void }) {
  const [name, setName] = useState(period?.name ?? '');
  const [from, setFrom] = useState(period?.time_from ?? '12:00');
  const [to, setTo] = useState(period?.time_to ?? '15:00');
  const save = useSave([setupKey(venueId, 'time-periods')]);
  const submit = () => {
    const body = { name, time_from: from, time_to: to };
    return save.run(
      () =>
        period
          ? call(api.PUT('/api/my-venues/{venueId}/time-periods/{id}', { params: { path: { venueId, id: period.id } }, body }))
          : call(api.POST('/api/my-venues/{venueId}/time-periods', { params: { path: { venueId } }, body })),
      onDone,
    );
  };
  return (
    <SetupForm
      label={period ? `Edit ${period.name}` : 'New time period'}
      busy={save.busy}
      failure={save.failure}
      submitText={period ? 'Save time period' : 'Add time period'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        <Field label="From" type="time" value={from} onChange={setFrom} />
        <Field label="To" type="time" value={to} onChange={setTo} />
      </div>
    </SetupForm>
  );
}
