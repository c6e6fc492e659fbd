/**
 * Keys a map-valued field may not hold. In JavaScript `__proto__` names an object's
 * prototype, and `constructor` and `prototype` name members every object inherits: a
 * map keyed so is copied, looked up or rebuilt as something else (the entry silently
 * dropped, or an inherited function found where no claim was sent). Such keys are
 * refused with INVALID_ARGUMENT naming the field and the key, never dropped.
 */
import { invalidArgument } from "./errors";

export const MAGIC_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** Refuses `key` of the map `field` when it is one of `MAGIC_KEYS`. */
export function refuseMagicKey(key: string, field: string): void {
  if (MAGIC_KEYS.includes(key)) {
    throw invalidArgument(
      field,
      `a key must not be ${MAGIC_KEYS.map((k) => `"${k}"`).join(", ")} (got "${key}")`,
    );
  }
}

/** The own member `name` of a parsed JSON object, never one it inherits. */
export function ownMember(object: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}
