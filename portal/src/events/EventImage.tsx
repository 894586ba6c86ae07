/**
 * The event's picture: upload one (cropped in the browser to 16:9, sent as a data URL within the 2 MB
 * limit, then set as the event's `image_url`), find a stock photo for it (generate-image: hot-linked,
 * with the photographer's credit kept on the event), or remove it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../api/client';
import { ErrorNote, failureOf, type Failure } from '../setup/availability/kit';
import { ImageField } from '../setup/venue/ImageField';
import { eventKey, eventsKey, type EventRecord } from './data';

export function EventImage({ event, canWrite }: { event: EventRecord; canWrite: boolean }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: eventKey(event.id) }),
      client.invalidateQueries({ queryKey: eventsKey(event.venue_id) }),
    ]);
  const setImage = async (body: { image_url: string | null; image_attribution?: NonNullable<EventRecord['image_attribution']> }) => {
    await call(api.PUT('/api/my-events/{id}', { params: { path: { id: event.id } }, body }));
    await refresh();
  };

  async function findPhoto() {
    setBusy(true);
    setFailure(null);
    try {
      const found = await call(api.POST('/api/my-events/generate-image', { body: { name: event.name, event_type: event.event_type } }));
      await setImage({ image_url: found.url, image_attribution: found.attribution });
    } catch (caught) {
      setFailure(failureOf(caught));
    } finally {
      setBusy(false);
    }
  }

  const credit = event.image_attribution;
  return (
    <section className="setup-section" aria-labelledby="event-image">
      <h2 id="event-image">Picture</h2>
      <ImageField
        id="event-picture"
        title="Banner"
        shape="16:9, wide"
        width={1200}
        height={675}
        type="image/jpeg"
        maxBytes={2_000_000}
        currentUrl={event.image_url}
        disabled={!canWrite}
        upload={async (data) => {
          const { url } = await call(api.POST('/api/my-events/image', { body: { data } }));
          await setImage({ image_url: url });
        }}
        remove={() => setImage({ image_url: null })}
      />
      {credit && (
        <p className="muted">
          Photo by{' '}
          <a href={credit.photographer_url} target="_blank" rel="noreferrer">
            {credit.photographer}
          </a>{' '}
          on{' '}
          <a href={credit.unsplash_url} target="_blank" rel="noreferrer">
            Unsplash
          </a>
        </p>
      )}
      {canWrite && (
        <div className="actions">
          <Button className="button" isDisabled={busy} onPress={() => void findPhoto()}>
            {busy ? 'Finding a photo…' : 'Find a stock photo'}
          </Button>
        </div>
      )}
      <ErrorNote failure={failure} />
    </section>
  );
}
