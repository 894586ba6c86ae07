/** Normalising free-text input: schemas check lengths, these reject blanks and clear on null or ''. */
import { badRequest } from '../../platform/errors.js';

/** A required text field, trimmed; blank (whitespace only) is a 400 naming the field. */
export function requiredText(value: string, field: string): string {
  const text = value.trim();
  if (!text) throw badRequest(`${field} must not be blank`);
  return text;
}

/** An optional text field: undefined leaves it unchanged, null or blank clears it. */
export function clearableText(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}
