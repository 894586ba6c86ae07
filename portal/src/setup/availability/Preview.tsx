/**
 * What a guest would see: the slots of the public availability endpoint the booking widget calls, for a
 * party size and a date, grouped by access rule. It is the guest's view, so hidden rules and blackouts
 * show as they would to a guest.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { paths } from '../../api/schema';
import { ErrorNote, failureOf, Field } from './kit';

type Answer = paths['/api/public/venues/{venueId}/availability']['get']['responses'][200]['content']['application/json'];

/** The rules in the order of their first time of the day (a guest reads the day from morning on). */
function byFirstTime(data: Answer) {
  const first = (id: string) => data.slots.find((s) => s.access_rule_id === id)?.time ?? '99:99';
  return [...data.rules].sort((a, b) => first(a.id).localeCompare(first(b.id)));
}

export function Preview({ venueId, today, draft }: { venueId: string; today: string; draft: boolean }) {
  const [party, setParty] = useState('2');
  const [date, setDate] = useState(today);
  const size = Number(party);
  const valid = Number.isInteger(size) && size >= 1 && size <= 100 && /^\d{4}-\d{2}-\d{2}$/.test(date);
  const answer = useQuery({
    queryKey: ['setup', venueId, 'preview', date, size],
    queryFn: () =>
      call(api.GET('/api/public/venues/{venueId}/availability', { params: { path: { venueId }, query: { date, party_size: size } } })),
    // A venue in draft is not public yet: the endpoint does not know it.
    enabled: valid && !draft,
    refetchOnWindowFocus: true,
  });
  const data = answer.data;
  const free = data?.slots.filter((s) => s.available).length ?? 0;
  return (
    <section className="setup-section" aria-labelledby="preview-heading">
      <h2 id="preview-heading">What a guest sees</h2>
      <p className="muted">The times the booking widget offers, live from the public availability.</p>
      <div className="row-fields">
        <Field label="Party size" short inputMode="numeric" value={party} onChange={setParty} />
        <Field label="Date" type="date" value={date} onChange={setDate} />
        <button type="button" className="button" onClick={() => void answer.refetch()}>
          Refresh
        </button>
      </div>
      {draft && (
        <p className="notice">
          The venue is in draft, so guests cannot book it yet and the widget offers no times. Once it goes live (on the checklist), the
          times show here.
        </p>
      )}
      {!valid && <p className="error">Enter a party size from 1 to 100 and a date.</p>}
      {answer.error && <ErrorNote failure={failureOf(answer.error)} />}
      <p aria-live="polite" className="preview-count">
        {data ? (data.party_too_large ? 'This party is too large to book online.' : `${free} time${free === 1 ? '' : 's'} bookable`) : ''}
      </p>
      {data && (
        <div className="preview">
          {byFirstTime(data).map((rule) => {
            const slots = data.slots.filter((s) => s.access_rule_id === rule.id);
            return (
              <div key={rule.id} className="preview__rule">
                <h3>{rule.display_title ?? rule.name}</h3>
                <ul className="preview__slots" aria-label={`Times for ${rule.display_title ?? rule.name}`}>
                  {slots.map((slot) => (
                    <li key={slot.time} className={slot.available ? 'slot' : 'slot slot--full'}>
                      {slot.time}
                      {!slot.available && <span className="visually-hidden"> (full)</span>}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
          {data.slots.length === 0 && !data.party_too_large && <p className="muted">No times on this date.</p>}
          {free === 0 && data.next_available_dates.length > 0 && <p>Next dates with times: {data.next_available_dates.join(', ')}</p>}
        </div>
      )}
    </section>
  );
}
