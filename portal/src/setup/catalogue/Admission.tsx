/**
 * Admission groups and their rules (guest-list profiles point at a group): each rule's conditions
 * (guest tags, past bookings, connections) and actions (a discount, auto-approval, extra guests).
 */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { setupKey } from '../availability/data';
import { Check, ErrorNote, Field, intOrNull, ItemList, SetupForm, useSave } from '../availability/kit';
import { useAdmissionGroups, type AdmissionGroup } from './data';

type Rule = AdmissionGroup['rules'][number];

function ruleWords(r: Rule) {
  const when = [
    r.cond_tags_enabled && r.cond_tags.length && `tagged ${r.cond_tags.join(' or ')}`,
    r.cond_bookings_enabled && r.cond_bookings_min != null && `${r.cond_bookings_min}+ bookings`,
    r.cond_connections_enabled && r.cond_connections_min != null && `${r.cond_connections_min}+ connections`,
  ].filter(Boolean);
  const then = [
    r.act_discount_enabled && r.act_discount_pct != null && `${r.act_discount_pct}% off`,
    r.act_autoapprove_enabled && 'approved at once',
    r.act_maxplus_enabled && r.act_maxplus != null && `+${r.act_maxplus} guests`,
  ].filter(Boolean);
  return `${when.length ? `When ${when.join(', ')}` : 'Everyone'}: ${then.length ? then.join(', ') : 'nothing'}`;
}

