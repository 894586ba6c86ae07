/**
 * An event's details, to create one (a draft of the current venue) or edit it. The server's edit rules
 * stand (times frozen once booked, capacity not below the committed guests): its refusal is shown as it
 * says it, and the form keeps what was typed. A clash on the date names the other event, with a link.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api/client';
import { Field, FormError, intOrNull, SetupForm, useSave } from '../setup/availability/kit';
import { callOrClash, ClashError, eventKey, eventsKey, type EventRecord } from './data';

export function EventForm(props: { venueId: string; event: EventRecord | null; onDone: (id: string) => void; onCancel?: () => void }) {
  const { event, venueId } = props;
  const [name, setName] = useState(event?.name ?? '');
  const [date, setDate] = useState(event?.event_date ?? '');
  const [start, setStart] = useState(event?.start_time ?? '');
  const [end, setEnd] = useState(event?.end_time ?? '');
  const [lastEntry, setLastEntry] = useState(event?.last_entry_time ?? '');
  const [type, setType] = useState(event?.event_type ?? '');
  const [genre, setGenre] = useState(event?.event_genre ?? '');
  const [description, setDescription] = useState(event?.description ?? '');
  const [capacity, setCapacity] = useState(event?.guest_list_capacity == null ? '' : String(event.guest_list_capacity));
  const [clash, setClash] = useState<ClashError | null>(null);
  const save = useSave([eventsKey(venueId), ...(event ? [eventKey(event.id)] : [])]);

  const submit = () => {
    setClash(null);
    let created = event?.id ?? '';
    return save.run(
      async () => {
        if (!name.trim()) throw new FormError('The event needs a name');
        if (!date) throw new FormError('The event needs a date');
        const fields = {
          name: name.trim(),
          event_date: date,
          start_time: start || null,
          end_time: end || null,
          last_entry_time: lastEntry || null,
          event_type: type.trim() || null,
          event_genre: genre.trim() || null,
          description: description.trim() || null,
          guest_list_capacity: intOrNull(capacity, 'Capacity'),
        };
        try {
          if (event) {
            await callOrClash(api.PUT('/api/my-events/{id}', { params: { path: { id: event.id } }, body: fields }));
          } else {
            created = (await callOrClash(api.POST('/api/my-events', { body: { venue_id: venueId, ...fields } }))).id;
          }
        } catch (caught) {
          if (caught instanceof ClashError) setClash(caught);
          throw caught;
        }
      },
      () => props.onDone(created),
    );
  };

  return (
    <SetupForm
      label={event ? `Edit ${event.name}` : 'New event'}
      busy={save.busy}
      failure={clash ? null : save.failure}
      submitText={event ? 'Save details' : 'Create draft event'}
      onSubmit={() => void submit()}
      onCancel={props.onCancel}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} required maxLength={200} />
        <Field label="Date" type="date" value={date} onChange={setDate} required />
      </div>
      <div className="row-fields">
        <Field label="Doors open" short type="time" value={start} onChange={setStart} />
        <Field label="Ends" short type="time" value={end} onChange={setEnd} />
        <Field label="Last entry" short type="time" value={lastEntry} onChange={setLastEntry} />
        <Field label="Capacity (guests)" short inputMode="numeric" value={capacity} onChange={setCapacity} />
      </div>
      <div className="row-fields">
        <Field label="Type (e.g. club night)" value={type} onChange={setType} maxLength={100} />
        <Field label="Genre" value={genre} onChange={setGenre} maxLength={100} />
      </div>
      <DescriptionField value={description} onChange={setDescription} />
      <p className="muted setup-hint">Times are the venue’s local time. Leave capacity empty for no limit beyond the ticket types’ own.</p>
      {clash && <ClashNote clash={clash} venueId={venueId} />}
    </SetupForm>
  );
}

function DescriptionField(props: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label htmlFor="event-description">Description</label>
      <textarea id="event-description" value={props.value} maxLength={10_000} onChange={(e) => props.onChange(e.target.value)} />
    </div>
  );
}

/** The clash the API reported: the other event's name, linked. */
export function ClashNote({ clash, venueId }: { clash: ClashError; venueId: string }) {
  return (
    <p className="error" role="alert">
      {clash.message}:{' '}
      <Link to="/events/$eventId" params={{ eventId: clash.conflict.event_id }} search={{ venue: venueId }}>
        {clash.conflict.name}
      </Link>{' '}
      already holds that date.
    </p>
  );
}
