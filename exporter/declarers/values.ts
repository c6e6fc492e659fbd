/** Small pure helpers the declarers share: text order, and members read or left out. */

/** The uid of the group a uid is the child of. */
export const parentUidOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
/** Code-unit order, the same on every machine (unlike `localeCompare`). */
export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byNameThenUid = (a: { name: string; uid: string }, b: { name: string; uid: string }) =>
  compareText(a.name, b.name) || compareText(a.uid, b.uid);

export type Raw = Record<string, unknown>;
export const isObject = (value: unknown): value is Raw =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** A non-empty string member, or undefined (an empty string counts as unset). */
export const text = (object: Raw, key: string): string | undefined => {
  const value = object[key];
  return typeof value === "string" && value !== "" ? value : undefined;
};
/** A non-empty map of strings, keys sorted, or undefined. */
export const textMap = (object: Raw, key: string): Record<string, string> | undefined => {
  const value = object[key];
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value).sort(compareText);
  if (keys.length === 0) return undefined;
  // Made as own members (an assignment `out["__proto__"] = ...` would set a prototype).
  return Object.fromEntries(keys.map((k) => [k, String(value[k])]));
};
/** Members whose value is defined, in the order given. */
export const defined = <T extends object>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;

/** Sorted copy of a record's entries, so the text never depends on the API's key order. */
export const sortedRecord = <V>(record: Record<string, V>, map: (value: V) => V = (v) => v) =>
  Object.fromEntries(
    Object.keys(record)
      .sort(compareText)
      .map((k) => [k, map(record[k])]),
  ) as Record<string, V>;
