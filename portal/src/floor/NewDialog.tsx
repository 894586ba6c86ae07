/** From an empty cell (or "New…"): a reservation, a walk-in or a block, with a guest search box. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  ComboBox,
  Dialog,
  Heading,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Modal,
  ModalOverlay,
  Popover,
  Radio,
  RadioGroup,
  TextField,
} from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { useCan } from '../shell/account';
import { floorKey, type Table } from './data';
import type { Slot } from './Grid';
import { atServiceMinute, serviceMinute } from './time';

const endOf = (date: string, time: string, minutes: number) => atServiceMinute(date, serviceMinute(date, date, time) + minutes);

type Kind = 'reservation' | 'walk_in' | 'block';

export function NewDialog(props: {
  venueId: string;
  date: string;
  slot: Slot;
  tables: Table[];
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const client = useQueryClient();
  // What the role may not do is not offered: blocks need `tables` write, the guest search `guests` read.
  const can = useCan();
  const start = atServiceMinute(props.date, props.slot.minute);
  const [kind, setKind] = useState<Kind>(props.slot.kind ?? 'reservation');
  const [query, setQuery] = useState('');
  const [guestId, setGuestId] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [covers, setCovers] = useState('2');
  const [date, setDate] = useState(start.date);
  const [time, setTime] = useState(start.time);
  const [minutes, setMinutes] = useState('120');
  const [tableId, setTableId] = useState(props.slot.tableId ?? '');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ text: string; ref?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const search = useQuery({
    queryKey: ['guest-search', props.venueId, query],
    queryFn: () =>
      call(api.GET('/api/my-venues/{venueId}/guests/search', { params: { path: { venueId: props.venueId }, query: { q: query } } })),
    enabled: can('guests', 'read') && kind !== 'block' && query.trim().length >= 2 && !guestId,
    staleTime: 30_000,
  });
  const guests = search.data?.data ?? [];
  const table = props.tables.find((t) => t.id === tableId);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const path = { path: { venueId: props.venueId } };
    try {
      if (kind === 'block') {
        const end = endOf(date, time, Number(minutes));
        await call(
          api.POST('/api/my-venues/{venueId}/tables/block', {
            params: path,
            body: { table_ids: [tableId], from: `${date}T${time}`, to: `${end.date}T${end.time}`, reason: reason || null },
          }),
        );
        props.onDone(`Table ${table?.table_number ?? ''} blocked from ${time}`);
      } else {
        const guest = guestId ? { user_id: guestId } : { guest_name: query.trim(), guest_phone: phone || null };
        const body = {
          party_size: Number(covers),
          table_ids: tableId ? [tableId] : [],
          duration_minutes: Number(minutes),
          ...guest,
          ...(kind === 'walk_in' ? { walk_in: true } : { date, time, status: 'confirmed' as const }),
        };
        await call(api.POST('/api/my-venues/{venueId}/staff-bookings', { params: path, body }));
        props.onDone(kind === 'walk_in' ? `Walk-in of ${covers} seated` : `Booked ${query.trim() || 'the guest'} for ${covers} at ${time}`);
      }
      await client.invalidateQueries({ queryKey: floorKey(props.venueId) });
    } catch (caught) {
      setError(caught instanceof ApiError ? { text: caught.message, ref: caught.requestId } : { text: 'Could not reach the server' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="modal-overlay">
      <Modal className="modal">
        <Dialog>
          <Heading slot="title">New at {table ? `table ${table.table_number}` : 'the venue'}</Heading>
          <form onSubmit={(e) => void submit(e)} className="form">
            <RadioGroup value={kind} onChange={(v) => setKind(v as Kind)} orientation="horizontal" className="segmented-radio">
              <Label>What</Label>
              <div className="segmented">
                <Radio value="reservation" className="segmented__item">
                  Reservation
                </Radio>
                <Radio value="walk_in" className="segmented__item">
                  Walk-in
                </Radio>
                {can('tables', 'write') && (
                  <Radio value="block" className="segmented__item">
                    Block
                  </Radio>
                )}
              </div>
            </RadioGroup>
            {kind !== 'block' && (
              <>
                <ComboBox
                  className="field"
                  inputValue={query}
                  onInputChange={(value) => {
                    setQuery(value);
                    setGuestId(null);
                  }}
                  onSelectionChange={(key) => {
                    const guest = guests.find((g) => g.id === key);
                    if (guest) {
                      setGuestId(guest.id);
                      setQuery(guest.name);
                      setPhone(guest.phone ?? '');
                    }
                  }}
                  items={guests}
                  allowsCustomValue
                  menuTrigger="input"
                  isRequired={kind === 'reservation'}
                >
                  <Label>Guest</Label>
                  <Input placeholder="Name, email or phone (2+ letters)" />
                  <Popover className="popover">
                    <ListBox className="menu" renderEmptyState={() => <p className="menu__empty">New guest: “{query}”</p>}>
                      {(g: (typeof guests)[number]) => (
                        <ListBoxItem id={g.id} textValue={g.name} className="menu__item">
                          <strong>{g.name}</strong> <span className="muted">{g.phone ?? g.email}</span>
                        </ListBoxItem>
                      )}
                    </ListBox>
                  </Popover>
                </ComboBox>
                {!guestId && (
                  <TextField className="field" value={phone} onChange={setPhone} type="tel">
                    <Label>Phone</Label>
                    <Input />
                  </TextField>
                )}
                <TextField className="field field--short" value={covers} onChange={setCovers} inputMode="numeric" isRequired>
                  <Label>Covers</Label>
                  <Input />
                </TextField>
              </>
            )}
            <div className="row-fields">
              {kind !== 'walk_in' && (
                <>
                  <TextField className="field" value={date} onChange={setDate} isRequired>
                    <Label>Date</Label>
                    <Input type="date" />
                  </TextField>
                  <TextField className="field" value={time} onChange={setTime} isRequired>
                    <Label>Time</Label>
                    <Input type="time" step={900} />
                  </TextField>
                </>
              )}
              <TextField className="field" value={minutes} onChange={setMinutes} inputMode="numeric">
                <Label>Minutes</Label>
                <Input />
              </TextField>
            </div>
            <label className="field">
              <span>Table</span>
              <select value={tableId} onChange={(e) => setTableId(e.target.value)} required={kind === 'block'}>
                <option value="">{kind === 'block' ? 'Choose a table' : 'No table yet'}</option>
                {props.tables.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.table_number} ({t.capacity})
                  </option>
                ))}
              </select>
            </label>
            {kind === 'block' && (
              <TextField className="field" value={reason} onChange={setReason}>
                <Label>Reason</Label>
                <Input placeholder="Venue Reserved" />
              </TextField>
            )}
            {error && (
              <p className="error" role="alert">
                {error.text}
                {error.ref && <small className="toast__ref">Ref: {error.ref}</small>}
              </p>
            )}
            <div className="actions">
              <Button className="button" onPress={props.onClose}>
                Back
              </Button>
              <Button type="submit" className="button button--primary" isDisabled={busy}>
                {kind === 'block' ? 'Block table' : kind === 'walk_in' ? 'Seat walk-in' : 'Book'}
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
