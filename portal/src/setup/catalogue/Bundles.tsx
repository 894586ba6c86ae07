/** Bundles of paid add-ons (a bottle, a cake) that access rules and profiles offer, with their items. */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey } from '../availability/data';
import { Check, ErrorNote, Field, intOrNull, ItemList, pence, pounds, SetupForm, useSave } from '../availability/kit';
import { useBundles, type Bundle } from './data';

type Item = Bundle['items'][number];

export function Bundles({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const bundles = useBundles(venueId);
  return (
    <ItemList
      title="Bundles"
      noun="bundle"
      items={bundles.data}
      loading={bundles.isPending}
      canWrite={canWrite}
      nameOf={(b) => b.name}
      describe={(b) => (
        <>
          For {b.applicable_profiles.length === 1 ? b.applicable_profiles[0] : 'tables and events'}
          <Items venueId={venueId} bundle={b} canWrite={canWrite} />
        </>
      )}
      form={(item, close) => <BundleForm venueId={venueId} bundle={item} onDone={close} />}
      remove={(b) => call(api.DELETE('/api/my-venues/{venueId}/bundles/{id}', { params: { path: { venueId, id: b.id } } }))}
      keys={[setupKey(venueId, 'bundles')]}
    />
  );
}

function BundleForm({ venueId, bundle, onDone }: { venueId: string; bundle: Bundle | null; onDone: () => void }) {
  const [name, setName] = useState(bundle?.name ?? '');
  const [tables, setTables] = useState(bundle ? bundle.applicable_profiles.includes('tables') : true);
  const [events, setEvents] = useState(bundle ? bundle.applicable_profiles.includes('events') : true);
  const save = useSave([setupKey(venueId, 'bundles')]);
  const submit = () =>
    save.run(() => {
      const profiles = [...(tables ? ['tables' as const] : []), ...(events ? ['events' as const] : [])];
      const body = { name, applicable_profiles: profiles.length ? profiles : null };
      return bundle
        ? call(api.PUT('/api/my-venues/{venueId}/bundles/{id}', { params: { path: { venueId, id: bundle.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/bundles', { params: { path: { venueId } }, body }));
    }, onDone);
  return (
    <SetupForm
      label={bundle ? `Edit ${bundle.name}` : 'New bundle'}
      busy={save.busy}
      failure={save.failure}
      submitText={bundle ? 'Save bundle' : 'Add bundle'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} />
        <Check label="For tables" checked={tables} onChange={setTables} />
        <Check label="For events" checked={events} onChange={setEvents} />
      </div>
    </SetupForm>
  );
}

function Items({ venueId, bundle, canWrite }: { venueId: string; bundle: Bundle; canWrite: boolean }) {
  const [adding, setAdding] = useState(false);
  const remove = useSave([setupKey(venueId, 'bundles')]);
  return (
    <div className="bundle-items">
      <ul aria-label={`Items of ${bundle.name}`}>
        {bundle.items.map((item) => (
          <li key={item.id}>
            {item.name} · {pounds(item.price)}
            {item.max_qty ? ` · up to ${item.max_qty}` : ''}{' '}
            {canWrite && (
              <button
                type="button"
                className="link"
                aria-label={`Remove ${item.name} from ${bundle.name}`}
                onClick={() =>
                  void remove.run(() =>
                    call(
                      api.DELETE('/api/my-venues/{venueId}/bundles/{id}/items/{itemId}', {
                        params: { path: { venueId, id: bundle.id, itemId: item.id } },
                      }),
                    ),
                  )
                }
              >
                Remove
              </button>
            )}
          </li>
        ))}
        {bundle.items.length === 0 && <li className="muted">No items yet.</li>}
      </ul>
      <ErrorNote failure={remove.failure} />
      {canWrite &&
        (adding ? (
          <ItemForm venueId={venueId} bundle={bundle} item={null} onDone={() => setAdding(false)} />
        ) : (
          <button type="button" className="button" onClick={() => setAdding(true)} aria-label={`Add an item to ${bundle.name}`}>
            Add item
          </button>
        ))}
    </div>
  );
}

function ItemForm(props: { venueId: string; bundle: Bundle; item: Item | null; onDone: () => void }) {
  const { venueId, bundle } = props;
  const [name, setName] = useState(props.item?.name ?? '');
  const [price, setPrice] = useState(props.item ? (props.item.price / 100).toFixed(2) : '');
  const [max, setMax] = useState(String(props.item?.max_qty ?? ''));
  const save = useSave([setupKey(venueId, 'bundles')]);
  const submit = () =>
    save.run(
      () =>
        call(
          api.POST('/api/my-venues/{venueId}/bundles/{id}/items', {
            params: { path: { venueId, id: bundle.id } },
            body: { name, price: pence(price, 'Price'), max_qty: intOrNull(max, 'Most per booking') },
          }),
        ),
      props.onDone,
    );
  return (
    <SetupForm
      label={`New item of ${bundle.name}`}
      busy={save.busy}
      failure={save.failure}
      submitText="Add item"
      onSubmit={() => void submit()}
      onCancel={props.onDone}
    >
      <div className="row-fields">
        <Field label="Item" value={name} onChange={setName} />
        <Field label="Price (£)" short inputMode="decimal" value={price} onChange={setPrice} />
        <Field label="Most per booking" short inputMode="numeric" value={max} onChange={setMax} />
      </div>
    </SetupForm>
  );
}
