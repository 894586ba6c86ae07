/**
 * A guest's tags, edited in place: the account-wide set and each venue's set, a tag added or removed at a
 * time (`PUT /api/my-guests/:id/tags` replaces the set at one scope, so the new set is sent whole).
 * Without `guests` write the tags are shown only, with the reason.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { api, call } from '../api/client';
import { guestsKey, messageOf, type GuestDetail } from './data';

interface Scope {
  key: string;
  title: string;
  venueId: string | null;
  tags: string[];
}

export function TagsEditor(props: { guestId: string; tags: GuestDetail['tags']; venue?: { id: string; name: string }; writable: boolean }) {
  const scopes: Scope[] = [
    { key: 'global', title: 'All venues', venueId: null, tags: props.tags.global },
    ...props.tags.per_venue.map((set) => ({ key: set.venue_id, title: set.venue_name, venueId: set.venue_id, tags: set.tags })),
  ];
  if (props.writable && props.venue && !scopes.some((scope) => scope.venueId === props.venue!.id))
    scopes.push({ key: props.venue.id, title: props.venue.name, venueId: props.venue.id, tags: [] });

  return (
    <section className="panel guest__panel" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      {!props.writable && <p className="muted">Your role can see tags but not change them.</p>}
      {scopes.map((scope) => (
        <TagScope key={scope.key} guestId={props.guestId} scope={scope} writable={props.writable} />
      ))}
    </section>
  );
}

function TagScope({ guestId, scope, writable }: { guestId: string; scope: Scope; writable: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `tags-${scope.key}`;

  async function save(tags: string[], done: string) {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await call(
        api.PUT('/api/my-guests/{id}/tags', {
          params: { path: { id: guestId } },
          body: scope.venueId ? { scope: 'venue', venue_id: scope.venueId, tags } : { scope: 'global', tags },
        }),
      );
      await client.invalidateQueries({ queryKey: guestsKey });
      setStatus(done);
      setDraft('');
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="guest__tags" role="group" aria-labelledby={headingId}>
      <h3 id={headingId}>{scope.title}</h3>
      {scope.tags.length === 0 ? (
        <p className="muted">No tags.</p>
      ) : (
        <ul className="tag-list" aria-label={`Tags at ${scope.title}`}>
          {scope.tags.map((tag) => (
            <li key={tag} className="tag">
              {tag}
              {writable && (
                <Button
                  className="tag__remove"
                  aria-label={`Remove ${tag} (${scope.title})`}
                  isDisabled={busy}
                  onPress={() =>
                    void save(
                      scope.tags.filter((t) => t !== tag),
                      `${tag} removed.`,
                    )
                  }
                >
                  <span aria-hidden="true">×</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {writable && (
        <Form
          className="guest__tag-form"
          onSubmit={(event) => {
            event.preventDefault();
            const tag = draft.trim();
            if (tag) void save([...scope.tags, tag], `${tag} added.`);
          }}
        >
          <TextField className="field" value={draft} onChange={setDraft} maxLength={50}>
            <Label>Add a tag at {scope.title}</Label>
            <Input />
          </TextField>
          <Button type="submit" className="button" isDisabled={busy || !draft.trim()}>
            Add tag
          </Button>
        </Form>
      )}
      <p role="status" className="guest__tag-status">
        {status}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
