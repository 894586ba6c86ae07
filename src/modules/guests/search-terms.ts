/**
 * Roster search terms. A guest is found by a prefix of any of their terms, so every term is normalised
 * the same way as the query: lower case, accents removed, only letters, digits and `@ . _ + -` kept,
 * runs of spaces collapsed. Terms: the whole name, each name word, the email, its domain, and the
 * phone's digits (also in national form `0…` when it starts with the UK code 44), and the phone's digits
 * reversed behind `#` so that a prefix search on them finds a guest by the last digits of the phone
 * (`#` never survives `normaliseTerm`, so no name or email term can look like one).
 */

/** The reversed-digits term of a phone (suffix search), or null when too short to be worth one. */
export function phoneSuffixTerm(digits: string): string | null {
  return digits.length >= PHONE_SUFFIX_MIN ? `#${[...digits].reverse().join('')}` : null;
}

/** The fewest trailing digits a phone search matches by. */
export const PHONE_SUFFIX_MIN = 3;

/** A name, email or query in the terms' normal form ('' when nothing searchable is left). */
export function normaliseTerm(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@._+\- ]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The upper bound of a prefix range: every term starting with `prefix` sorts below it (byte order). */
export const prefixEnd = (prefix: string): string => `${prefix}\uffff`;

/** The distinct terms a guest is found by. */
export function searchTermsOf(fields: { name: string | null; email: string | null; phone: string | null }): string[] {
  const terms = new Set<string>();
  const name = normaliseTerm(fields.name ?? '');
  if (name) {
    terms.add(name);
    for (const word of name.split(' ')) if (word.length > 0) terms.add(word);
  }
  const email = normaliseTerm(fields.email ?? '').replace(/ /g, '');
  if (email) {
    terms.add(email);
    const at = email.indexOf('@');
    if (at >= 0 && at < email.length - 1) terms.add(email.slice(at + 1));
  }
  const digits = (fields.phone ?? '').replace(/\D/g, '');
  if (digits.length >= 2) {
    terms.add(digits);
    if (digits.startsWith('44') && digits.length > 4) terms.add(`0${digits.slice(2)}`);
    const suffix = phoneSuffixTerm(digits);
    if (suffix) terms.add(suffix);
  }
  return [...terms].filter((term) => term.length <= 200);
}

/** The normalised query terms: the whole query, and for a phone-like query its digits. */
export function queryTerms(q: string): string[] {
  const out = new Set<string>();
  const text = normaliseTerm(q);
  if (text) out.add(text);
  if (/^[\d\s()+-]+$/.test(q.trim())) {
    const digits = q.replace(/\D/g, '');
    if (digits) out.add(digits);
    // The last digits of a phone ("…0123"): a prefix of the reversed digits.
    const suffix = phoneSuffixTerm(digits);
    if (suffix) out.add(suffix);
  }
  return [...out];
}
