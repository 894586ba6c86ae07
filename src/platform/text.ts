/**
 * Text input rules shared by every module (schemas check types and lengths; these add what a schema
 * cannot say) and the one text order lists are sorted by.
 */
import { badRequest } from './errors.js';

/** A required text field, trimmed. Missing or blank (whitespace only) is a 400 naming the field. */
export function requiredText(value: string | null | undefined, field = 'name'): string {
  const text = value?.trim() ?? '';
  if (!text) throw badRequest(`${field} must not be blank`);
  return text;
}

/** An optional text field: undefined leaves it unchanged, null or blank clears it (null). */
export function clearableText(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

const collator = new Intl.Collator('en', { numeric: true });

/** Code-point order: right for fixed-format text (ids, `YYYY-MM-DD`, `HH:MM`, ISO instants). */
export const compareCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Natural, case-aware text order ("Table 2" before "Table 10"), with a code-point tie-break so that no two
 * different strings compare equal ("01" and "1", "bar" and "Bar"). Lists sort in code rather than in SQL
 * because SQLite compares bytes while PostgreSQL uses the database collation: the same rows would come
 * back in a different order on each engine.
 */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b) || compareCodePoints(a, b);
}

/** By name, then id: a stable order for named rows. */
export const byName = (a: { name: string; id: string }, b: { name: string; id: string }) =>
  compareText(a.name, b.name) || compareCodePoints(a.id, b.id);
