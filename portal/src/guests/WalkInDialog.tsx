/**
 * A walk-in record (`POST /api/my-venues/:venueId/guests/walk-in`): a guest with a name and perhaps a
 * phone, without an account (its email is synthesised and undeliverable), who joins the venue's roster.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Dialog, Form, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { api, call } from '../api/client';
import type { Venue } from '../shell/account';
import { guestsKey, messageOf } from './data';

export function WalkInDialog(props: { venue: Venue; onClose: () => void; onDone: (name: string) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const made = await call(
        api.POST('/api/my-venues/{venueId}/guests/walk-in', {
          params: { path: { venueId: props.venue.id } },
          body: { name: name.trim(), phone: phone.trim() || null },
        }),
      );
      await client.invalidateQueries({ queryKey: guestsKey });
      props.onDone(made.name);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog aria-labelledby="walk-in-title">
          <Heading slot="title" id="walk-in-title">
            Add a walk-in record at {props.venue.name}
          </Heading>
          <p className="muted">For a guest without an account: no email is sent to them. Their phone helps you find them again.</p>
          <Form
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <TextField className="field" value={name} onChange={setName} isRequired autoFocus>
              <Label>Name</Label>
              <Input />
            </TextField>
            <TextField className="field" value={phone} onChange={setPhone} type="tel">
              <Label>Phone (optional)</Label>
              <Input />
            </TextField>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <div className="guests__actions">
              <Button type="submit" className="button button--primary" isDisabled={busy || !name.trim()}>
                Add walk-in record
              </Button>
              <Button className="button" onPress={props.onClose}>
                Cancel
              </Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
