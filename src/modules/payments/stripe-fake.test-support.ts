/**
 * A stand-in for the Stripe API for the Stripe adapter's tests: a local HTTP server that records each
 * request (method, path, form body, Idempotency-Key) and answers like the Stripe API, with enough state
 * to answer the calls the adapter makes. STRIPE_API_BASE points the official SDK at it; nothing here
 * touches the network.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

interface Call {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

interface Failure {
  method: string;
  path: RegExp;
  status: number;
  error: Record<string, unknown>;
  times: number;
  headers?: Record<string, string>;
}

type StripeObject = Record<string, unknown>;

function metadataOf(form: Record<string, string>, prefix = 'metadata') {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(key);
    if (match) metadata[match[1]] = value;
  }
  return metadata;
}

/** A small stand-in for the Stripe API: enough state to answer the calls the adapter makes. */
function fakeStripe() {
  const calls: Call[] = [];
  const failures: Failure[] = [];
  const objects = new Map<string, StripeObject>();
  let seq = 0;
  const next = (prefix: string) => `${prefix}_fake${++seq}`;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
      const call: Call = {
        method: req.method ?? '',
        path: url.pathname,
        form,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        authorization: req.headers.authorization,
      };
      calls.push(call);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${seq}`, ...headers });
        res.end(JSON.stringify(body));
      };
      const failure = failures.find((f) => f.times > 0 && f.method === call.method && f.path.test(call.path));
      if (failure) {
        failure.times--;
        return send(failure.status, { error: failure.error }, failure.headers);
      }
      const answer = route(call);
      if (!answer)
        return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${call.path}` } });
      send(200, answer);
    });
  });

  function store(object: StripeObject) {
    objects.set(object.id as string, object);
    return object;
  }

  function route({ method, path, form }: Call): StripeObject | undefined {
    const parts = path.split('/').filter(Boolean); // ['v1', resource, id?, action?]
    const [, resource, id, action] = parts;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const piId = next('pi');
      return store({
        id: piId,
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        status: 'requires_payment_method',
        capture_method: form.capture_method,
        client_secret: `${piId}_secret_fake`,
        metadata: metadataOf(form),
        transfer_data: form['transfer_data[destination]'] ? { destination: form['transfer_data[destination]'] } : null,
        application_fee_amount: form.application_fee_amount ? Number(form.application_fee_amount) : null,
        amount_capturable: 0,
        amount_received: 0,
        last_payment_error: null,
        created: 1_780_000_000,
      });
    }
    if (resource === 'payment_intents' && id) {
      const pi = objects.get(id);
      if (!pi) return undefined;
      if (method === 'GET') return pi;
      if (action === 'capture') {
        return store({
          ...pi,
          status: 'succeeded',
          amount_received: form.amount_to_capture ? Number(form.amount_to_capture) : pi.amount_capturable,
          amount_capturable: 0,
          application_fee_amount: form.application_fee_amount ? Number(form.application_fee_amount) : pi.application_fee_amount,
        });
      }
      if (action === 'cancel') return store({ ...pi, status: 'canceled', amount_capturable: 0 });
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = objects.get(form.payment_intent);
      return store({
        id: next('re'),
        object: 'refund',
        amount: Number(form.amount ?? pi?.amount_received),
        currency: 'gbp',
        payment_intent: form.payment_intent,
        status: 'succeeded',
      });
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const csId = next('cs');
      return store({
        id: csId,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${csId}`,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        amount_total: Number(form['line_items[0][price_data][unit_amount]']),
        currency: 'gbp',
        metadata: metadataOf(form),
        expires_at: Number(form.expires_at ?? 1_780_086_400),
      });
    }
    if (path.startsWith('/v1/checkout/sessions/')) {
      const cs = objects.get(parts[3]);
      if (!cs) return undefined;
      if (method === 'GET') return cs;
      if (parts[4] === 'expire') return store({ ...cs, status: 'expired', url: null });
    }
    if (method === 'POST' && path === '/v1/accounts') {
      return store({
        id: next('acct'),
        object: 'account',
        email: form.email ?? null,
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
      });
    }
    if (method === 'GET' && resource === 'accounts' && id) return objects.get(id);
    if (method === 'POST' && path === '/v1/account_links') {
      return {
        object: 'account_link',
        url: `https://connect.stripe.test/setup/e/${form.account}`,
        created: 1_780_000_000,
        expires_at: 1_780_000_300,
      };
    }
    if (method === 'POST' && path === '/v1/transfers') {
      return store({
        id: next('tr'),
        object: 'transfer',
        amount: Number(form.amount),
        currency: form.currency,
        destination: form.destination,
      });
    }
    return undefined;
  }

  return {
    calls,
    objects,
    server,
    url: '',
    fail(failure: Omit<Failure, 'times'> & { times?: number }) {
      failures.push({ times: 1, ...failure });
    },
    callsTo(method: string, path: string | RegExp) {
      return calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
    },
    update(id: string, fields: StripeObject) {
      objects.set(id, { ...objects.get(id)!, ...fields });
    },
    reset() {
      calls.length = 0;
      failures.length = 0;
    },
  };
}

type FakeStripe = ReturnType<typeof fakeStripe>;

/** A fake Stripe listening for the whole test file, its calls and failures forgotten before each test. */
export function useFakeStripe(): FakeStripe {
  const fake = fakeStripe();
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
  });
  beforeEach(() => fake.reset());
  return fake;
}
