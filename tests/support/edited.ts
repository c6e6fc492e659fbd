/** Objects one field away from a valid one, for tests that break a single field at a time. */

type Json = Record<string, unknown>;

/**
 * A deep copy of `base` with `path` (dotted) set to `value`, or removed when `value` is
 * undefined; `base` itself is left as it was.
 */
export function edited<T extends Json>(base: T, path: string, value: unknown): T {
  const copy = JSON.parse(JSON.stringify(base)) as T;
  const keys = path.split(".");
  let at: Json = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Json;
  const last = keys[keys.length - 1];
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}
