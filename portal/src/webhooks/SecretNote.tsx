/** A signing secret shown once (after registering or rotating), with a copy button. */
import { useState } from 'react';

export function SecretNote(props: { secret: string; url: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="webhooks-secret" role="status" aria-label="Signing secret">
      <p>
        <strong>Signing secret for {props.url}</strong> — copy it now: it is not shown again.
      </p>
      <code className="webhooks-secret__value">{props.secret}</code>
      <div className="setup-form__actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard?.writeText(props.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy secret'}
        </button>
        <button type="button" className="button button--quiet" onClick={props.onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
