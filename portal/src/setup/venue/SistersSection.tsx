/**
 * Sister venues (`GET/POST/DELETE /api/my-venues/:id/sisters`): venues of the account linked both ways,
 * which share gift vouchers. The candidates are the account's other venues (`GET /api/my-venues`).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../../api/client';
import { LiveNotice } from '../../shell/Notice';
import { messageOf, setupKey, type VenueRecord } from './data';
import { Choice } from './fields';

export function SistersSection({ venue, disabled }: { venue: VenueRecord; disabled: boolean }) {
  const params = { params: { path: { id: venue.id } } };
  const sisters = useQuery({
    queryKey: [...setupKey(venue.id), 'sisters'],
    queryFn: () => call(api.GET('/api/my-venues/{id}/sisters', params)),
  });
  const venues = useQuery({ queryKey: ['setup', 'all-venues'], queryFn: () => call(api.GET('/api/my-venues')) });
  const [chosen, setChosen] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const linked = new Set((sisters.data?.data ?? []).map((sister) => sister.id));
  const candidates = (venues.data?.data ?? []).filter((other) => other.id !== venue.id && !linked.has(other.id));

  async function act(change: () => Promise<unknown>, done: string) {
    setBusy(true);
    setResult(null);
    try {
      await change();
      await sisters.refetch();
      setResult({ ok: true, text: done });
      setChosen('');
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  const link = (id: string) =>
    act(
      () => call(api.POST('/api/my-venues/{id}/sisters', { ...params, body: { sister_venue_id: id } })),
      `Linked ${candidates.find((c) => c.id === id)?.name ?? 'the venue'}.`,
    );
  const unlink = (id: string, name: string) =>
    act(
      () => call(api.DELETE('/api/my-venues/{id}/sisters/{sisterId}', { params: { path: { id: venue.id, sisterId: id } } })),
      `Unlinked ${name}.`,
    );

  return (
    <section id="sisters" className="panel setup__panel" aria-labelledby="sisters-title">
      <h2 id="sisters-title">Sister venues</h2>
      <p className="muted">Linked venues share gift vouchers: a voucher bought at one can be redeemed at the other.</p>
      {(sisters.error ?? venues.error) && (
        <p className="error" role="alert">
          {messageOf(sisters.error ?? venues.error)}
        </p>
      )}
      {sisters.data && sisters.data.data.length === 0 && <p>No sister venues yet.</p>}
      {sisters.data && sisters.data.data.length > 0 && (
        <ul className="sisters">
          {sisters.data.data.map((sister) => (
            <li key={sister.id} className="sisters__item">
              <span>
                <strong>{sister.name}</strong> <span className="muted">{sister.address}</span>
              </span>
              {!disabled && (
                <Button
                  className="button button--danger"
                  isDisabled={busy}
                  aria-label={`Unlink ${sister.name}`}
                  onPress={() => void unlink(sister.id, sister.name)}
                >
                  Unlink
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!disabled && candidates.length > 0 && (
        <form
          className="row-fields"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) void link(chosen);
          }}
        >
          <Choice
            label="Link another venue"
            value={chosen}
            onChange={setChosen}
            options={[['', 'Choose a venue'] as const, ...candidates.map((c) => [c.id, c.name] as const)]}
          />
          <Button type="submit" className="button" isDisabled={busy || !chosen}>
            Link
          </Button>
        </form>
      )}
      {!disabled && venues.data && candidates.length === 0 && linked.size === 0 && (
        <p className="muted">Your account has no other venue to link yet.</p>
      )}
      <LiveNotice result={result} />
    </section>
  );
}
