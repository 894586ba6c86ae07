/**
 * The widget's side of the embed protocol (docs/widgets.md): the loader on the host page says `hello`;
 * the widget learns the host's origin from that message (only from its parent window), answers `ready`,
 * and from then on posts its height whenever it changes and `booked` with the booking id — to that
 * origin only. Without a hello (opened directly, or a plain iframe) nothing is posted.
 *
 * A framed widget is a third-party document: browsers that block third-party storage deny it
 * sessionStorage. So the visit's state (what the guest entered, a booking awaiting payment) is also
 * handed to the loader (`save`), which keeps it in the host page's own sessionStorage and gives it back
 * in the next `hello` — a reload resumes the flow, and no third-party cookie or storage is needed.
 */
export const PROTOCOL = 'maitred-widget';
export const VERSION = 1;

let hostOrigin: string | null = null;
let lastHeight = 0;
const restoreHandlers = new Map<string, (value: unknown) => void>();
/** What the host page kept, from the first hello (undefined until it came). */
let hostSaved: Record<string, unknown> | undefined;
const unsent = new Map<string, unknown>();

function post(message: Record<string, unknown>) {
  if (hostOrigin && window.parent !== window) window.parent.postMessage({ protocol: PROTOCOL, version: VERSION, ...message }, hostOrigin);
}

function sendHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height !== lastHeight) {
    lastHeight = height;
    post({ type: 'resize', height });
  }
}

export function startEmbed(publicId: string) {
  if (window.parent === window) return;
  window.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as {
      protocol?: string;
      version?: number;
      type?: string;
      widget?: string;
      saved?: Record<string, unknown>;
    } | null;
    if (event.source !== window.parent || !data || data.protocol !== PROTOCOL || data.type !== 'hello') return;
    if (data.version !== VERSION || data.widget !== publicId) return;
    if (hostOrigin && hostOrigin !== event.origin) return;
    const first = hostOrigin === null;
    hostOrigin = event.origin;
    lastHeight = 0;
    post({ type: 'ready', widget: publicId });
    sendHeight();
    if (first) {
      hostSaved = data.saved && typeof data.saved === 'object' ? data.saved : {};
      for (const [key, handler] of restoreHandlers) if (key in hostSaved) handler(hostSaved[key]);
      restoreHandlers.clear();
    }
    for (const [key, value] of unsent) post({ type: 'save', key, value });
    unsent.clear();
  });
  new ResizeObserver(sendHeight).observe(document.documentElement);
}

/** Called once with the state the host page kept for `key`, if it kept one (see above). */
export function onRestore(key: string, handler: (value: unknown) => void) {
  if (hostSaved === undefined) restoreHandlers.set(key, handler);
  else if (key in hostSaved) handler(hostSaved[key]);
}

/** Hands the visit's state for `key` to the host page to keep (null forgets it). */
export function saveWithHost(key: string, value: unknown) {
  if (hostOrigin) post({ type: 'save', key, value });
  else if (window.parent !== window) unsent.set(key, value);
}

/** Tells the host page a booking was made (the id goes only to the origin learnt in the handshake). */
export function announceBooked(kind: string, bookingId: string) {
  post({ type: 'booked', kind, booking_id: bookingId });
}

/** Scrolls the host page to the widget's top when a step changes (the host does the scrolling). */
export function askScrollTop() {
  post({ type: 'scroll-top' });
}
