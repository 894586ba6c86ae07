/**
 * Copy one settings scope from another of the account's venues (POST /copy-from): it overwrites this
 * venue's settings of that scope, so it is asked twice and says how many rows were copied.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { useVenues } from '../../shell/account';
import { Choice, SetupForm, useSave } from '../availability/kit';

const SCOPES = [
  ['payment-policies', 'Payment policies'],
  ['access-profiles', 'Profiles'],
  ['admission-rules', 'Admission rules'],
  ['bundles', 'Bundles'],
  ['promo-codes', 'Promo codes'],
  ['reservation-tags', 'Reservation tags'],
  ['client-tags', 'Guest tags'],
  ['shifts', 'Shifts'],
  ['access-rules', 'Access rules'],
  ['availability', 'All availability (periods, shifts, rules, blackouts)'],
  ['tables', 'Tables and floors'],
  ['queue', 'Queue settings'],
] as const;

export function CopyFrom({ venueId }: { venueId: string }) {
  const others = (useVenues().data ?? []).filter((v) => v.id !== venueId);
  const client = useQueryClient();
  const [source, setSource] = useState(others[0]?.id ?? '');
  const [scope, setScope] = useState<string>('payment-policies');
  const [sure, setSure] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const save = useSave([]);
  const from = others.find((v) => v.id === source);
  const scopeName = SCOPES.find(([s]) => s === scope)?.[1] ?? scope;

  async function copy() {
    setDone(null);
    let copied = 0;
    const ok = await save.run(async () => {
      copied = (
        await call(
          api.POST('/api/my-venues/{venueId}/copy-from', { params: { path: { venueId } }, body: { source_venue_id: source, scope } }),
        )
      ).copied;
      await client.invalidateQueries({ queryKey: ['setup', venueId] });
    });
    setSure(false);
    if (ok) setDone(`Copied ${copied} item${copied === 1 ? '' : 's'} of ${scopeName} from ${from?.name ?? 'the other venue'}.`);
  }

  return (
    <section className="setup-section" aria-labelledby="copy-heading">
      <h2 id="copy-heading">Copy from another venue</h2>
      {others.length === 0 ? (
        <p className="muted">There is no other venue on this account to copy from.</p>
      ) : (
        <SetupForm
          label="Copy from another venue"
          busy={save.busy}
          failure={save.failure}
          submitText={sure ? `Yes, replace this venue’s ${scopeName}` : 'Copy'}
          onSubmit={() => (sure ? void copy() : setSure(true))}
          onCancel={sure ? () => setSure(false) : undefined}
        >
          <div className="row-fields">
            <Choice label="From venue" value={source} onChange={setSource} options={others.map((v) => [v.id, v.name] as const)} />
            <Choice label="What" value={scope} onChange={setScope} options={SCOPES} />
          </div>
          {sure && (
            <p className="notice" role="alert">
              This replaces this venue’s {scopeName} with those of {from?.name}.
            </p>
          )}
        </SetupForm>
      )}
      <p aria-live="polite" className="notice--ok-text">
        {done}
      </p>
    </section>
  );
}
