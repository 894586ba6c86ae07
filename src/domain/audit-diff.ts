/**
 * What an audit entry keeps of a change: the fields whose values differ between `before` and `after`,
 * each side holding only those fields, with secrets replaced by a marker (pure, I/O-free).
 *
 * - Only own, top-level fields are compared; nested values (arrays, objects, JSON) compare by their
 *   canonical JSON, so `{a:1,b:2}` equals `{b:2,a:1}`. `undefined` and a missing field are the same.
 * - A creation (`before` null) keeps every non-null field of `after`; a deletion (`after` null) every
 *   non-null field of `before`.
 * - Keys that name secrets (passwords and their hashes, tokens, secrets, TOTP, API and private keys) are
 *   never stored: a changed secret is recorded as changed, with `[redacted]` on both sides.
 * - The caller may name more keys to redact the same way (a guest's contact details on a booking, so
 *   that an erasure leaves no personal data in the log).
 * - Bookkeeping fields (`updated_at`, `created_at`) are left out: the entry has its own time.
 */

export type AuditRecord = Record<string, unknown>;

export interface AuditDiff {
  before: AuditRecord | null;
  after: AuditRecord | null;
}

export const REDACTED = '[redacted]';

const SECRET_KEY = /(password|passwd|secret|token|totp|hash|api_?key|private_?key|signing_?key|salt|otp_?code|recovery_?code)/i;
const IGNORED = new Set(['updated_at', 'created_at']);

/** True when a field of this name must never be stored in the audit log. */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** Canonical JSON: object keys sorted at every level, so equal values compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as AuditRecord).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const present = (value: unknown) => value !== undefined;

/** A stored value: secrets (and the caller's `hidden` keys) redacted at any depth, `undefined` dropped. */
function safe(key: string, value: unknown, hidden: ReadonlySet<string>): unknown {
  if (isSecretKey(key) || hidden.has(key)) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => safe('', item, hidden));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as AuditRecord)
        .filter(([, v]) => present(v))
        .map(([k, v]) => [k, safe(k, v, hidden)]),
    );
  }
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * The changed fields of `before` → `after`: null when nothing changed (a no-op update is not worth an
 * entry). Either side may be null (creation, deletion).
 */
export function auditDiff(
  before: AuditRecord | null | undefined,
  after: AuditRecord | null | undefined,
  redact: readonly string[] = [],
): AuditDiff | null {
  const hidden = new Set(redact);
  const from = before ?? null;
  const to = after ?? null;
  if (!from && !to) return null;
  const keys = new Set([...Object.keys(from ?? {}), ...Object.keys(to ?? {})].filter((key) => !IGNORED.has(key)));
  const changedBefore: AuditRecord = {};
  const changedAfter: AuditRecord = {};
  for (const key of [...keys].sort()) {
    const old = from?.[key];
    const now = to?.[key];
    if (from && to) {
      if (!present(now)) continue; // a field the change does not mention is not changed
      if (canonical(old ?? null) === canonical(now ?? null)) continue;
      changedBefore[key] = old === undefined && !isSecretKey(key) && !hidden.has(key) ? null : safe(key, old, hidden);
      changedAfter[key] = safe(key, now, hidden);
    } else if (from) {
      if (old === null || !present(old)) continue;
      changedBefore[key] = safe(key, old, hidden);
    } else {
      if (now === null || !present(now)) continue;
      changedAfter[key] = safe(key, now, hidden);
    }
  }
  if (from && to && Object.keys(changedAfter).length === 0) return null;
  return { before: from ? changedBefore : null, after: to ? changedAfter : null };
}
