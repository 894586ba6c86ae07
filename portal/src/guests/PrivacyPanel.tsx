/**
 * Privacy requests for one guest: export (`GET /api/my-guests/:id/export`, saved as a JSON file) and
 * erasure (`DELETE /api/my-guests/:id`) after a confirmation naming what is erased and what is kept, as
 * the server keeps it. Both are account-wide: the server refuses a role limited to some venues, and says so.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api, call } from '../api/client';
import { guestsKey, messageOf } from './data';

export function PrivacyPanel(props: { guestId: string; name: string; walkIn: boolean; writable: boolean; venueId?: string }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  async function exportGuest() {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const data = await call(api.GET('/api/my-guests/{id}/export', { params: { path: { id: props.guestId } } }));
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `guest-${props.guestId}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setStatus(`The data held on ${props.name} was downloaded (guest-${props.guestId}.json).`);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  async function erase() {
    setBusy(true);
    setError(null);
    try {
      const result = await call(api.DELETE('/api/my-guests/{id}', { params: { path: { id: props.guestId } } }));
      setConfirming(false);
      client.removeQueries({ queryKey: [...guestsKey, props.guestId] });
      await client.invalidateQueries({ queryKey: guestsKey });
      const parts = [
        `${props.name} was erased`,
        `${result.bookings_anonymised} bookings and ${result.vouchers_anonymised} vouchers anonymised`,
      ];
      if (result.account_deleted) parts.push('the walk-in record deleted');
      await navigate({ to: '/guests', search: { venue: props.venueId, erased: `${parts.join('; ')}.` } });
    } catch (caught) {
      setConfirming(false);
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel guest__panel" aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy requests</h2>
      <p className="muted">For a guest’s request to see or erase what you hold on them. Both cover every venue of your account.</p>
      <div className="guests__actions">
        <Button className="button" isDisabled={busy} onPress={() => void exportGuest()}>
          Export guest data
        </Button>
        {props.writable && (
          <Button className="button button--danger" isDisabled={busy} onPress={() => setConfirming(true)}>
            Erase guest…
          </Button>
        )}
      </div>
      {!props.writable && <p className="muted">Erasing a guest needs permission to change guests, which your role does not have.</p>}
      <p role="status">{status}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}

      {confirming && (
        <ModalOverlay isOpen isDismissable={!busy} onOpenChange={(open) => !open && setConfirming(false)} className="modal-overlay">
          <Modal className="modal">
            <Dialog role="alertdialog" aria-labelledby="erase-title">
              <Heading slot="title" id="erase-title">
                Erase {props.name}?
              </Heading>
              <p>This cannot be undone. Across every venue of your account:</p>
              <h3 className="erase__h">Erased</h3>
              <ul>
                <li>The name, email, phone and notes on their bookings and their link to the guest’s account</li>
                <li>Names, emails and messages on vouchers they received or bought</li>
                <li>Their tags, search entries, activity and place in your guest list</li>
                {props.walkIn && <li>This walk-in record itself</li>}
              </ul>
              <h3 className="erase__h">Kept</h3>
              <ul>
                <li>The bookings themselves (dates, party sizes, statuses, tables), as “Erased guest”</li>
                <li>Payments and refunds, and the keys ledger (money records)</li>
                <li>Voucher codes, balances and redemptions</li>
                {!props.walkIn && <li>The guest’s own account on the platform (it is theirs, not your account’s)</li>}
              </ul>
              <div className="guests__actions">
                <Button className="button button--danger" isDisabled={busy} onPress={() => void erase()}>
                  Erase {props.name}
                </Button>
                <Button className="button" isDisabled={busy} onPress={() => setConfirming(false)} autoFocus>
                  Cancel
                </Button>
              </div>
            </Dialog>
          </Modal>
        </ModalOverlay>
      )}
    </section>
  );
}
