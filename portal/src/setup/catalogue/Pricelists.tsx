/**
 * Price lists: a price per guest for every table (the deposit or card hold of a policy that asks for
 * one), with per-table overrides; an empty override falls back to the list's price.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey, usePricelists } from '../availability/data';
import { ErrorNote, Field, ItemList, pence, pounds, SetupForm, useSave } from '../availability/kit';

type Pricelist = NonNullable<ReturnType<typeof usePricelists>['data']>[number];

function useTables(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'tables'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/tables', { params: { path: { venueId } } }))).data,
  });
}

export function Pricelists({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const lists = usePricelists(venueId);
  const [overriding, setOverriding] = useState<string | null>(null);
  const open = lists.data?.find((l) => l.id === overriding);
  return (
    <>
      <ItemList
        title="Price lists"
        noun="price list"
        items={lists.data}
        loading={lists.isPending}
        canWrite={canWrite}
        nameOf={(l) => l.name}
        describe={(l) =>
          `${pounds(l.default_price_pence)} a guest${l.table_prices.length ? ` · ${l.table_prices.map((t) => `table ${t.table_number} ${pounds(t.price_pence)}`).join(', ')}` : ''}`
        }
        extra={(l) => (
          <button type="button" className="button" onClick={() => setOverriding(l.id)} aria-label={`Table prices of ${l.name}`}>
            Table prices
          </button>
        )}
        form={(item, close) => <PricelistForm venueId={venueId} list={item} onDone={close} />}
        remove={(l) => call(api.DELETE('/api/my-venues/{venueId}/pricelists/{id}', { params: { path: { venueId, id: l.id } } }))}
        keys={[setupKey(venueId, 'pricelists'), setupKey(venueId, 'access-rules')]}
      />
      {open && <Overrides venueId={venueId} list={open} onClose={() => setOverriding(null)} />}
    </>
  );
}

function PricelistForm({ venueId, list, onDone }: { venueId: string; list: Pricelist | null; onDone: () => void }) {
  const [name, setName] = useState(list?.name ?? '');
  const [price, setPrice] = useState(list ? (list.default_price_pence / 100).toFixed(2) : '');
  const save = useSave([setupKey(venueId, 'pricelists')]);
  const submit = () =>
    save.run(() => {
      const body = { name, default_price_pence: pence(price || '0', 'Price a guest') };
      return list
        ? call(api.PUT('/api/my-venues/{venueId}/pricelists/{id}', { params: { path: { venueId, id: list.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/pricelists', { params: { path: { venueId } }, body }));
    }, onDone);
  return (
    <SetupForm
      label={list ? `Edit ${list.name}` : 'New price list'}
      busy={save.busy}
      failure={save.failure}
      submitText={list ? 'Save price list' : 'Add price list'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        <Field label="Price a guest (£)" short inputMode="decimal" value={price} onChange={setPrice} />
      </div>
    </SetupForm>
  );
}

/** One row per table: its own price, or empty for the list's; each saved on its own. */
function Overrides({ venueId, list, onClose }: { venueId: string; list: Pricelist; onClose: () => void }) {
  const tables = useTables(venueId);
  const save = useSave([setupKey(venueId, 'pricelists')]);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const current = (tableId: string) => list.table_prices.find((t) => t.table_id === tableId);
  const setPrice = (tableId: string, text: string) =>
    save.run(() =>
      call(
        api.PUT('/api/my-venues/{venueId}/pricelists/{id}/tables/{tableId}', {
          params: { path: { venueId, id: list.id, tableId } },
          body: { price_pence: text.trim() === '' ? null : pence(text, 'Table price') },
        }),
      ),
    );
  return (
    <section className="setup-section" aria-labelledby="overrides-heading">
      <div className="setup-section__head">
        <h2 id="overrides-heading">Table prices of {list.name}</h2>
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      </div>
      <p className="muted">Empty: the list’s {pounds(list.default_price_pence)} a guest.</p>
      <ErrorNote failure={save.failure} />
      <div className="override-grid">
        {tables.data?.map((table) => {
          const own = current(table.id);
          const value = typed[table.id] ?? (own ? (own.price_pence / 100).toFixed(2) : '');
          return (
            <form
              key={table.id}
              className="override"
              onSubmit={(e) => {
                e.preventDefault();
                void setPrice(table.id, value);
              }}
            >
              <Field
                label={`Table ${table.table_number} (£)`}
                short
                inputMode="decimal"
                value={value}
                onChange={(text) => setTyped((t) => ({ ...t, [table.id]: text }))}
              />
              <button type="submit" className="button" disabled={save.busy} aria-label={`Save table ${table.table_number} price`}>
                Save
              </button>
            </form>
          );
        })}
      </div>
    </section>
  );
}
