/** Blocks of the selected table: when it cannot be booked (from, to, a reason), added and removed at once (not undoable). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { api, call } from '../../api/client';

const local = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
const clock = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, timeStyle: 'short' }).format(new Date(iso));

/** A block's period in venue time: the date once when it starts and ends on the same day. */
function period(from: string, to: string, timeZone: string) {
  const start = local(from, timeZone);
  const end = local(to, timeZone);
  const day = (text: string) => text.slice(0, text.lastIndexOf(','));
  return day(start) === day(end) ? `${start}–${clock(to, timeZone)}` : `${start} – ${end}`;
}

export function Blocks(props: { venueId: string; timeZone: string; tableId: string; tableNumber: string }) {
  const client = useQueryClient();
  const key = ['floorplan', props.venueId, 'blocks'];
  const blocks = useQuery({
    queryKey: key,
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables/blocks', { params: { path: { venueId: props.venueId } } })),
  });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mine = (blocks.data?.data ?? []).filter((b) => b.table_id === props.tableId);

  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!from || !to) return setError('Give both the start and the end');
    if (to <= from) return setError('The end must be after the start');
    try {
      await call(
        api.POST('/api/my-venues/{venueId}/tables/block', {
          params: { path: { venueId: props.venueId } },
          body: { table_ids: [props.tableId], from, to, ...(reason.trim() ? { reason: reason.trim() } : {}) },
        }),
      );
      setReason('');
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  async function remove(id: string) {
    setError(null);
    try {
      await call(api.DELETE('/api/my-venues/{venueId}/tables/blocks/{id}', { params: { path: { venueId: props.venueId, id } } }));
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <section aria-labelledby="fp-blocks-heading" className="fp-panel">
      <h2 id="fp-blocks-heading">Blocks of table {props.tableNumber}</h2>
      <ul className="fp-list">
        {mine.map((block) => (
          <li key={block.id}>
            <span>
              {period(block.blocked_from, block.blocked_to, props.timeZone)}: {block.reason}
            </span>
            <Button
              className="button button--quiet"
              aria-label={`Remove the block from ${local(block.blocked_from, props.timeZone)}`}
              onPress={() => void remove(block.id)}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {mine.length === 0 && <p className="muted">Not blocked.</p>}
      <form onSubmit={(e) => void add(e)}>
        <TextField className="field fp-field" value={from} onChange={setFrom} type="datetime-local">
          <Label>Blocked from</Label>
          <Input />
        </TextField>
        <TextField className="field fp-field" value={to} onChange={setTo} type="datetime-local">
          <Label>Until</Label>
          <Input />
        </TextField>
        <TextField className="field fp-field" value={reason} onChange={setReason} maxLength={200}>
          <Label>Reason</Label>
          <Input placeholder="Venue Reserved" />
        </TextField>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" className="button">
          Block table
        </Button>
      </form>
    </section>
  );
}
