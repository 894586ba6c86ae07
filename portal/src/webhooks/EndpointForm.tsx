/** Registering an endpoint or changing one: its URL, a description, the events it hears and whether it is on. */
import { useId, useState } from 'react';
import { api, call } from '../api/client';
import { Check, ErrorNote, Field, FormError, useSave } from '../setup/availability/kit';
import { EVENT_TYPES, webhooksKey, type Endpoint, type EventType } from './data';

export function EndpointForm(props: {
  endpoint?: Endpoint;
  onSaved: (created?: { secret: string; url: string }) => void;
  onCancel: () => void;
}) {
  const { endpoint } = props;
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? ['booking.created', 'booking.updated', 'booking.cancelled']);
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const save = useSave([webhooksKey('endpoints')]);
  const legendId = useId();

  const submit = () =>
    save.run(async () => {
      if (events.length === 0) throw new FormError('Choose at least one event');
      const body = { url: url.trim(), description: description.trim(), events: events as EventType[], enabled };
      if (endpoint) {
        await call(api.PATCH('/api/my-operator/webhooks/{id}', { params: { path: { id: endpoint.id } }, body }));
        props.onSaved();
      } else {
        const created = await call(api.POST('/api/my-operator/webhooks', { body }));
        props.onSaved({ secret: created.secret, url: body.url });
      }
    });

  return (
    <form
      className="setup-form webhooks-form"
      aria-label={endpoint ? `Edit ${endpoint.url}` : 'New endpoint'}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Field label="URL" type="url" value={url} onChange={setUrl} required maxLength={2000} placeholder="https://example.com/maitred" />
      <Field label="Description" value={description} onChange={setDescription} maxLength={200} />
      <fieldset className="webhooks-events" aria-labelledby={legendId}>
        <legend id={legendId}>Events</legend>
        {EVENT_TYPES.map(([type, label]) => (
          <Check
            key={type}
            label={`${label} (${type})`}
            checked={events.includes(type)}
            onChange={(on) => setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)))}
          />
        ))}
      </fieldset>
      <Check label="Enabled" checked={enabled} onChange={setEnabled} />
      <ErrorNote failure={save.failure} />
      <div className="setup-form__actions">
        <button type="submit" className="button button--primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : endpoint ? 'Save' : 'Add endpoint'}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
