/**
 * Hostile requests for every documented route: read the OpenAPI document, fill the path with a real
 * venue id (or a made-up id of other things), and build bodies and query strings meant to break the
 * server: deep nesting, huge arrays and strings, wrong types, NUL bytes, and values at the very edge
 * of what the schemas allow (longest strings of 4-byte characters, largest numbers, fullest arrays).
 */

// The OpenAPI rendering of a TypeBox schema (nullable, enum: [null] …), read loosely.
type Schema = Record<string, any>;

export interface DocumentedRoute {
  method: string;
  /** OpenAPI path, `/api/my-venues/{venueId}/tables/{id}`. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  body?: Schema;
  /** The 5xx answers the route documents (502 provider failure, 503 dependency unconfigured). */
  declared5xx: number[];
}

export function documentedRoutes(doc: { paths: Record<string, Record<string, Schema>> }): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const parameters: Schema[] = op.parameters ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body: op.requestBody?.content?.['application/json']?.schema,
        declared5xx: Object.keys(op.responses ?? {})
          .map(Number)
          .filter((status) => status >= 500),
      });
    }
  }
  return routes;
}

/** The path parameter that holds a venue id: `venueId`, or the `id` of a venue route. */
const isVenueParam = (path: string, name: string) => name === 'venueId' || (name === 'id' && /^\/api\/(my-)?venues\/\{id\}/.test(path));

/**
 * The URL of a route, its parameters raw (encode them yourself): the venue parameter gets `venueId`;
 * another gets the id `created` holds for its collection (the path before it, `…/tables` for
 * `…/tables/{id}`, or `…/tables` for a `tableId`), else `otherId`.
 */
export function urlOf(route: DocumentedRoute, venueId: string, otherId: string, created = new Map<string, string>()): string {
  return route.path.replace(/\{([^}]+)\}/g, (placeholder: string, name: string, offset: number) => {
    if (isVenueParam(route.path, name)) return venueId;
    const collection = route.path.slice(0, offset - 1);
    const byName = `/api/my-venues/{venueId}/${name.replace(/Id$/, '')}s`;
    return created.get(collection) ?? created.get(byName) ?? otherId;
  });
}

const propertiesOf = (schema: Schema | undefined): string[] => Object.keys(schema?.properties ?? {});

/** A body with every documented field set to `value` (or `{ name: value }` for a route without fields). */
export function everyField(schema: Schema | undefined, value: unknown): Record<string, unknown> {
  const keys = propertiesOf(schema);
  return Object.fromEntries((keys.length > 0 ? keys : ['name']).map((key) => [key, value]));
}

export const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? { a: value } : [value];
  return value;
};

/** JSON text of arrays nested `depth` deep: too deep for JSON.stringify to build, so built as text. */
export const nestedJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

// Strings that satisfy the formats the schemas use; the first one a pattern accepts is taken.
const FORMAT_SAMPLES = [
  '12:00',
  '23:59',
  '2026-07-01',
  '2026-12-31',
  '#ffffff',
  'edge@example.test',
  'https://example.test/x',
  'bar',
  '123456',
  '/x',
];
const WIDE = '😀'; // one character, two UTF-16 units, four UTF-8 bytes

function edgeString(schema: Schema, side: 'max' | 'min', index: number): string {
  const maxLength: number = Math.min(schema.maxLength ?? 100_000, 100_000);
  const minLength: number = schema.minLength ?? 0;
  const prefix = String(index);
  const length = side === 'max' ? maxLength : Math.max(minLength, prefix.length);
  const text = side === 'max' ? prefix + WIDE.repeat(Math.max(0, length - prefix.length)) : prefix.padEnd(length, 'x');
  if (!schema.pattern) return text;
  const re = new RegExp(schema.pattern, 'u');
  if (re.test(text)) return text;
  const samples = FORMAT_SAMPLES.filter((sample) => re.test(sample));
  return samples.length > 0 ? samples[index % samples.length] : text;
}

