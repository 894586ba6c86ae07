/**
 * Memberships (`/memberships`): the tiers the operator account sells to guests (docs/memberships.md),
 * each with its price and period, perks (admission-rule tags), member discount on tickets, whether it
 * is on sale and its running members; create and edit a tier, and delete one (a tier with members is
 * archived instead, as the server decides). Needs `catalogue` read; changes need `catalogue` write
 * (otherwise the page is read-only and says so).
 */
import { useState, type FormEvent } from 'react';
import { useCan } from '../shell/account';
import { LiveNotice } from '../shell/Notice';
import {
  createTier,
  deleteTier,
  messageOf,
  money,
  penceOf,
  periodWords,
  updateTier,
  useRefreshTiers,
  useTiers,
  type Tier,
  type TierInput,
} from './data';
import './memberships.css';

export default function MembershipsPage() {
  const can = useCan();
  if (!can('catalogue', 'read'))
    return (
      <main className="page memberships" id="main">
        <h1>Memberships</h1>
        <p>Your role may not see the membership tiers.</p>
      </main>
    );
  return <Memberships canWrite={can('catalogue', 'write')} />;
}

function Memberships({ canWrite }: { canWrite: boolean }) {
  const tiers = useTiers();
  const refresh = useRefreshTiers();
  /** The tier in the form: null for a new one. */
  const [editing, setEditing] = useState<Tier | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  const edit = (tier: Tier | null) => {
    setEditing(tier);
    setFormKey((k) => k + 1);
    setNote(null);
    document.getElementById('tier-form-title')?.scrollIntoView();
  };

  async function remove(tier: Tier) {
    setNote(null);
    try {
      const result = await deleteTier(tier.id);
      await refresh();
      if (editing?.id === tier.id) edit(null);
      setNote({
        ok: true,
        text: result.archived
          ? `${tier.name} has members, so it was archived: off sale for good, kept for its members until they expire.`
          : `${tier.name} was deleted.`,
      });
    } catch (error) {
      setNote({ ok: false, text: messageOf(error) });
    }
  }

  return (
    <main className="page memberships" id="main">
      <header>
        <h1>Memberships</h1>
        <p className="muted">
          The tiers your venues’ guests can buy. A member carries the tier’s perks as tags for your admission rules and pays the member
          price on tickets while the membership runs.
          {!canWrite && ' Your role may see the tiers but not change them.'}
        </p>
      </header>

      <section className="panel memberships__panel" aria-labelledby="tiers-title">
        <h2 id="tiers-title">Tiers</h2>
        {tiers.error && (
          <p className="error" role="alert">
            {messageOf(tiers.error)}
          </p>
        )}
        {tiers.isPending && <p className="muted">Loading…</p>}
        {tiers.data && tiers.data.length === 0 && <p>No tiers yet.</p>}
        {tiers.data && tiers.data.length > 0 && (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="tiers-title">
            <table className="tiers-table">
              <thead>
                <tr>
                  <th scope="col">Tier</th>
                  <th scope="col" className="num">
                    Price
                  </th>
                  <th scope="col">Perks</th>
                  <th scope="col" className="num">
                    Ticket discount
                  </th>
                  <th scope="col">State</th>
                  <th scope="col" className="num">
                    Members
                  </th>
                  {canWrite && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {tiers.data.map((tier) => (
                  <tr key={tier.id}>
                    <td>
                      <strong>{tier.name}</strong>
                      {tier.description && <div className="muted">{tier.description}</div>}
                    </td>
                    <td className="num">
                      {money(tier.price_pence)} / {periodWords(tier)}
                    </td>
                    <td>
                      {tier.perks.length === 0
                        ? '—'
                        : tier.perks.map((perk) => (
                            <span key={perk} className="perk">
                              {perk}
                            </span>
                          ))}
                    </td>
                    <td className="num">{tier.ticket_discount_pct > 0 ? `${tier.ticket_discount_pct}%` : '—'}</td>
                    <td>
                      <span className={`tier-state tier-state--${tier.archived ? 'archived' : tier.active ? 'on' : 'off'}`}>
                        {tier.archived ? 'Archived' : tier.active ? 'On sale' : 'Not on sale'}
                      </span>
                    </td>
                    <td className="num">{tier.member_count}</td>
                    {canWrite && (
                      <td>
                        {!tier.archived && (
                          <span className="actions">
                            <button type="button" className="button" onClick={() => edit(tier)} aria-label={`Edit ${tier.name}`}>
                              Edit
                            </button>
                            <button type="button" className="button" onClick={() => void remove(tier)} aria-label={`Delete ${tier.name}`}>
                              {tier.member_count > 0 ? 'Archive' : 'Delete'}
                            </button>
                          </span>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <LiveNotice result={note} />
      </section>

      {canWrite && (
        <TierForm
          key={formKey}
          tier={editing}
          onDone={async (text) => {
            await refresh();
            edit(null);
            setNote({ ok: true, text });
          }}
          onCancel={() => edit(null)}
        />
      )}
    </main>
  );
}

function TierForm(props: { tier: Tier | null; onDone: (text: string) => Promise<void>; onCancel: () => void }) {
  const t = props.tier;
  const [name, setName] = useState(t?.name ?? '');
  const [description, setDescription] = useState(t?.description ?? '');
  const [price, setPrice] = useState(t ? (t.price_pence / 100).toFixed(2) : '');
  const [period, setPeriod] = useState<TierInput['period']>((t?.period as TierInput['period']) ?? 'monthly');
  const [days, setDays] = useState(t?.period_days ? String(t.period_days) : '30');
  const [perks, setPerks] = useState(t?.perks.join(', ') ?? '');
  const [discount, setDiscount] = useState(t ? String(t.ticket_discount_pct) : '0');
  const [active, setActive] = useState(t?.active ?? true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function body(): TierInput {
    const pence = penceOf(price);
    if (!name.trim()) throw new Error('Name the tier.');
    if (pence === null) throw new Error('Price must be an amount in pounds, e.g. 25 or 25.50.');
    if (!/^\d+$/.test(discount.trim()) || Number(discount) > 100) throw new Error('Ticket discount must be a whole percent from 0 to 100.');
    if (period === 'days' && !/^\d+$/.test(days.trim())) throw new Error('Days must be a whole number.');
    return {
      name: name.trim(),
      description: description.trim(),
      price_pence: pence,
      period,
      period_days: period === 'days' ? Number(days) : null,
      perks: perks
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
      ticket_discount_pct: Number(discount),
      active,
    };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const sent = body();
      if (t) await updateTier(t.id, sent);
      else await createTier(sent);
      await props.onDone(t ? `${sent.name} saved.` : `${sent.name} created.`);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel memberships__panel" aria-labelledby="tier-form-title" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="tier-form-title">{t ? `Edit ${t.name}` : 'New tier'}</h2>
      {t && <p className="muted">Changes apply to purchases from now on; running memberships keep what was paid for.</p>}
      <fieldset className="plain">
        <div className="row-fields">
          <div className="field field--grow">
            <label htmlFor="tier-name">Name</label>
            <input id="tier-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field field--short">
            <label htmlFor="tier-price">Price (£)</label>
            <input id="tier-price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="tier-period">Every</label>
            <select id="tier-period" value={period} onChange={(e) => setPeriod(e.target.value as TierInput['period'])}>
              <option value="monthly">Month</option>
              <option value="yearly">Year</option>
              <option value="days">Number of days</option>
            </select>
          </div>
          {period === 'days' && (
            <div className="field field--short">
              <label htmlFor="tier-days">Days</label>
              <input id="tier-days" inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
            </div>
          )}
        </div>
        <div className="field">
          <label htmlFor="tier-description">Description</label>
          <textarea id="tier-description" rows={2} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div className="row-fields">
          <div className="field field--grow">
            <label htmlFor="tier-perks">Perks (tags, comma-separated)</label>
            <input id="tier-perks" value={perks} aria-describedby="tier-perks-hint" onChange={(e) => setPerks(e.target.value)} />
            <small id="tier-perks-hint" className="muted">
              Members carry these tags while the membership runs: admission rules with the same tags apply to them.
            </small>
          </div>
          <div className="field field--short">
            <label htmlFor="tier-discount">Ticket discount (%)</label>
            <input id="tier-discount" inputMode="numeric" value={discount} onChange={(e) => setDiscount(e.target.value)} />
          </div>
        </div>
        <label className="choice">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> On sale to guests
        </label>
      </fieldset>
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : t ? 'Save tier' : 'Create tier'}
        </button>
        {t && (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
      <LiveNotice error={error} />
    </form>
  );
}
