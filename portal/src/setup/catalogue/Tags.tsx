/**
 * Tag catalogues, guest (CRM labels) and reservation (booking labels): the platform's and the account's
 * categories and tags (read-only here), the venue's own, and each category's flags.
 */
import { useId, useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey } from '../availability/data';
import { Check, Choice, ErrorNote, Field, SetupForm, useSave } from '../availability/kit';
import { useTagCatalogue } from './data';

type Kind = 'guest' | 'reservation';

export function Tags({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  return (
    <>
      <TagKind venueId={venueId} kind="reservation" title="Reservation tags" canWrite={canWrite} />
      <TagKind venueId={venueId} kind="guest" title="Guest tags" canWrite={canWrite} />
    </>
  );
}

function TagKind({ venueId, kind, title, canWrite }: { venueId: string; kind: Kind; title: string; canWrite: boolean }) {
  const catalogue = useTagCatalogue(venueId, kind);
  const save = useSave([setupKey(venueId, `tags-${kind}`)]);
  const [form, setForm] = useState<'tag' | 'category' | null>(null);
  const headingId = useId();
  const categories = catalogue.data ?? [];
  const flag = (name: string, key: 'allow_guest_select' | 'show_on_slip' | 'show_in_summary', value: boolean) =>
    save.run(() =>
      call(api.PATCH('/api/my-venues/{venueId}/tag-categories', { params: { path: { venueId } }, body: { kind, name, [key]: value } })),
    );
  const removeTag = (category: string, label: string) =>
    save.run(() => call(api.DELETE('/api/my-venues/{venueId}/tags', { params: { path: { venueId }, query: { kind, category, label } } })));

  return (
    <section className="setup-section" aria-labelledby={headingId}>
      <div className="setup-section__head">
        <h2 id={headingId}>{title}</h2>
        {canWrite && (
          <div className="setup-item__actions">
            <button type="button" className="button" onClick={() => setForm('tag')}>
              New {kind} tag
            </button>
            <button type="button" className="button" onClick={() => setForm('category')}>
              New {kind} category
            </button>
          </div>
        )}
      </div>
      {form === 'tag' && <TagForm venueId={venueId} kind={kind} categories={categories.map((c) => c.name)} onDone={() => setForm(null)} />}
      {form === 'category' && <CategoryForm venueId={venueId} kind={kind} onDone={() => setForm(null)} />}
      <ErrorNote failure={save.failure} />
      {catalogue.isPending && <p className="muted">Loading…</p>}
      <ul className="setup-list">
        {categories.map((category) => (
          <li key={category.name} className="setup-item">
            <div className="setup-item__main">
              <strong>{category.name}</strong>{' '}
              <span className="muted">
                {category.scope === 'venue' ? 'this venue’s' : category.scope === 'account' ? 'account-wide' : 'standard'}
              </span>
              <ul className="tag-chips" aria-label={`Tags in ${category.name}`}>
                {category.tags.map((tag) => (
                  <li key={tag.label} className="chip">
                    {tag.label}
                    {canWrite && tag.scope === 'venue' && (
                      <button
                        type="button"
                        className="link"
                        aria-label={`Remove tag ${tag.label}`}
                        onClick={() => void removeTag(category.name, tag.label)}
                      >
                        ×
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </div>
            {canWrite && (
              <fieldset className="setup-days">
                <legend className="visually-hidden">{category.name} shows</legend>
                <Check
                  label="Guests pick"
                  checked={category.allow_guest_select}
                  onChange={(v) => void flag(category.name, 'allow_guest_select', v)}
                />
                <Check label="On the slip" checked={category.show_on_slip} onChange={(v) => void flag(category.name, 'show_on_slip', v)} />
                <Check
                  label="In the summary"
                  checked={category.show_in_summary}
                  onChange={(v) => void flag(category.name, 'show_in_summary', v)}
                />
              </fieldset>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function TagForm(props: { venueId: string; kind: Kind; categories: string[]; onDone: () => void }) {
  const [category, setCategory] = useState(props.categories[0] ?? '');
  const [label, setLabel] = useState('');
  const save = useSave([setupKey(props.venueId, `tags-${props.kind}`)]);
  return (
    <SetupForm
      label={`New ${props.kind} tag`}
      busy={save.busy}
      failure={save.failure}
      submitText="Add tag"
      onSubmit={() =>
        void save.run(
          () =>
            call(
              api.POST('/api/my-venues/{venueId}/tags', {
                params: { path: { venueId: props.venueId } },
                body: { kind: props.kind, category, label },
              }),
            ),
          props.onDone,
        )
      }
      onCancel={props.onDone}
    >
      <div className="row-fields">
        <Choice label="Category" value={category} onChange={setCategory} options={props.categories.map((c) => [c, c] as const)} />
        <Field label="Tag" value={label} onChange={setLabel} />
      </div>
    </SetupForm>
  );
}

function CategoryForm(props: { venueId: string; kind: Kind; onDone: () => void }) {
  const [name, setName] = useState('');
  const save = useSave([setupKey(props.venueId, `tags-${props.kind}`)]);
  return (
    <SetupForm
      label={`New ${props.kind} category`}
      busy={save.busy}
      failure={save.failure}
      submitText="Add category"
      onSubmit={() =>
        void save.run(
          () =>
            call(
              api.POST('/api/my-venues/{venueId}/tag-categories', {
                params: { path: { venueId: props.venueId } },
                body: { kind: props.kind, name },
              }),
            ),
          props.onDone,
        )
      }
      onCancel={props.onDone}
    >
      <Field label="Category" value={name} onChange={setName} />
    </SetupForm>
  );
}
