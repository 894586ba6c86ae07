/**
 * Hostile-input checks that run once, for every route, before any schema or service sees the input:
 * text in bodies, path parameters and query strings, and the shape of JSON bodies.
 *
 * Text may hold any character except control characters; tab, newline and carriage return are allowed
 * (multi-line fields pasted from Windows clients carry \r\n, and refusing it would only annoy). NUL in
 * particular can never be stored by PostgreSQL, so refusing every control character here keeps both
 * engines alike. Lone UTF-16 surrogates are refused too: neither engine can store them faithfully.
 *
 * Bodies are bounded in nesting depth (no field of the product nests anywhere near it) and numbers must
 * be finite (JSON overflow such as 1e400 parses to Infinity). Every check is one linear pass.
 */
import { badRequest } from './errors.js';

/** The deepest nesting of arrays and objects a body may have; the product's own bodies use three. */
export const MAX_BODY_DEPTH = 32;

// C0 controls except tab (09), newline (0A) and carriage return (0D); DEL; C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a piece of text cannot be accepted, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (CONTROL_CHARACTER.test(text)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text';
  return undefined;
}

/** A field named in an error message; long hostile keys are cut so the message stays short. */
const shown = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * The first problem of a parsed body: `where` is the dotted path of the offending value (`body.a.0`),
 * `problem` what is wrong with it. Walks arrays and plain objects only (a raw Buffer body is the
 * webhook's, which runs this check itself once the signature holds).
 */
export function bodyProblem(body: unknown): string | undefined {
  const path: string[] = ['body'];
  const at = () => path.join('.');

  function visit(value: unknown, depth: number): string | undefined {
    if (typeof value === 'string') {
      const problem = textProblem(value);
      return problem && `${at()} ${problem}`;
    }
    if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at()} must be a finite number`;
    if (typeof value !== 'object' || value === null) return undefined;
    const isArray = Array.isArray(value);
    if (!isArray && !isPlainObject(value)) return undefined;
    if (depth > MAX_BODY_DEPTH) return `body is nested deeper than ${MAX_BODY_DEPTH} levels`;
    if (isArray) {
      for (let index = 0; index < value.length; index++) {
        path.push(String(index));
        const problem = visit(value[index], depth + 1);
        path.pop();
        if (problem) return problem;
      }
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (textProblem(key)) return `${at()} has a field name that is not valid text`;
      path.push(shown(key));
      const problem = visit(value[key], depth + 1);
      path.pop();
      if (problem) return problem;
    }
    return undefined;
  }

  return visit(body, 1);
}

/** Throws the 400 for a body that holds unsafe text, non-finite numbers or too deep nesting. */
export function assertSafeBody(body: unknown): void {
  const problem = bodyProblem(body);
  if (problem) throw badRequest(problem);
}

/**
 * Throws the 400 for path parameters or query values holding unsafe text (checked before any route
 * hook, since the auth guard looks the venue id up in the database).
 */
export function assertSafeUrlParts(params: unknown, query: unknown): void {
  for (const [where, part] of [
    ['params', params],
    ['query', query],
  ] as const) {
    if (typeof part !== 'object' || part === null) continue;
    for (const [key, raw] of Object.entries(part as Record<string, unknown>)) {
      if (textProblem(key)) throw badRequest(`${where} has a parameter name that is not valid text`);
      for (const value of [raw].flat()) {
        if (typeof value !== 'string') continue;
        const problem = textProblem(value);
        if (problem) throw badRequest(`${where}.${shown(key)} ${problem}`);
      }
    }
  }
}
