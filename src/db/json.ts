/**
 * JSON kept in text columns. Lists of ids (a shift's tables, a rule's bundles) are stored as JSON arrays
 * of strings; reading tolerates a malformed or hand-edited value rather than failing the whole request.
 */

/** The strings of a JSON array column; [] for null, non-arrays and malformed JSON. */
export function parseIdArray(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Old id → new id, or null to drop it. Ids absent from the map are kept as they are. */
export type IdRemap = ReadonlyMap<string, string | null>;

/** Applies a remap to a list of ids: mapped ids replaced, ids mapped to null dropped, no duplicates. */
export function remapIds(ids: readonly string[], remap: IdRemap): { ids: string[]; changed: boolean } {
  const out = [...new Set(ids.flatMap((id) => (remap.has(id) ? (remap.get(id) ?? []) : [id])))];
  return { ids: out, changed: out.length !== ids.length || out.some((id, i) => id !== ids[i]) };
}