export function Admission({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const groups = useAdmissionGroups(venueId);
  const keys = [setupKey(venueId, 'admission-groups')];
  return (
    <ItemList
      title="Admission rules"
      noun="admission group"
      items={groups.data}
      loading={groups.isPending}
      canWrite={canWrite}
      nameOf={(g) => g.name}
      describe={(g) => <Rules venueId={venueId} group={g} canWrite={canWrite} />}
      form={(group, close) => <GroupForm venueId={venueId} group={group} onDone={close} />}
      remove={(g) => call(api.DELETE('/api/my-venues/{venueId}/admission-groups/{gid}', { params: { path: { venueId, gid: g.id } } }))}
      keys={[...keys, setupKey(venueId, 'list-profiles')]}
    />
  );
}

function GroupForm({ venueId, group, onDone }: { venueId: string; group: AdmissionGroup | null; onDone: () => void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [order, setOrder] = useState(String(group?.sort_order ?? '0'));
  const save = useSave([setupKey(venueId, 'admission-groups')]);
  const submit = () =>
    save.run(() => {
      const body = { name, sort_order: intOrNull(order, 'Order') ?? 0 };
      return group
        ? call(api.PUT('/api/my-venues/{venueId}/admission-groups/{gid}', { params: { path: { venueId, gid: group.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/admission-groups', { params: { path: { venueId } }, body }));
    }, onDone);
  return (
    <SetupForm
      label={group ? `Edit ${group.name}` : 'New admission group'}
      busy={save.busy}
      failure={save.failure}
      submitText={group ? 'Save group' : 'Add group'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="row-fields">
        <Field label="Group name" value={name} onChange={setName} />
        <Field label="Order" short inputMode="numeric" value={order} onChange={setOrder} />
      </div>
    </SetupForm>
  );
}

function Rules({ venueId, group, canWrite }: { venueId: string; group: AdmissionGroup; canWrite: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  const remove = useSave([setupKey(venueId, 'admission-groups')]);
  return (
    <div className="bundle-items">
      <ul aria-label={`Rules of ${group.name}`}>
        {group.rules.map((rule) =>
          editing === rule.id ? (
            <li key={rule.id}>
              <RuleForm venueId={venueId} group={group} rule={rule} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <li key={rule.id}>
              <strong>{rule.name}</strong> · {ruleWords(rule)}
              {canWrite && (
                <>
                  {' '}
                  <button type="button" className="link" aria-label={`Edit rule ${rule.name}`} onClick={() => setEditing(rule.id)}>
                    Edit
                  </button>{' '}
                  <button
                    type="button"
                    className="link"
                    aria-label={`Remove rule ${rule.name}`}
                    onClick={() =>
                      void remove.run(() =>
                        call(
                          api.DELETE('/api/my-venues/{venueId}/admission-groups/{gid}/rules/{id}', {
                            params: { path: { venueId, gid: group.id, id: rule.id } },
                          }),
                        ),
                      )
                    }
                  >
                    Remove
                  </button>
                </>
              )}
            </li>
          ),
        )}
        {group.rules.length === 0 && <li className="muted">No rules yet.</li>}
      </ul>
      <ErrorNote failure={remove.failure} />
      {canWrite &&
        (editing === 'new' ? (
          <RuleForm venueId={venueId} group={group} rule={null} onDone={() => setEditing(null)} />
        ) : (
          <button type="button" className="button" onClick={() => setEditing('new')} aria-label={`Add a rule to ${group.name}`}>
            Add rule
          </button>
        ))}
    </div>
  );
}

function RuleForm(props: { venueId: string; group: AdmissionGroup; rule: Rule | null; onDone: () => void }) {
  const { venueId, group, rule } = props;
  const [name, setName] = useState(rule?.name ?? '');
  const [tagsOn, setTagsOn] = useState(rule?.cond_tags_enabled ?? false);
  const [tags, setTags] = useState(rule?.cond_tags.join(', ') ?? '');
  const [bookingsOn, setBookingsOn] = useState(rule?.cond_bookings_enabled ?? false);
  const [bookings, setBookings] = useState(String(rule?.cond_bookings_min ?? ''));
  const [discountOn, setDiscountOn] = useState(rule?.act_discount_enabled ?? false);
  const [discount, setDiscount] = useState(String(rule?.act_discount_pct ?? ''));
  const [approve, setApprove] = useState(rule?.act_autoapprove_enabled ?? false);
  const [plusOn, setPlusOn] = useState(rule?.act_maxplus_enabled ?? false);
  const [plus, setPlus] = useState(String(rule?.act_maxplus ?? ''));
  const save = useSave([setupKey(venueId, 'admission-groups')]);
  const submit = () =>
    save.run(() => {
      const body = {
        name,
        cond_tags_enabled: tagsOn,
        cond_tags: tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
        cond_bookings_enabled: bookingsOn,
        cond_bookings_min: intOrNull(bookings, 'Bookings at least'),
        act_discount_enabled: discountOn,
        act_discount_pct: intOrNull(discount, 'Discount'),
        act_autoapprove_enabled: approve,
        act_maxplus_enabled: plusOn,
        act_maxplus: intOrNull(plus, 'Extra guests'),
      };
      const path = { venueId, gid: group.id };
      return rule
        ? call(api.PUT('/api/my-venues/{venueId}/admission-groups/{gid}/rules/{id}', { params: { path: { ...path, id: rule.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/admission-groups/{gid}/rules', { params: { path }, body }));
    }, props.onDone);
  return (
    <SetupForm
      label={rule ? `Edit rule ${rule.name}` : `New rule of ${group.name}`}
      busy={save.busy}
      failure={save.failure}
      submitText={rule ? 'Save rule' : 'Add rule'}
      onSubmit={() => void submit()}
      onCancel={props.onDone}
    >
      <Field label="Rule name" value={name} onChange={setName} />
      <div className="row-fields">
        <Check label="Guests with tags" checked={tagsOn} onChange={setTagsOn} />
        {tagsOn && <Field label="Tags (comma-separated)" value={tags} onChange={setTags} />}
        <Check label="Past bookings" checked={bookingsOn} onChange={setBookingsOn} />
        {bookingsOn && <Field label="Bookings at least" short inputMode="numeric" value={bookings} onChange={setBookings} />}
      </div>
      <div className="row-fields">
        <Check label="Discount" checked={discountOn} onChange={setDiscountOn} />
        {discountOn && <Field label="Discount (%)" short inputMode="numeric" value={discount} onChange={setDiscount} />}
        <Check label="Approve at once" checked={approve} onChange={setApprove} />
        <Check label="Extra guests" checked={plusOn} onChange={setPlusOn} />
        {plusOn && <Field label="Extra guests" short inputMode="numeric" value={plus} onChange={setPlus} />}
      </div>
    </SetupForm>
  );
}
