/** The venue's seating areas: add, rename and delete (its tables are detached, not deleted). */
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../../api/client';
import { ConfirmDialog, NameDialog } from './Dialogs';

type Open = { kind: 'new' } | { kind: 'rename' | 'delete'; id: string; name: string } | null;

export function Areas(props: { venueId: string; areas: { id: string; name: string }[]; onChanged: () => Promise<void> }) {
  const [open, setOpen] = useState<Open>(null);
  const path = { venueId: props.venueId };
  return (
    <section aria-labelledby="fp-areas-heading" className="fp-panel">
      <h2 id="fp-areas-heading">Seating areas</h2>
      <ul className="fp-list">
        {props.areas.map((area) => (
          <li key={area.id}>
            <span>{area.name}</span>
            <span>
              <Button
                className="button button--quiet"
                aria-label={`Rename area ${area.name}`}
                onPress={() => setOpen({ kind: 'rename', ...area })}
              >
                Rename
              </Button>
              <Button
                className="button button--quiet"
                aria-label={`Delete area ${area.name}`}
                onPress={() => setOpen({ kind: 'delete', ...area })}
              >
                Delete
              </Button>
            </span>
          </li>
        ))}
      </ul>
      <Button className="button" onPress={() => setOpen({ kind: 'new' })}>
        New area…
      </Button>
      {open?.kind === 'new' && (
        <NameDialog
          title="New seating area"
          label="Name"
          action="Add area"
          onClose={() => setOpen(null)}
          onSubmit={async (name) => {
            await call(api.POST('/api/my-venues/{venueId}/seating-areas', { params: { path }, body: { name } }));
            await props.onChanged();
          }}
        />
      )}
      {open?.kind === 'rename' && (
        <NameDialog
          title={`Rename ${open.name}`}
          label="Name"
          initial={open.name}
          action="Rename"
          onClose={() => setOpen(null)}
          onSubmit={async (name) => {
            await call(
              api.PUT('/api/my-venues/{venueId}/seating-areas/{id}', { params: { path: { ...path, id: open.id } }, body: { name } }),
            );
            await props.onChanged();
          }}
        />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title={`Delete ${open.name}?`}
          text="Its tables stay, without an area."
          action="Delete area"
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await call(api.DELETE('/api/my-venues/{venueId}/seating-areas/{id}', { params: { path: { ...path, id: open.id } } }));
            await props.onChanged();
          }}
        />
      )}
    </section>
  );
}
