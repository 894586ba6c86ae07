/**
 * Reading the live floor stream in tests as the portal does: fetch with the bearer token, the body read
 * as it arrives and parsed into server-sent events.
 */

export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  /** Everything received so far. */
  text(): string;
  /** Events received since the last `settle` or `nextEvent`. */
  events(): StreamEvent[];
  /** Waits for the stream's first bytes, then lets earlier changes' events pass, and forgets them. */
  settle(quietMs?: number): Promise<void>;
  /** The next event not yet taken (waits up to `ms`). */
  nextEvent(ms?: number): Promise<StreamEvent>;
  close(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseEvents(text: string): StreamEvent[] {
  return text
    .split('\n\n')
    .slice(0, -1)
    .flatMap((block) => {
      const lines = block.split('\n').filter((line) => !line.startsWith(':'));
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
      return event ? [{ event, data: data === undefined ? undefined : JSON.parse(data) }] : [];
    });
}

export async function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  let text = '';
  let taken = 0;
  if (res.ok && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          text += value;
        }
      } catch {
        // Aborted by close().
      }
    })();
  }
  const all = () => parseEvents(text);
  return {
    status: res.status,
    headers: res.headers,
    text: () => text,
    events: () => all().slice(taken),
    async settle(quietMs = 400) {
      for (let waited = 0; !text.includes(': connected'); waited += 10) {
        if (waited > 5000) throw new Error('the stream never opened');
        await sleep(10);
      }
      await sleep(quietMs);
      taken = all().length;
    },
    async nextEvent(ms = 5000) {
      for (let waited = 0; all().length <= taken; waited += 10) {
        if (waited > ms) throw new Error(`no event within ${ms} ms; received: ${JSON.stringify(text)}`);
        await sleep(10);
      }
      return all()[taken++];
    },
    close: () => abort.abort(),
  };
}
