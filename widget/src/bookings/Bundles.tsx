/**
 * The add-ons a chosen time offers (its access rule's bundles): each bundle with what it holds and its
 * price, and how many to add. Prices are shown here; the venue charges them as it does (a deposit, if
 * any, includes them).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { money } from '../lib/format';
import { Alert } from '../ui/Shell';

export interface PublicBundle {
  id: string;
  name: string;
  price_pence: number;
  items: { name: string; price_pence: number }[];
}

const MAX_EACH = 10;

export function Bundles(props: {
  venueId: string;
  offered: string[];
  value: Record<string, number>;
  onChange: (value: Record<string, number>) => void;
  /** The offered bundles once loaded (names and prices for the terms' lines). */
  onLoaded?: (bundles: PublicBundle[]) => void;
}) {
  const [bundles, setBundles] = useState<PublicBundle[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ data: PublicBundle[] }>(`/api/public/venues/${encodeURIComponent(props.venueId)}/bundles`)
      .then((answer) => {
        const offered = answer.data.filter((bundle) => props.offered.includes(bundle.id));
        setBundles(offered);
        props.onLoaded?.(offered);
      })
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'The extras could not be loaded.'));
  }, [props.venueId, props.offered.join(',')]);
  if (error) return <Alert message={error} />;
  if (!bundles || bundles.length === 0) return null;
  return (
    <fieldset>
      <legend>Add to your booking (optional)</legend>
      {bundles.map((bundle) => (
        <div class="mw-field" key={bundle.id}>
          <label for={`mw-bundle-${bundle.id}`}>
            {bundle.name}, {money(bundle.price_pence)} each
          </label>
          {bundle.items.length > 0 ? (
            <p class="mw-hint" id={`mw-bundle-${bundle.id}-items`}>
              {bundle.items.map((item) => item.name).join(', ')}
            </p>
          ) : null}
          <select
            id={`mw-bundle-${bundle.id}`}
            aria-describedby={bundle.items.length > 0 ? `mw-bundle-${bundle.id}-items` : undefined}
            value={props.value[bundle.id] ?? 0}
            onChange={(event) => props.onChange({ ...props.value, [bundle.id]: Number((event.target as HTMLSelectElement).value) })}
          >
            {Array.from({ length: MAX_EACH + 1 }, (_, n) => (
              <option key={n} value={n}>
                {n === 0 ? 'None' : n}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  );
}