/** A value at the edge of what `schema` allows: `max` is the longest, largest, fullest; `min` the least. */
export function edgeValue(schema: Schema, side: 'max' | 'min', index = 0): unknown {
  if (schema.anyOf || schema.oneOf) {
    const branches: Schema[] = schema.anyOf ?? schema.oneOf;
    const real = branches.filter((branch) => !(branch.enum?.length === 1 && branch.enum[0] === null));
    return edgeValue(real[index % real.length] ?? branches[0], side, index);
  }
  if ('const' in schema) return schema.const;
  if (schema.enum) {
    const options = schema.enum.filter((option: unknown) => option !== null);
    return options.length > 0 ? options[index % options.length] : null;
  }
  switch (schema.type) {
    case 'string':
      return edgeString(schema, side, index);
    case 'integer':
      return side === 'max' ? (schema.maximum ?? Number.MAX_SAFE_INTEGER) : (schema.minimum ?? Number.MIN_SAFE_INTEGER);
    case 'number':
      return side === 'max' ? (schema.maximum ?? 1e308) : (schema.minimum ?? -1e308);
    case 'boolean':
      return side === 'max';
    case 'array': {
      const items: Schema = schema.items ?? {};
      const options = items.enum ?? items.anyOf;
      let count = side === 'max' ? Math.min(schema.maxItems ?? 1000, 1000) : (schema.minItems ?? 0);
      if (schema.uniqueItems && options) count = Math.min(count, options.length);
      return Array.from({ length: count }, (_, i) => edgeValue(items, side, i));
    }
    case 'object':
      // Each field its own index, so that two fields of one format (time_from, time_to) differ.
      return Object.fromEntries(
        Object.entries<Schema>(schema.properties ?? {}).map(([key, property], ordinal) => [
          key,
          edgeValue(property, side, index + ordinal),
        ]),
      );
    default:
      return null;
  }
}

/**
 * Fields of a request schema without a size bound: arrays without `maxItems`, strings without
 * `maxLength` (enums and literals are bounded by their values).
 */
export function unboundedFields(schema: Schema | undefined, where: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const found: string[] = [];
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) found.push(...unboundedFields(branch, where));
  const types = [schema.type].flat();
  if (types.includes('string') && schema.maxLength === undefined && !schema.enum && !('const' in schema)) found.push(where);
  if (types.includes('array')) {
    if (schema.maxItems === undefined) found.push(`${where}[]`);
    found.push(...unboundedFields(schema.items, `${where}[]`));
  }
  for (const [key, property] of Object.entries<Schema>(schema.properties ?? {}))
    found.push(...unboundedFields(property, `${where}.${key}`));
  return [...new Set(found)];
}

/** The least body a create route takes: its required fields, each at its least. */
export const leastBody = (schema: Schema) =>
  edgeValue(
    {
      ...schema,
      properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([key]) => schema.required?.includes(key))),
    },
    'min',
  );

/** Named hostile bodies for a route's body schema. */
export function hostileBodies(schema: Schema | undefined): [string, unknown][] {
  return [
    ['deep nesting', everyField(schema, nested(40))],
    ['deep nesting at the root', nestedJson(5000)],
    ['huge arrays', everyField(schema, Array(5000).fill('x'))],
    ['objects for fields', everyField(schema, { a: [1, { b: null }] })],
    ['numbers for fields', everyField(schema, -1.5e300)],
    ['NUL bytes', everyField(schema, ['a\u0000'])],
    ['huge strings', everyField(schema, 'x'.repeat(20_000))],
    ['edge values (max)', edgeValue(schema ?? { type: 'object' }, 'max')],
    ['edge values (min)', edgeValue(schema ?? { type: 'object' }, 'min')],
  ];
}

/** Named hostile query strings for a route's documented query parameters. */
export function hostileQueries(query: DocumentedRoute['query']): [string, string][] {
  if (query.length === 0) return [['NUL in an undocumented parameter', 'x=%00']];
  const all = (value: (schema: Schema) => string) =>
    query.map(({ name, schema }) => `${encodeURIComponent(name)}=${encodeURIComponent(value(schema))}`).join('&');
  return [
    ['NUL bytes', all(() => 'a\u0000b')],
    ['huge values', all(() => 'q'.repeat(5000))],
    ['edge values (max)', all((schema) => String(edgeValue(schema, 'max')))],
    ['edge values (min)', all((schema) => String(edgeValue(schema, 'min')))],
  ];
}

