/**
 * A new venue: its name and address (`POST /api/my-venues`), then, unless unticked, back to draft
 * (`PUT /api/my-venues/:id/status`), since the API creates venues live and a venue being set up should
 * not take bookings yet.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Input, Label, TextArea, TextField } from 'react-aria-components';
import { api, call } from '../../api/client';
import { messageOf } from './data';

export function NewVenue(props: { onCreated: (id: string) => void; onCancel?: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [draft, setDraft] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await call(api.POST('/api/my-venues', { body: { name, address } }));
      if (draft) {
        await call(api.PUT('/api/my-venues/{id}/status', { params: { path: { id: created.id } }, body: { status: 'draft' } }));
      }
      await client.invalidateQueries({ queryKey: ['venues'] });
      props.onCreated(created.id);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel setup__panel setup-form" aria-labelledby="new-venue-title" onSubmit={(e) => void create(e)}>
      <h2 id="new-venue-title">New venue</h2>
      <TextField className="field" value={name} onChange={setName} isRequired maxLength={200}>
        <Label>Venue name</Label>
        <Input />
      </TextField>
      <TextField className="field" value={address} onChange={setAddress} isRequired maxLength={500}>
        <Label>Address</Label>
        <TextArea rows={2} />
      </TextField>
      <Checkbox isSelected={draft} onChange={setDraft} className="checkbox">
        <span className="checkbox__box" aria-hidden="true" />
        Keep it in draft until it is set up (guests cannot book it yet)
      </Checkbox>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <Button type="submit" className="button button--primary" isDisabled={busy}>
          Create venue
        </Button>
        {props.onCancel && (
          <Button className="button button--quiet" onPress={props.onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
