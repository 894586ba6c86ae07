/**
 * Request validation: TypeBox's compiled check decides, and on failure one walk finds the FIRST problem
 * and says it in words a client developer can act on.
 *
 * Why not `TypeBoxValidatorCompiler` from `@fastify/type-provider-typebox`: on failure it calls
 * `Errors()`, which collects every error of the whole value, and its `uniqueItems` error path copies an
 * array per duplicate (quadratic): a body of 100,000 strings kept the event loop busy for over a minute.
 * Here the walk stops at the first problem and checks sizes (`maxItems`, `maxLength`) before looking at
 * contents, so answering a hostile body costs no more than reading it.
 *
 * Messages: enums list their allowed values ("must be one of: a, b"); a pattern is never echoed, its
 * schema `description` says what is expected ("must be a clock time as HH:MM (24-hour)"); values the
 * client sent are echoed only shortened.
 */
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

/** One validation problem, in the shape Fastify passes to the error handler as `error.validation`. */
export type ValidationIssue = FastifySchemaValidationError & { message: string };

const issueAt = (instancePath: string, keyword: string, message: string, params: Record<string, unknown> = {}): ValidationIssue => ({
  instancePath,
  schemaPath: '',
  keyword,
  message,
  params,
});

type Schema = Record<string, unknown> & {
  type?: string | string[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  description?: string;
};

/**
 * Whether text needs converting to match `schema`: not when it is an object whose properties are all plain
 * strings (most path parameters), for which `Value.Convert` would walk the schema to change nothing.
 */
function convertsText(schema: Schema): boolean {
  if (schema.type !== 'object' || !schema.properties) return true;
  return Object.values(schema.properties).some((property) => property.type !== 'string' || property.anyOf !== undefined);
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  // Path parameters and query strings arrive as text; bodies are JSON and keep their types.
  const convert = httpPart !== 'body' && convertsText(schema as Schema);
  return (value: unknown) => {
    const converted = convert ? Value.Convert(schema, value) : value;
    if (check.Check(converted)) return { value: converted };
    const issue = firstIssue(schema as Schema, converted, '') ?? issueAt('', 'schema', 'is invalid');
    return { error: [issue] };
  };
};

const patterns = new Map<string, RegExp>();
const regExpOf = (pattern: string) => {
  let re = patterns.get(pattern);
  if (!re) patterns.set(pattern, (re = new RegExp(pattern, 'u')));
  return re;
};

/** Shown values: strings as they are, others as JSON (null, true, 0). */
const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const oneOf = (values: unknown[]) => `must be one of: ${values.map(show).join(', ')}`;
const listOr = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`);
/** A client's value in a message: shortened, since it may be as long as the body. */
const brief = (value: unknown) => {
  const text = show(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};
const has = (object: object, key: string) => Object.hasOwn(object, key);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return jsonType(value) === type;
  }
}

/** The JSON kind a schema accepts, for choosing the branch of a union that the value was meant for. */
function kindMatches(schema: Schema, value: unknown): boolean {
  if ('const' in schema) return jsonType(schema.const) === jsonType(value);
  if (schema.enum) return schema.enum.some((option) => jsonType(option) === jsonType(value));
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length === 0) return true;
  const kind = jsonType(value);
  return types.some((type) => type === kind || (kind === 'number' && type === 'integer'));
}

const isChoice = (schema: Schema) => 'const' in schema || Array.isArray(schema.enum);

/** The values a branch allows when it is a short list (a literal, an enum, true/false, null). */
function choicesOf(schema: Schema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  if (schema.enum) return schema.enum;
  if (schema.type === 'boolean') return [true, false];
  if (schema.type === 'null') return [null];
  return undefined;
}

/** How a union branch reads in "must be …". */
function describe(schema: Schema): string {
  if ('const' in schema) return show(schema.const);
  if (schema.enum) return schema.enum.map(show).join(', ');
  if (schema.anyOf) return listOr(schema.anyOf.map(describe));
  const types = schema.type === undefined ? [] : [schema.type].flat();
  return listOr(types.map((type) => TYPE_NAMES[type] ?? type)) || 'valid';
}

function codePoints(text: string, atMost: number): number {
  let count = 0;
  for (const _ of text) if (++count > atMost) break;
  return count;
}

/** The first problem of `value` against `schema`, or undefined when this walk finds none. */
export function firstIssue(schema: Schema, value: unknown, path: string): ValidationIssue | undefined {
  if (schema.anyOf) return anyOfIssue(schema.anyOf, value, path);
  if ('const' in schema && schema.const !== value) return issueAt(path, 'const', `must be ${show(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value as never))
    return issueAt(path, 'enum', oneOf(schema.enum), { allowedValues: schema.enum });
  const { type } = schema;
  if (type !== undefined && !(typeof type === 'string' ? typeMatches(type, value) : type.some((one) => typeMatches(one, value)))) {
    return issueAt(path, 'type', `must be ${describe({ type })}`, { type });
  }
  if (typeof value === 'string') return stringIssue(schema, value, path);
  if (typeof value === 'number') return numberIssue(schema, value, path);
  if (Array.isArray(value)) return arrayIssue(schema, value, path);
  if (typeof value === 'object' && value !== null) return objectIssue(schema, value as Record<string, unknown>, path);
  return undefined;
}

