/** One endpoint's delivery log: each event with its status, last answer and attempts, and a redeliver button. */
import { useId } from 'react';
import { api, call } from '../api/client';
import { ErrorNote, useSave } from '../setup/availability/kit';
import { useDeliveries, webhooksKey, type Delivery } from './data';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' });

const STATUS_TEXT: Record<Delivery['status'], string> = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' };

export function DeliveryLog(props: { endpointId: string; canWrite: boolean; enabled: boolean }) {
  const deliveries = useDeliveries(props.endpointId);
  const redeliver = useSave([webhooksKey('deliveries', props.endpointId), webhooksKey('endpoints')]);
  const captionId = useId();
  if (deliveries.isPending) return <p className="muted">Loading deliveries…</p>;
  if (!deliveries.data?.length) return <p className="muted">No events sent yet.</p>;
  return (
    <div className="webhooks-log">
      <ErrorNote failure={redeliver.failure} />
      <table className="webhooks-table" aria-labelledby={captionId}>
        <caption id={captionId} className="visually-hidden">
          Deliveries, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col">Response</th>
            <th scope="col">Attempts</th>
            {props.canWrite && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((delivery) => {
            const last = delivery.attempts[0];
            return (
              <tr key={delivery.id}>
                <td>
                  <code>{delivery.event_type}</code>
                  <div className="muted webhooks-table__id">{delivery.event_id}</div>
                </td>
                <td>{when(delivery.created_at)}</td>
                <td>
                  <span className={`webhooks-status webhooks-status--${delivery.status}`}>{STATUS_TEXT[delivery.status]}</span>
                  {delivery.next_attempt_at && <div className="muted">next {when(delivery.next_attempt_at)}</div>}
                </td>
                <td>
                  <span>{delivery.last_status_code ?? '—'}</span>
                  {delivery.last_error && <div className="muted">{delivery.last_error}</div>}
                  {last && <div className="muted">{last.duration_ms} ms</div>}
                </td>
                <td>{delivery.attempts.length}</td>
                {props.canWrite && (
                  <td>
                    <button
                      type="button"
                      className="button"
                      disabled={redeliver.busy || !props.enabled}
                      aria-label={`Redeliver ${delivery.event_type} ${delivery.event_id}`}
                      onClick={() =>
                        void redeliver.run(() =>
                          call(
                            api.POST('/api/my-operator/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
                              params: { path: { id: props.endpointId, deliveryId: delivery.id } },
                            }),
                          ),
                        )
                      }
                    >
                      Redeliver
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
