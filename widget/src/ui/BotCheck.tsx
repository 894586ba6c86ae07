/**
 * The bot check before a guest books (Cloudflare Turnstile, when the platform has a site key). Without a
 * site key nothing is shown and no token is needed. The script loads only when this step is reached.
 */
import { useEffect, useRef } from 'preact/hooks';
import { loadScript } from '../lib/script';

interface TurnstileApi {
  render(element: HTMLElement, options: { sitekey: string; callback: (token: string) => void; 'expired-callback': () => void }): string;
  remove(id: string): void;
}

export function BotCheck(props: { siteKey: string | null | undefined; onToken: (token: string | null) => void }) {
  const holder = useRef<HTMLDivElement>(null);
  const { siteKey, onToken } = props;
  useEffect(() => {
    if (!siteKey) return;
    let id: string | undefined;
    let gone = false;
    loadScript('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit')
      .then(() => {
        const turnstile = (window as unknown as { turnstile?: TurnstileApi }).turnstile;
        if (gone || !turnstile || !holder.current) return;
        id = turnstile.render(holder.current, {
          sitekey: siteKey,
          callback: (token) => onToken(token),
          'expired-callback': () => onToken(null),
        });
      })
      .catch(() => onToken(null));
    return () => {
      gone = true;
      const turnstile = (window as unknown as { turnstile?: TurnstileApi }).turnstile;
      if (id && turnstile) turnstile.remove(id);
    };
  }, [siteKey, onToken]);
  return siteKey ? <div ref={holder} class="mw-botcheck" /> : null;
}