// ---------------------------------------------------------------------------------------------------
// The payment webhook: its raw body skips the global input guard (the bytes are kept for the
// signature), so hostile events are generated here for tests to sign and send as the provider would.
// ---------------------------------------------------------------------------------------------------

/** One well-formed event per thing the webhook acts on; each leaf is then made hostile in turn. */
const session = (type: string, metadata: Record<string, string>) => ({
  id: 'evt_hostile',
  object: 'event',
  type,
  created: 1_780_000_000,
  data: {
    object: {
      id: 'cs_hostile',
      object: 'checkout.session',
      payment_intent: 'pi_hostile',
      payment_status: 'paid',
      status: 'complete',
      amount_total: 2000,
      currency: 'gbp',
      metadata,
    },
  },
});
const TEMPLATES = [
  session('checkout.session.completed', { kind: 'booking_deposit', booking_id: 'bkg_hostile' }),
  session('checkout.session.expired', { kind: 'booking_deposit', booking_id: 'bkg_hostile' }),
  session('checkout.session.completed', { kind: 'event_booking', booking_id: 'bkg_hostile' }),
  session('checkout.session.expired', { kind: 'event_booking', booking_id: 'bkg_hostile' }),
  session('checkout.session.completed', { kind: 'voucher_purchase', intent_id: 'pi_hostile' }),
  session('checkout.session.completed', { kind: 'keys_topup', user_id: 'usr_hostile', keys: '5' }),
  session('checkout.session.completed', { kind: 'membership', user_id: 'usr_hostile', tier: 'gold' }),
  { id: 'evt_hostile', type: 'account.updated', data: { object: { id: 'acct_hostile' } } },
];
const HOSTILE_LEAVES: [string, unknown, number?][] = [
  ['NUL', 'a\u0000b', 400],
  ['C1 control', 'a\u0085b', 400],
  ['lone surrogate', 'a\ud83d', 400],
  ['NUL field name', { ['k\u0000']: 'v' }, 400],
  ['deep nesting', nested(40), 400],
  ['huge string', 'x'.repeat(100_000)],
  ['empty string', ''],
  ['huge number', -1.5e300],
  ['fraction', 0.5],
  ['object', { a: [1, { b: null }] }],
  ['array', ['x']],
  ['null', null],
];
/** Every leaf of `value` as a path of keys. */
const leaves = (value: unknown, path: string[] = []): string[][] =>
  typeof value === 'object' && value !== null ? Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key])) : [path];
const replaced = (value: unknown, path: string[], by: unknown): unknown => {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  return { ...(value as object), [head!]: replaced((value as Record<string, unknown>)[head!], rest, by) };
};
/**
 * Signed-webhook probes: every leaf of an event of each kind the webhook acts on made hostile in turn
 * (a fresh event id each), and a few whole bodies; `expect` is the status a probe must get (else any
 * clean answer: 200 acknowledged, or 400).
 */
export function hostileWebhookBodies(): { label: string; raw: string; expect?: number }[] {
  const probes: { label: string; raw: string; expect?: number }[] = [
    { label: 'deep nesting at the root', raw: nestedJson(5000), expect: 400 },
    { label: 'not JSON', raw: '{"id":', expect: 400 },
    { label: 'a JSON string', raw: '"evt"', expect: 400 },
  ];
  let counter = 0;
  for (const template of TEMPLATES) {
    const what = `${template.type} ${(template.data.object as { metadata?: { kind?: string } }).metadata?.kind ?? ''}`;
    for (const path of leaves(template)) {
      for (const [kind, value, status] of HOSTILE_LEAVES) {
        const body = replaced({ ...template, id: `evt_hostile_${++counter}` }, path, value);
        probes.push({ label: `${what} ${path.join('.')}: ${kind}`, raw: JSON.stringify(body), expect: status });
      }
    }
  }
  return probes;
}
