/** The venue's floors: switch between them, add, rename and delete (a deleted floor's tables stay, off any floor). */
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../../api/client';
import { ConfirmDialog, NameDialog } from './Dialogs';

interface Floor {
  id: string;
  name: string;
  sort_order: number;
}

export function FloorBar(props: {
  venueId: string;
  floors: Floor[];
  current?: Floor;
  onSwitch: (id: string | undefined) => void;
  onChanged: () => Promise<void>;
}) {
  const [open, setOpen] = useState<'new' | 'rename' | 'delete' | null>(null);
  const path = { venueId: props.venueId };
  const current = props.current;
  return (
    <div className="toolbar fp-floors">
      {props.floors.length > 0 && (
        <nav className="segmented" aria-label="Floors">
          {props.floors.map((floor) => (
            <button
              key={floor.id}
              type="button"
              className="segmented__item"
              aria-current={floor.id === current?.id ? 'page' : undefined}
              onClick={() => props.onSwitch(floor.id)}
            >
              {floor.name}
            </button>
          ))}
        </nav>
      )}
      <Button className="button" onPress={() => setOpen('new')}>
        New floor…
      </Button>
      {current && (
        <>
          <Button className="button" onPress={() => setOpen('rename')}>
            Rename floor…
          </Button>
          <Button className="button button--danger" onPress={() => setOpen('delete')}>
            Delete floor…
          </Button>
        </>
      )}
      {open === 'new' && (
        <NameDialog
          title="New floor"
          label="Floor name"
          action="Add floor"
          onClose={() => setOpen(null)}
          onSubmit={async (name) => {
            const sort = Math.max(-1, ...props.floors.map((f) => f.sort_order)) + 1;
            const { id } = await call(api.POST('/api/my-venues/{venueId}/floors', { params: { path }, body: { name, sort_order: sort } }));
            await props.onChanged();
            props.onSwitch(id);
          }}
        />
      )}
      {open === 'rename' && current && (
        <NameDialog
          title={`Rename ${current.name}`}
          label="Floor name"
          initial={current.name}
          action="Rename"
          onClose={() => setOpen(null)}
          onSubmit={async (name) => {
            await call(api.PUT('/api/my-venues/{venueId}/floors/{id}', { params: { path: { ...path, id: current.id } }, body: { name } }));
            await props.onChanged();
          }}
        />
      )}
      {open === 'delete' && current && (
        <ConfirmDialog
          title={`Delete ${current.name}?`}
          text="Its tables are not deleted: they leave the floor plan and keep their bookings."
          action="Delete floor"
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await call(api.DELETE('/api/my-venues/{venueId}/floors/{id}', { params: { path: { ...path, id: current.id } } }));
            props.onSwitch(undefined);
            await props.onChanged();
          }}
        />
      )}
    </div>
  );
}
