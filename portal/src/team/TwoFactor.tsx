/**
 * Two-factor authentication for the signed-in user: set-up shows the authenticator QR code (and the
 * secret, to type in instead) and turns it on with a first code; a current code turns it off. Turning it
 * on or off signs the user out of their other devices.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { api, call } from '../api/client';
import { ErrorNote, Field, FormError, useSave } from '../setup/availability/kit';
import { useSession } from '../shell/account';
import { useTwoFactor } from './data';

type Setup = { secret: string; otpauth_url: string; qr_code: string };

const sixDigits = (code: string) => {
  const trimmed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(trimmed)) throw new FormError('Enter the 6-digit code from your authenticator app');
  return trimmed;
};

export function TwoFactor() {
  const status = useTwoFactor();
  const { session } = useSession();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const start = useSave([]);
  const confirm = useSave([['two-factor', session?.user.id]]);
  const headingId = useId();
  const qrHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (setup) qrHeading.current?.focus();
  }, [setup]);
  const enabled = status.data?.enabled;

  return (
    <section className="setup-section" aria-labelledby={headingId} id="two-factor">
      <h2 id={headingId}>Your two-factor sign-in</h2>
      <p className="muted">
        With two-factor on, signing in as {session?.user.email} also asks for a code from an authenticator app on your phone.
      </p>
      {status.isPending && <p className="muted">Loading…</p>}
      <ErrorNote failure={status.error ? { text: status.error.message } : null} />
      <div aria-live="polite">{done && <p className="team-ok">{done}</p>}</div>
      {enabled === false && !setup && (
        <>
          <p>
            Two-factor is <strong>off</strong>.
          </p>
          <button
            type="button"
            className="button button--primary"
            disabled={start.busy}
            onClick={() =>
              void start.run(async () => {
                setDone(null);
                setSetup(await call(api.POST('/api/2fa/setup')));
              })
            }
          >
            Set up two-factor
          </button>
          <ErrorNote failure={start.failure} />
        </>
      )}
      {enabled === false && setup && (
        <form
          className="setup-form team-2fa"
          aria-label="Confirm two-factor"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm.run(
              () => call(api.POST('/api/2fa/enable', { body: { code: sixDigits(code) } })),
              () => {
                setSetup(null);
                setCode('');
                setDone('Two-factor is on. Your other devices were signed out.');
              },
            );
          }}
        >
          <h3 ref={qrHeading} tabIndex={-1}>
            Scan this code with your authenticator app
          </h3>
          <div className="team-2fa__body">
            <img
              className="team-2fa__qr"
              src={setup.qr_code}
              width={200}
              height={200}
              alt="QR code to add Maitred to your authenticator app"
            />
            <div>
              <p>Or type this key into the app:</p>
              <p>
                <code className="team-2fa__secret" aria-label="Set-up key">
                  {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
                </code>
              </p>
              <p>
                <a href={setup.otpauth_url}>Open in an authenticator app on this device</a>
              </p>
              <Field label="Code from the app" value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" short />
            </div>
          </div>
          <ErrorNote failure={confirm.failure} />
          <div className="setup-form__actions">
            <button type="submit" className="button button--primary" disabled={confirm.busy}>
              Turn on two-factor
            </button>
            <button type="button" className="button" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {enabled === true && (
        <form
          className="setup-form"
          aria-label="Turn off two-factor"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm.run(
              () => call(api.POST('/api/2fa/disable', { body: { code: sixDigits(code) } })),
              () => {
                setCode('');
                setDone('Two-factor is off. Your other devices were signed out.');
              },
            );
          }}
        >
          <p>
            Two-factor is <strong>on</strong>. To turn it off, enter a current code from your app.
          </p>
          <Field label="Current code" value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" short />
          <ErrorNote failure={confirm.failure} />
          <div className="setup-form__actions">
            <button type="submit" className="button button--danger" disabled={confirm.busy}>
              Turn off two-factor
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
