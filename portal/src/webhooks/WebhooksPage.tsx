/**
 * Webhooks (`/app/webhooks`, permission `operators.settings`): the account's endpoints, registering one
 * (its signing secret shown once, with a copy button), changing its events, rotating its secret,
 * deleting it, and each endpoint's delivery log with redelivery. Changes need write; read shows all.
 */
import { useState } from 'react';
import { api, call } from '../api/client';
import { useCan } from '../shell/account';
import { ErrorNote, useSave } from '../setup/availability/kit';
import { ConfirmButton } from '../team/ConfirmButton';
import { DeliveryLog } from './DeliveryLog';
import { EndpointForm } from './EndpointForm';
import { SecretNote } from './SecretNote';
import { useEndpoints, webhooksKey, type Endpoint } from './data';
import '../setup/availability/setup.css';
import './webhooks.css';

export default function WebhooksPage() {
  const can = useCan();
  const canWrite = can('operators.settings', 'write');
  const endpoints = useEndpoints();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null);
  return (
    <main className="page setup webhooks" id="main">
      <header>
        <h1>Webhooks</h1>
        <p className="muted">
          Your own systems hear about bookings, tickets, vouchers and guests as they happen. Each request is signed with the endpoint’s
          secret in the <code>Maitred-Signature</code> header; failed deliveries are retried for about a day.
        </p>
      </header>
      {secret && <SecretNote {...secret} onDone={() => setSecret(null)} />}
      {endpoints.error && (
        <p className="error" role="alert">
          {endpoints.error.message}
        </p>
      )}
      {endpoints.data?.length === 0 && !adding && <p>No endpoints yet.</p>}
      <ul className="setup-list webhooks-list">
        {endpoints.data?.map((endpoint) => (
          <EndpointItem key={endpoint.id} endpoint={endpoint} canWrite={canWrite} onSecret={setSecret} />
        ))}
      </ul>
      {canWrite &&
        (adding ? (
          <EndpointForm
            onSaved={(created) => {
              setAdding(false);
              if (created) setSecret(created);
            }}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <button type="button" className="button button--primary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        ))}
    </main>
  );
}

function EndpointItem(props: { endpoint: Endpoint; canWrite: boolean; onSecret: (secret: { secret: string; url: string }) => void }) {
  const { endpoint, canWrite } = props;
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const action = useSave([webhooksKey('endpoints')]);
  const path = { params: { path: { id: endpoint.id } } };
  return (
    <li className="setup-item webhooks-item">
      <div className="setup-item__main">
        <strong className="webhooks-item__url">{endpoint.url}</strong>{' '}
        <span className={`team-badge webhooks-badge${endpoint.enabled ? '' : ' webhooks-badge--off'}`}>
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </span>
        {endpoint.description && <div className="setup-item__desc">{endpoint.description}</div>}
        <div className="setup-item__desc">{endpoint.events.join(', ')}</div>
        {endpoint.disabled_reason && <p className="webhooks-warning">{endpoint.disabled_reason}. Enable it again once it answers.</p>}
        {endpoint.enabled && endpoint.consecutive_failures > 0 && (
          <p className="webhooks-warning">{endpoint.consecutive_failures} failed attempts in a row</p>
        )}
      </div>
      <div className="setup-item__actions">
        <button type="button" className="button" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </button>
        {canWrite && (
          <>
            <button type="button" className="button" onClick={() => setEditing((v) => !v)} aria-label={`Edit ${endpoint.url}`}>
              Edit
            </button>
            <button
              type="button"
              className="button"
              disabled={action.busy}
              aria-label={`Rotate the secret of ${endpoint.url}`}
              onClick={() =>
                void action.run(async () => {
                  const rotated = await call(api.POST('/api/my-operator/webhooks/{id}/rotate-secret', path));
                  props.onSecret({ secret: rotated.secret, url: endpoint.url });
                })
              }
            >
              Rotate secret
            </button>
            <ConfirmButton
              armed={confirming}
              busy={action.busy}
              onArm={() => setConfirming(true)}
              onConfirm={() => void action.run(() => call(api.DELETE('/api/my-operator/webhooks/{id}', path)))}
              label="Delete"
              ariaLabel={`Delete ${endpoint.url}`}
              confirmLabel="Really delete"
            />
          </>
        )}
      </div>
      <ErrorNote failure={action.failure} />
      {editing && <EndpointForm endpoint={endpoint} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />}
      {showLog && <DeliveryLog endpointId={endpoint.id} canWrite={canWrite} enabled={endpoint.enabled} />}
    </li>
  );
}
