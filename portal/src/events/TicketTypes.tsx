/**
 * An event's ticket types: name, price (pounds, kept in pence), how many (empty: unlimited), the most one
 * order may take, and the order they are offered in; each shows how many are sold. Add, edit and delete
 * need `events` write (the server refuses a capacity below what is sold, or deleting a type with sales).
 */
import { useState } from 'react';
import { api, call } from '../api/client';
import { Choice, Field, intOrNull, ItemList, pence, pounds, SetupForm, useSave } from '../setup/availability/kit';
import { eventKey, useTicketLinks, useTicketTypes, type TicketType } from './data';

export function TicketTypes(props: { eventId: string; venueId: string; canWrite: boolean; canReadProfiles: boolean }) {
  const { eventId, canWrite } = props;
  const types = useTicketTypes(eventId);
  const links = useTicketLinks(props.venueId, props.canReadProfiles && canWrite);
  return (
    <ItemList
      title="Ticket types"
      noun="ticket type"
      items={types.data}
      loading={types.isPending}
      canWrite={canWrite}
      nameOf={(type) => type.name}
      describe={(type) =>
        `${type.price_pence === 0 ? 'Free' : pounds(type.price_pence)} · ${type.sold} sold${
          type.capacity == null ? ' · unlimited' : ` of ${type.capacity}`
        } · up to ${type.max_per_order} per order`
      }
      intro={canWrite ? null : <p className="muted">Your role may look at the ticket types but not change them.</p>}
      form={(item, close) => <TicketForm eventId={eventId} type={item} count={types.data?.length ?? 0} links={links.data} onDone={close} />}
      remove={(type) =>
        call(api.DELETE('/api/my-events/{eventId}/ticket-types/{ticketId}', { params: { path: { eventId, ticketId: type.id } } }))
      }
      keys={[eventKey(eventId)]}
    />
  );
}

function TicketForm(props: {
  eventId: string;
  type: TicketType | null;
  count: number;
  links: ReturnType<typeof useTicketLinks>['data'];
  onDone: () => void;
}) {
  const { eventId, type, count, links, onDone } = props;
  const [profile, setProfile] = useState(type?.ticket_profile_id ?? '');
  const [group, setGroup] = useState(type?.admission_rule_group_id ?? '');
  const [name, setName] = useState(type?.name ?? '');
  const [price, setPrice] = useState(type ? (type.price_pence / 100).toFixed(2) : '');
  const [capacity, setCapacity] = useState(type?.capacity == null ? '' : String(type.capacity));
  const [perOrder, setPerOrder] = useState(String(type?.max_per_order ?? 10));
  const [order, setOrder] = useState(String(type?.sort_order ?? count));
  const save = useSave([eventKey(eventId)]);
  const submit = () =>
    save.run(() => {
      const body = {
        name: name.trim(),
        price_pence: price.trim() === '' ? 0 : pence(price, 'Price'),
        capacity: intOrNull(capacity, 'How many'),
        max_per_order: intOrNull(perOrder, 'Most per order') ?? 10,
        sort_order: intOrNull(order, 'Position') ?? 0,
        // Without the catalogue to choose from (no `profiles` read), the links are left as they are.
        ...(links ? { ticket_profile_id: profile || null, admission_rule_group_id: group || null } : {}),
      };
      return type
        ? call(api.PUT('/api/my-events/{eventId}/ticket-types/{ticketId}', { params: { path: { eventId, ticketId: type.id } }, body }))
        : call(api.POST('/api/my-events/{eventId}/ticket-types', { params: { path: { eventId } }, body }));
    }, onDone);
  return (
    <SetupForm
      label={type ? `Edit ${type.name}` : 'New ticket type'}
      busy={save.busy}
      failure={save.failure}
      submitText={type ? 'Save ticket type' : 'Add ticket type'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Ticket name" value={name} onChange={setName} required maxLength={200} />
        <Field label="Price (£)" short inputMode="decimal" placeholder="0.00" value={price} onChange={setPrice} />
        <Field label="How many (empty: unlimited)" short inputMode="numeric" value={capacity} onChange={setCapacity} />
        <Field label="Most per order" short inputMode="numeric" value={perOrder} onChange={setPerOrder} />
        <Field label="Position" short inputMode="numeric" value={order} onChange={setOrder} />
      </div>
      {links && (
        <div className="row-fields">
          <Choice
            label="Ticket profile"
            value={profile}
            onChange={setProfile}
            options={[['', 'None'], ...links.profiles.map((p) => [p.id, p.name] as const)]}
          />
          <Choice
            label="Admission rules"
            value={group}
            onChange={setGroup}
            options={[['', 'None'], ...links.groups.map((g) => [g.id, g.name] as const)]}
          />
        </div>
      )}
    </SetupForm>
  );
}
