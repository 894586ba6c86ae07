/**
 * The embed loader a venue pastes into its site (docs/widgets.md): for each element with a
 * `data-maitred-widget` id it makes the widget's iframe (title, `allow="payment"`, lazy loading, no inner
 * scroll bar), sizes it to the widget's content as it grows and shrinks, and falls back to a plain link
 * when the widget does not answer within 10 s of coming into view.
 *
 * Protocol `maitred-widget` version 1, over postMessage: the loader posts `hello` to the frame (to the
 * widget's origin only) until the widget answers `ready`; the widget then posts `resize` (height),
 * `scroll-top`, and `booked` (kind, booking_id), each to the host origin it learnt from the hello. The
 * loader accepts only messages from its own frame's window and the widget's origin. A booking is
 * announced on the host page as a bubbling `maitred:booked` DOM event on the widget's element.
 * `save` (key, value) asks the loader to keep the visit's state in this page's sessionStorage (the
 * framed widget may be denied its own); the next `hello` carries it back as `saved`, so a reload of the
 * host page resumes the guest's flow.
 */
(() => {
  const PROTOCOL = 'maitred-widget';
  const VERSION = 1;
  const ANSWER_WITHIN_MS = 10_000;
  const HELLO_EVERY_MS = 250;

  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const origin = new URL(script.src).origin;

  interface WidgetMessage {
    protocol?: string;
    version?: number;
    type?: string;
    height?: number;
    kind?: string;
    booking_id?: string;
    key?: string;
    value?: unknown;
  }

  const storageKey = (id: string) => `maitred-widget:${id}`;
  function readSaved(id: string): Record<string, unknown> {
    try {
      const value = JSON.parse(sessionStorage.getItem(storageKey(id)) ?? '{}') as unknown;
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  function writeSaved(id: string, key: string, value: unknown) {
    try {
      const saved = readSaved(id);
      if (value === null || value === undefined) delete saved[key];
      else saved[key] = value;
      sessionStorage.setItem(storageKey(id), JSON.stringify(saved));
    } catch {
      // Storage unavailable: the visit simply does not survive a reload.
    }
  }

  function setUp(holder: HTMLElement) {
    if (holder.dataset.maitredLoaded) return;
    holder.dataset.maitredLoaded = '1';
    const id = holder.dataset.maitredWidget ?? '';
    const url = `${origin}/widget/${encodeURIComponent(id)}`;
    const title = holder.dataset.maitredTitle || 'Booking';
    const frame = document.createElement('iframe');
    frame.src = url;
    frame.title = title;
    frame.allow = 'payment';
    frame.setAttribute('loading', 'lazy');
    frame.setAttribute('scrolling', 'no');
    frame.style.cssText = 'display:block;width:100%;border:0;overflow:hidden;height:640px;';
    holder.append(frame);

    let ready = false;
    let hello: ReturnType<typeof setInterval> | undefined;
    let deadline: ReturnType<typeof setTimeout> | undefined;

    const fallBack = () => {
      if (ready) return;
      if (hello) clearInterval(hello);
      window.removeEventListener('message', onMessage);
      const link = document.createElement('a');
      link.href = url;
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = `${title} (opens in a new tab)`;
      frame.replaceWith(link);
    };

    const sayHello = () =>
      frame.contentWindow?.postMessage({ protocol: PROTOCOL, version: VERSION, type: 'hello', widget: id, saved: readSaved(id) }, origin);

    // The 10 s count starts when the frame nears the viewport; hellos only once the widget's document has
    // loaded: posting to the frame's initial about:blank (another origin) makes the browser log an
    // origin-mismatch warning on the venue's page.
    const startClock = () => {
      if (!deadline) deadline = setTimeout(fallBack, ANSWER_WITHIN_MS);
    };
    const start = () => {
      startClock();
      if (hello || ready) return;
      sayHello();
      hello = setInterval(sayHello, HELLO_EVERY_MS);
    };

    function onMessage(event: MessageEvent) {
      if (event.origin !== origin || event.source !== frame.contentWindow) return;
      const data = event.data as WidgetMessage | null;
      if (!data || data.protocol !== PROTOCOL || data.version !== VERSION) return;
      if (data.type === 'ready') {
        ready = true;
        if (hello) clearInterval(hello);
        if (deadline) clearTimeout(deadline);
      } else if (data.type === 'resize' && typeof data.height === 'number' && data.height > 0) {
        frame.style.height = `${Math.ceil(data.height)}px`;
      } else if (data.type === 'scroll-top') {
        if (frame.getBoundingClientRect().top < 0) frame.scrollIntoView({ block: 'start', behavior: 'smooth' });
      } else if (data.type === 'save' && typeof data.key === 'string' && data.key.length <= 200) {
        writeSaved(id, data.key, data.value);
      } else if (data.type === 'booked' && typeof data.booking_id === 'string') {
        holder.dispatchEvent(
          new CustomEvent('maitred:booked', { bubbles: true, detail: { widget: id, kind: data.kind, booking_id: data.booking_id } }),
        );
      }
    }
    window.addEventListener('message', onMessage);
    frame.addEventListener('load', start);
    // A lazy frame loads when it nears the viewport: the 10 s count from then.
    if ('IntersectionObserver' in window) {
      const observer = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          startClock();
        }
      });
      observer.observe(holder);
    } else {
      startClock();
    }
  }

  const scan = () => document.querySelectorAll<HTMLElement>('[data-maitred-widget]').forEach(setUp);
  (window as unknown as { MaitredWidgets?: { scan: () => void } }).MaitredWidgets = { scan };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
})();
