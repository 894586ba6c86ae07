/** The open booking: its details, every action its status allows, a "Move…" dialog and its history. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  Heading,
  Input,
  Label,
  Modal,
  ModalOverlay,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  TextField,
} from 'react-aria-components';
import { api, call } from '../api/client';
import { bookingApi, type Change } from './actions';
import type { Table } from './data';
import { STATUS } from './model';
import { addDays, atServiceMinute, clockMinutes, DAY_MINUTES, DAY_START, venueLocal } from './time';

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

export function Drawer(props: {
  bookingId: string;
  venueId: string;
  timeZone: string;
  tables: Table[];
  writable: boolean;
  run: (c: Change) => void;
  onClose: () => void;
}) {
  const { data: b, error } = useQuery({
    queryKey: ['floor', props.venueId, 'booking', props.bookingId],
    queryFn: () => call(api.GET('/api/bookings/{id}', { params: { path: { id: props.bookingId } } })),
  });
  const [ask, setAsk] = useState<null | 'cancel' | 'capture' | 'move' | 'reject'>(null);
  const name = b?.guest_name ?? 'Guest';
  const act = (done: string, run: () => Promise<unknown>, patch?: Change['patch']) =>
    props.run({ bookingId: props.bookingId, done, run, patch });
  const tableNames = (ids: string[]) => ids.map((id) => props.tables.find((t) => t.id === id)?.table_number ?? '?').join('+') || 'none';

  const active = b && ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'].includes(b.status);
  // The visit as the server recorded it: the lifecycle flags (flag → when set) and the table's closing.
  const at = (iso: string | null | undefined) => (iso ? venueLocal(new Date(iso), props.timeZone).time : '');
  const visit = b
    ? [
        b.lifecycle.arrived && b.status !== 'checked_in' && `Arrived ${at(b.lifecycle.arrived)}`,
        b.guest_confirmed_at &&
          `Confirmed by guest ${venueLocal(new Date(b.guest_confirmed_at), props.timeZone).date} ${at(b.guest_confirmed_at)}`,
        b.lifecycle.late && `Marked late ${at(b.lifecycle.late)}`,
        b.checked_in_at && `Checked in ${at(b.checked_in_at)}`,
        b.closed_at && `Closed ${at(b.closed_at)}`,
      ].filter((v): v is string => Boolean(v))
    : [];
  const waiting = b && ['pending', 'approved', 'confirmed'].includes(b.status);
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="drawer-overlay">
      <Modal className="drawer">
        <Dialog className="drawer__dialog" aria-label={b ? `Booking: ${name}` : 'Booking'}>
          <div className="drawer__head">
            <Heading slot="title">{name}</Heading>
            <Button className="button button--quiet" onPress={props.onClose} aria-label="Close">
              ✕
            </Button>
          </div>
          {error && (
            <p className="error" role="alert">
              {error.message}
            </p>
          )}
          {b && (
            <Tabs>
              <TabList aria-label="Booking" className="tabs">
                <Tab id="details" className="tab">
                  Details
                </Tab>
                <Tab id="history" className="tab">
                  History
                </Tab>
              </TabList>
              <TabPanel id="details">
                <p className={`status-badge status-${b.status}`}>
                  <span aria-hidden="true">{STATUS[b.status]?.icon} </span>
                  {STATUS[b.status]?.label ?? b.status}
                  {visit.length > 0 && <span> · {visit.join(' · ')}</span>}
                </p>
                <dl className="facts">
                  <dt>When</dt>
                  <dd>
                    {b.booking_date} {b.start_time ?? ''} {b.duration_minutes ? `(${b.duration_minutes} min)` : ''}
                  </dd>
                  <dt>Covers</dt>
                  <dd>{b.guest_count}</dd>
                  <dt>Tables</dt>
                  <dd>
                    {tableNames(b.table_ids)}
                    {b.table_locked ? ' (locked)' : ''}
                  </dd>
                  <dt>Contact</dt>
                  <dd>{[b.guest_phone, b.guest_email].filter(Boolean).join(' · ') || '—'}</dd>
                  <dt>Reference</dt>
                  <dd>
                    <code>{b.id}</code>
                  </dd>
                  <dt>Source</dt>
                  <dd>{b.source}</dd>
                  {b.deposit_type !== 'none' && (
                    <>
                      <dt>Deposit</dt>
                      <dd>
                        {b.deposit_type} {money(b.deposit_pence)} · {b.payment_status}
                        {b.captured_pence > 0 ? ` · captured ${money(b.captured_pence)}` : ''}
                        {b.refunded_pence > 0 ? ` · refunded ${money(b.refunded_pence)}` : ''}
                      </dd>
                    </>
                  )}
                  {b.notes && (
                    <>
                      <dt>Notes</dt>
                      <dd>{b.notes}</dd>
                    </>
                  )}
                </dl>
                {props.writable && (
                  <div className="actions">
                    {b.status === 'pending' && (
                      <Button
                        className="button button--primary"
                        onPress={() => act(`${name} approved`, () => bookingApi.approve(b.id), { status: 'approved' })}
                      >
                        Approve
                      </Button>
                    )}
                    {(b.status === 'pending' || b.status === 'approved') && (
                      <Button className="button" onPress={() => setAsk('reject')}>
                        Reject…
                      </Button>
                    )}
                    {waiting && (
                      <Button
                        className="button button--primary"
                        onPress={() => act(`${name} seated`, () => bookingApi.status(b.id, 'checked_in', true), { status: 'checked_in' })}
                      >
                        Seat / check in
                      </Button>
                    )}
                    {waiting && !b.lifecycle.arrived && (
                      <Button
                        className="button"
                        onPress={() => act(`${name} marked as arrived, waiting`, () => bookingApi.arrived(b.id, true))}
                      >
                        Arrived, not seated
                      </Button>
                    )}
                    {waiting && (
                      <Button
                        className="button"
                        onPress={() =>
                          b.lifecycle.late
                            ? act(`${name} no longer marked late`, () => bookingApi.late(b.id, false))
                            : act(`${name} marked late`, () => bookingApi.late(b.id, true))
                        }
                      >
                        {b.lifecycle.late ? 'Clear late' : 'Mark late'}
                      </Button>
                    )}
                    {waiting && (
                      <Button
                        className="button"
                        onPress={() =>
                          act(`${name} marked as a no-show`, () => bookingApi.status(b.id, 'no_show', true), { status: 'no_show' })
                        }
                      >
                        No-show
                      </Button>
                    )}
                    {b.status === 'checked_in' && !b.closed_at && (
                      <Button className="button" onPress={() => act(`${name}'s table closed`, () => bookingApi.close(b.id))}>
                        Close table
                      </Button>
                    )}
                    {active && (
                      <Button className="button" onPress={() => setAsk('move')}>
                        Move…
                      </Button>
                    )}
                    {active && (
                      <Button
                        className="button"
                        onPress={() =>
                          act(b.table_locked ? `${name} unlocked` : `${name} locked`, () => bookingApi.lock(b.id, !b.table_locked), {
                            table_locked: !b.table_locked,
                          })
                        }
                      >
                        {b.table_locked ? 'Unlock tables' : 'Lock tables'}
                      </Button>
                    )}
                    {active && !b.table_locked && (
                      <Button
                        className="button"
                        onPress={() => act(`${name} seated at the best free tables`, () => bookingApi.autoAssign(b.id))}
                      >
                        Auto-assign
                      </Button>
                    )}
                    {b.payment_status === 'held' && (
                      <>
                        <Button className="button" onPress={() => setAsk('capture')}>
                          Capture hold…
                        </Button>
                        <Button className="button" onPress={() => act(`${name}'s hold released`, () => bookingApi.release(b.id))}>
                          Release hold
                        </Button>
                      </>
                    )}
                    {active && (b.deposit_type === 'none' || ['none', 'released', 'failed'].includes(b.payment_status)) && (
                      <Button
                        className="button"
                        onPress={() => act(`Card hold requested from ${name}`, () => bookingApi.requestHold(b.id))}
                      >
                        Request deposit
                      </Button>
                    )}
                    {active && (
                      <Button className="button button--danger" onPress={() => setAsk('cancel')}>
                        Cancel…
                      </Button>
                    )}
                  </div>
                )}
              </TabPanel>
              <TabPanel id="history">
                <ol className="history">
                  {[...b.history].reverse().map((h, i) => (
                    <li key={i}>
                      <span className="muted">{h.at.slice(0, 16).replace('T', ' ')} UTC</span>{' '}
                      <strong>{h.action.replace(/_/g, ' ')}</strong>
                      {h.to_status ? ` → ${STATUS[h.to_status]?.label ?? h.to_status}` : ''}{' '}
                      <span className="muted">by {h.actor.name ?? h.actor.kind}</span>
                    </li>
                  ))}
                </ol>
              </TabPanel>
            </Tabs>
          )}
          {b && ask === 'cancel' && (
            <Ask
              title={`Cancel ${name}'s booking`}
              confirm="Cancel booking"
              reason
              refund={b.payment_status !== 'none'}
              onClose={() => setAsk(null)}
              onConfirm={({ reason, refund }) =>
                act(`${name}'s booking cancelled`, () => bookingApi.cancel(b.id, reason, refund), { status: 'cancelled' })
              }
            />
          )}
          {b && ask === 'reject' && (
            <Ask
              title={`Reject ${name}'s booking`}
              confirm="Reject"
              reason
              onClose={() => setAsk(null)}
              onConfirm={({ reason }) =>
                act(
                  `${name}'s booking rejected`,
                  async () => {
                    await bookingApi.reject(b.id);
                    // The reject route takes no reason (an API gap): it is kept in the booking's notes.
                    if (reason) await bookingApi.note(b.id, [b.notes, `Rejected: ${reason}`].filter(Boolean).join('\n'));
                  },
                  { status: 'rejected' },
                )
              }
            />
          )}
          {b && ask === 'capture' && (
            <Ask
              title={`Capture ${name}'s hold of ${money(b.deposit_pence)}`}
              confirm="Capture"
              amount={b.deposit_pence}
              onClose={() => setAsk(null)}
              onConfirm={({ amount }) =>
                act(`Captured ${money(amount ?? b.deposit_pence)} from ${name}`, () => bookingApi.capture(b.id, amount))
              }
            />
          )}
          {b && ask === 'move' && (
            <MoveDialog
              tables={props.tables}
              current={b.table_ids}
              time={b.start_time ?? ''}
              duration={b.duration_minutes ?? 120}
              onClose={() => setAsk(null)}
              onMove={(ids, time, minutes) => {
                const tablesChanged = ids.join() !== b.table_ids.join();
                if (time && time !== b.start_time) {
                  // Time and tables in one call (`move` keeps the length; the tables only when changed).
                  // Within the booking's service day (06:00 → 06:00): 00:30 is the small hours after its evening.
                  const day = b.start_time && clockMinutes(b.start_time) < DAY_START ? addDays(b.booking_date, -1) : b.booking_date;
                  const to = atServiceMinute(day, (clockMinutes(time) - DAY_START + DAY_MINUTES) % DAY_MINUTES);
                  act(
                    `Moved ${name} to ${time}${tablesChanged ? `, table ${tableNames(ids)}` : ''}`,
                    () => bookingApi.move(b.id, to, tablesChanged ? ids : undefined),
                    { booking_date: to.date, start_time: time, ...(tablesChanged ? { table_ids: ids } : {}) },
                  );
                } else if (tablesChanged)
                  act(`Moved ${name} to table ${tableNames(ids)}`, () => bookingApi.assign(b.id, ids), { table_ids: ids });
                if (minutes !== (b.duration_minutes ?? 120))
                  act(`${name} now stays ${minutes} minutes`, () => bookingApi.duration(b.id, minutes), { duration_minutes: minutes });
              }}
            />
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function Ask(props: {
  title: string;
  confirm: string;
  reason?: boolean;
  refund?: boolean;
  amount?: number;
  onClose: () => void;
  onConfirm: (values: { reason: string; refund: boolean; amount?: number }) => void;
}) {
  const [reason, setReason] = useState('');
  const [refund, setRefund] = useState(true);
  const [amount, setAmount] = useState(props.amount ? (props.amount / 100).toFixed(2) : '');
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog>
          <Heading slot="title">{props.title}</Heading>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const pence = amount ? Math.round(Number(amount) * 100) : undefined;
              props.onConfirm({ reason, refund, amount: pence });
              props.onClose();
            }}
          >
            {props.reason && (
              <TextField className="field" value={reason} onChange={setReason}>
                <Label>Reason</Label>
                <Input />
              </TextField>
            )}
            {props.amount !== undefined && (
              <TextField className="field" value={amount} onChange={setAmount} inputMode="decimal">
                <Label>Amount to capture (£)</Label>
                <Input />
              </TextField>
            )}
            {props.refund && (
              <Checkbox isSelected={refund} onChange={setRefund} className="checkbox">
                <span className="checkbox__box" aria-hidden="true" />
                Refund what the guest paid
              </Checkbox>
            )}
            <div className="actions">
              <Button className="button" onPress={props.onClose}>
                Back
              </Button>
              <Button type="submit" className="button button--primary">
                {props.confirm}
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function MoveDialog(props: {
  tables: Table[];
  current: string[];
  time: string;
  duration: number;
  onClose: () => void;
  onMove: (ids: string[], time: string, minutes: number) => void;
}) {
  const [ids, setIds] = useState<string[]>(props.current);
  const [time, setTime] = useState(props.time);
  const [minutes, setMinutes] = useState(String(props.duration));
  const sorted = [...props.tables]
    .filter((t) => t.status === 'active')
    .sort((a, b) => a.table_number.localeCompare(b.table_number, 'en', { numeric: true }));
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog>
          <Heading slot="title">Move booking</Heading>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              props.onMove(ids, time, Math.max(15, Math.round(Number(minutes) / 15) * 15));
              props.onClose();
            }}
          >
            {props.time && (
              <TextField className="field" value={time} onChange={setTime} isRequired>
                <Label>Time</Label>
                <Input type="time" step={900} />
              </TextField>
            )}
            <fieldset className="table-picks">
              <legend>Tables</legend>
              {sorted.map((t) => (
                <Checkbox
                  key={t.id}
                  className="checkbox"
                  isSelected={ids.includes(t.id)}
                  onChange={(on) => setIds(on ? [...ids, t.id] : ids.filter((id) => id !== t.id))}
                >
                  <span className="checkbox__box" aria-hidden="true" />
                  {t.table_number} ({t.capacity})
                </Checkbox>
              ))}
            </fieldset>
            <TextField className="field" value={minutes} onChange={setMinutes} inputMode="numeric">
              <Label>Length (minutes, in steps of 15)</Label>
              <Input />
            </TextField>
            <div className="actions">
              <Button className="button" onPress={props.onClose}>
                Back
              </Button>
              <Button type="submit" className="button button--primary">
                Move
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