function anyOfIssue(branches: Schema[], value: unknown, path: string): ValidationIssue | undefined {
  // A branch that takes this kind of value and is not a bare choice says the most useful thing: a
  // too-long string for a nullable text, say, rather than "must be a string or null".
  let specific: ValidationIssue | undefined;
  for (const branch of branches) {
    if (!kindMatches(branch, value)) continue;
    const found = firstIssue(branch, value, path);
    if (!found) return undefined;
    if (!specific && !isChoice(branch)) specific = found;
  }
  if (specific) return specific;
  const choices = branches.map(choicesOf);
  const message = choices.every(Boolean) ? oneOf(choices.flat()) : `must be ${listOr(branches.map(describe))}`;
  return issueAt(path, 'anyOf', message);
}

function stringIssue(schema: Schema, value: string, path: string): ValidationIssue | undefined {
  const { maxLength, minLength, pattern } = schema as { maxLength?: number; minLength?: number; pattern?: string };
  const issue = (keyword: string, message: string, params?: Record<string, unknown>) => issueAt(path, keyword, message, params);
  const format = () => (pattern !== undefined && schema.description ? `must be ${schema.description}` : undefined);
  if (maxLength !== undefined && value.length > maxLength && codePoints(value, maxLength) > maxLength) {
    // "must be a date as YYYY-MM-DD" helps more than a length for a value of a fixed format.
    return issue('maxLength', format() ?? `must be at most ${plural(maxLength, 'character')}`, { limit: maxLength });
  }
  if (minLength !== undefined && value.length < minLength * 2 && codePoints(value, minLength) < minLength) {
    return issue('minLength', minLength === 1 ? 'must not be empty' : `must be at least ${plural(minLength, 'character')}`, {
      limit: minLength,
    });
  }
  if (pattern !== undefined && !regExpOf(pattern).test(value)) {
    return issue('pattern', format() ?? 'is not in the expected format');
  }
  return undefined;
}

function numberIssue(schema: Schema, value: number, path: string): ValidationIssue | undefined {
  const issue = (keyword: string, message: string, params?: Record<string, unknown>) => issueAt(path, keyword, message, params);
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema as Record<string, number | undefined>;
  if (minimum !== undefined && value < minimum) return issue('minimum', `must be at least ${minimum}`, { limit: minimum });
  if (maximum !== undefined && value > maximum) return issue('maximum', `must be at most ${maximum}`, { limit: maximum });
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum)
    return issue('exclusiveMinimum', `must be more than ${exclusiveMinimum}`);
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum)
    return issue('exclusiveMaximum', `must be less than ${exclusiveMaximum}`);
  if (multipleOf !== undefined && !Number.isInteger(value / multipleOf)) return issue('multipleOf', `must be a multiple of ${multipleOf}`);
  return undefined;
}

function arrayIssue(schema: Schema, value: unknown[], path: string): ValidationIssue | undefined {
  const { maxItems, minItems, uniqueItems } = schema as { maxItems?: number; minItems?: number; uniqueItems?: boolean };
  const issue = (keyword: string, message: string, params?: Record<string, unknown>) => issueAt(path, keyword, message, params);
  if (maxItems !== undefined && value.length > maxItems)
    return issue('maxItems', `must have at most ${plural(maxItems, 'item')}`, { limit: maxItems });
  if (minItems !== undefined && value.length < minItems) {
    return issue('minItems', minItems === 1 ? 'must not be empty' : `must have at least ${plural(minItems, 'item')}`, { limit: minItems });
  }
  if (schema.items && !Array.isArray(schema.items)) {
    for (let index = 0; index < value.length; index++) {
      const found = firstIssue(schema.items, value[index], `${path}/${index}`);
      if (found) return found;
    }
  }
  if (uniqueItems) {
    const seen = new Set<string>();
    for (const item of value) {
      const key = typeof item === 'string' ? `s${item}` : `j${JSON.stringify(item)}`;
      if (seen.has(key)) return issue('uniqueItems', `must not list ${brief(item)} twice`);
      seen.add(key);
    }
  }
  return undefined;
}

function objectIssue(schema: Schema, value: Record<string, unknown>, path: string): ValidationIssue | undefined {
  const properties = schema.properties ?? {};
  const issue = (keyword: string, message: string, params?: Record<string, unknown>) => issueAt(path, keyword, message, params);
  for (const key of schema.required ?? []) {
    if (!has(value, key)) return issue('required', `is missing required field ${key}`, { requiredProperties: [key] });
  }
  if (schema.additionalProperties === false) {
    for (const key of Object.keys(value)) {
      if (!has(properties, key)) return issue('additionalProperties', `has unknown field ${brief(key)}`, { additionalProperty: key });
    }
  }
  for (const [key, property] of Object.entries(properties)) {
    if (!has(value, key) || value[key] === undefined) continue;
    const found = firstIssue(property, value[key], `${path}/${key}`);
    if (found) return found;
  }
  if (typeof schema.additionalProperties === 'object') {
    for (const key of Object.keys(value)) {
      if (has(properties, key)) continue;
      const found = firstIssue(schema.additionalProperties, value[key], `${path}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
