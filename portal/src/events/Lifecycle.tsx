/**
 * An event's status and the moves the spec's status table allows from it (Event status):
 * draft → Publish (`approved`; a same-day clash names the other event, linked) or Delete;
 * published → Back to draft (refused while it has bookings), app listing request/withdraw, Cancel;
 * submitted (`pending_venue_approval`) → Approve or Reject; rejected → Approve or Back to draft;
 * cancelled → Back to draft. Cancelling first shows what it will cancel and refund (the read-only
 * cancellation preview) and asks to confirm.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api, call } from '../api/client';
import { ErrorNote, failureOf, pounds, type Failure } from '../setup/availability/kit';
import { ClashNote } from './EventForm';
import { callOrClash, ClashError, eventKey, eventsKey, LISTING_WORDS, statusWord, type EventRecord } from './data';

const id = (eventId: string) => ({ params: { path: { id: eventId } } });

export function Lifecycle({ event, canWrite }: { event: EventRecord; canWrite: boolean }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [clash, setClash] = useState<ClashError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function run(what: string, request: () => Promise<unknown>) {
    setBusy(true);
    setFailure(null);
    setClash(null);
    setDone(null);
    try {
      await request();
      setDone(what);
      await Promise.all([
        client.invalidateQueries({ queryKey: eventKey(event.id) }),
        client.invalidateQueries({ queryKey: eventsKey(event.venue_id) }),
      ]);
      return true;
    } catch (caught) {
      if (caught instanceof ClashError) setClash(caught);
      else setFailure(failureOf(caught));
      return false;
    } finally {
      setBusy(false);
    }
  }
  const setStatus = (status: 'approved' | 'draft' | 'cancelled' | 'rejected', what: string) =>
    run(what, () => callOrClash(api.PATCH('/api/my-events/{id}/status', { ...id(event.id), body: { status } })));

  const { status } = event;
  const actions: { label: string; press: () => void; danger?: boolean; primary?: boolean }[] = [];
  if (status === 'draft') actions.push({ label: 'Publish', primary: true, press: () => void setStatus('approved', 'Published.') });
  if (status === 'pending_venue_approval' || status === 'rejected') {
    actions.push({
      label: 'Approve',
      primary: true,
      press: () => void run('Approved: the event is published.', () => callOrClash(api.POST('/api/my-events/{id}/approve', id(event.id)))),
    });
  }
  if (status === 'pending_venue_approval') {
    actions.push({
      label: 'Reject',
      danger: true,
      press: () => void run('Rejected.', () => call(api.POST('/api/my-events/{id}/reject', { ...id(event.id), body: {} }))),
    });
  }
  if (status === 'approved') {
    if (event.app_listing_status === 'pending') {
      actions.push({
        label: 'Withdraw listing request',
        press: () => void run('Listing request withdrawn.', () => call(api.POST('/api/my-events/{id}/withdraw-listing', id(event.id)))),
      });
    } else if (event.app_listing_status === 'none') {
      actions.push({
        label: 'Request app listing',
        press: () => void run('Listing requested.', () => call(api.POST('/api/my-events/{id}/request-listing', id(event.id)))),
      });
    }
  }
  if (status === 'approved' || status === 'rejected' || status === 'cancelled') {
    actions.push({
      label: status === 'approved' ? 'Unpublish (back to draft)' : 'Back to draft',
      press: () => void setStatus('draft', 'Back to draft.'),
    });
  }
  if (status !== 'cancelled') actions.push({ label: 'Cancel event…', danger: true, press: () => setCancelling(true) });

  return (
    <section className="setup-section" aria-labelledby="event-status">
      <div className="setup-section__head">
        <h2 id="event-status">Status</h2>
      </div>
      <p>
        <span className={`event-status event-status--${status}`}>{statusWord(status)}</span>{' '}
        {status === 'approved' && <span className="muted">· {LISTING_WORDS[event.app_listing_status] ?? event.app_listing_status}</span>}
      </p>
      {canWrite ? (
        <div className="actions">
          {actions.map((action) => (
            <Button
              key={action.label}
              className={`button${action.primary ? ' button--primary' : ''}${action.danger ? ' button--danger' : ''}`}
              isDisabled={busy}
              onPress={action.press}
            >
              {action.label}
            </Button>
          ))}
          {(status === 'draft' || status === 'rejected' || status === 'cancelled') &&
            (deleting ? (
              <Button
                className="button button--danger"
                isDisabled={busy}
                onPress={() =>
                  void run('Deleted.', () => call(api.DELETE('/api/my-events/{id}', id(event.id)))).then((ok) => {
                    if (ok) void navigate({ to: '/events', search: { venue: event.venue_id } });
                  })
                }
              >
                Really delete {event.name}
              </Button>
            ) : (
              <Button className="button button--danger" onPress={() => setDeleting(true)}>
                Delete…
              </Button>
            ))}
        </div>
      ) : (
        <p className="muted">Your role may look at this event but not change it.</p>
      )}
      {done && (
        <p className="notice notice--ok" role="status">
          {done}
        </p>
      )}
      {clash && <ClashNote clash={clash} venueId={event.venue_id} />}
      <ErrorNote failure={failure} />
      {cancelling && (
        <CancelDialog
          event={event}
          busy={busy}
          onClose={() => setCancelling(false)}
          onConfirm={() =>
            void setStatus('cancelled', 'Cancelled: every booking was cancelled and the paid ones refunded.').then(() =>
              setCancelling(false),
            )
          }
        />
      )}
    </section>
  );
}

const OUTCOME_WORDS = { refund: 'Refund', release_payment: 'Payment called off (not taken)', cancel: 'Cancelled, nothing to refund' };

/** What cancelling will do, read from the cancellation preview, before the operator confirms it. */
function CancelDialog(props: { event: EventRecord; busy: boolean; onClose: () => void; onConfirm: () => void }) {
  const preview = useQuery({
    queryKey: [...eventKey(props.event.id), 'cancellation-preview'],
    queryFn: () => call(api.GET('/api/my-events/{id}/cancellation-preview', id(props.event.id))),
    staleTime: 0,
  });
  const data = preview.data;
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal modal--wide">
        <Dialog>
          <Heading slot="title">Cancel {props.event.name}?</Heading>
          {preview.isPending && <p className="muted">Working out what would be refunded…</p>}
          {preview.error && <ErrorNote failure={failureOf(preview.error)} />}
          {data && (
            <>
              <p>
                {data.cancelled_bookings === 0
                  ? 'No booking to cancel.'
                  : `${data.cancelled_bookings} booking${data.cancelled_bookings === 1 ? '' : 's'} will be cancelled and each guest told; ${
                      data.refunded_bookings
                    } refunded, ${pounds(data.refund_pence)} in all.`}
                {data.kept_checked_in > 0 &&
                  ` ${data.kept_checked_in} checked-in booking${data.kept_checked_in === 1 ? ' stays' : 's stay'} as it is.`}{' '}
                No more tickets will sell.
              </p>
              {data.bookings.length > 0 && (
                <div className="event-table-wrap">
                  <table className="event-table">
                    <caption className="visually-hidden">What cancelling does to each booking</caption>
                    <thead>
                      <tr>
                        <th scope="col">Guest</th>
                        <th scope="col">Tickets</th>
                        <th scope="col">Paid</th>
                        <th scope="col">Refund</th>
                        <th scope="col">What happens</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.bookings.map((b) => (
                        <tr key={b.id}>
                          <td>
                            {b.guest_name ?? 'Guest'}
                            {b.guest_email && <div className="muted">{b.guest_email}</div>}
                          </td>
                          <td>{b.ticket_name ? `${b.quantity} × ${b.ticket_name}` : `${b.guest_count} guests`}</td>
                          <td>{pounds(b.paid_pence)}</td>
                          <td>{pounds(b.refund_pence)}</td>
                          <td>{OUTCOME_WORDS[b.outcome]}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          )}
          <div className="actions">
            <Button className="button button--danger" isDisabled={!data || props.busy} onPress={props.onConfirm}>
              {data && data.refund_pence > 0 ? `Cancel event and refund ${pounds(data.refund_pence)}` : 'Cancel event'}
            </Button>
            <Button className="button" autoFocus onPress={props.onClose}>
              Keep the event
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
