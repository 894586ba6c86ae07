import { httpUrl } from '../lib/format';
/** The stock photo's credit: a name or "Unsplash" is a link only when its URL is http(s). */
export function PhotoCredit({ credit }: { credit: { photographer: string; photographer_url: string; unsplash_url: string } }) {
  const photographer = httpUrl(credit.photographer_url);
  const unsplash = httpUrl(credit.unsplash_url);
  return (
    <p class="mw-hint">
      Photo by {photographer ? <a href={photographer}>{credit.photographer}</a> : credit.photographer} on{' '}
      {unsplash ? <a href={unsplash}>Unsplash</a> : 'Unsplash'}
    </p>
  );
}
