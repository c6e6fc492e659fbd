/**
 * Readers for the shapes the IAM additions share: one-of pairs (`issuer` /
 * `issuerPattern`), string maps (`claims`, `clientIds`) and closed enums. Like
 * `core/shape.ts`, they name the field and the rule, and never quote a value
 * that could be a secret.
 */
import { isRecord, kindOf, ShapeError, type ShapeReader } from "../core/shape";

/** An optional string where `""` counts as unset (the addendum's presence rule). */
export function setString(r: ShapeReader, field: string): string | undefined {
  const value = r.optionalString(field);
  return value === undefined || value === "" ? undefined : value;
}

/**
 * A one-of pair of an exact member and its pattern: at most one is set, and with
 * `required` exactly one. Answers only the member that is set.
 */
export function readPair(
  r: ShapeReader,
  exact: string,
  pattern: string,
  required: boolean,
): Record<string, string> {
  const a = setString(r, exact);
  const b = setString(r, pattern);
  if (a !== undefined && b !== undefined) {
    throw new ShapeError(`${r.at}.${pattern}`, `both ${exact} and ${pattern} are set`);
  }
  if (required && a === undefined && b === undefined) {
    throw new ShapeError(`${r.at}.${exact}`, `missing (expected ${exact} or ${pattern})`);
  }
  if (a !== undefined) return { [exact]: a };
  if (b !== undefined) return { [pattern]: b };
  return {};
}

/** A map of string to string, `{}` when absent; keys must not be empty. */
export function stringMap(r: ShapeReader, field: string): Record<string, string> {
  const value = r.raw[field];
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    throw new ShapeError(`${r.at}.${field}`, `expected an object, got ${kindOf(value)}`);
  }
  const entries: Array<[string, string]> = [];
  for (const [key, member] of Object.entries(value)) {
    if (key === "") throw new ShapeError(`${r.at}.${field}`, "has an empty key");
    if (typeof member !== "string") {
      throw new ShapeError(`${r.at}.${field}.${key}`, `expected a string, got ${kindOf(member)}`);
    }
    entries.push([key, member]);
  }
  // Own members, whatever the key: `map["__proto__"] = ...` would set a prototype.
  return Object.fromEntries(entries);
}

/** `value` if it is one of `allowed`; names at most the first 60 characters of anything else. */
export function checkEnum<E extends string>(value: string, at: string, allowed: readonly E[]): E {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ShapeError(at, `unknown value ${JSON.stringify(value.slice(0, 60))}`);
  }
  return value as E;
}

/** A string checked against `pattern`; the message says which rule, without the value. */
export function patternString(
  r: ShapeReader,
  field: string,
  pattern: RegExp,
  rule: string,
): string {
  const value = r.string(field);
  if (!pattern.test(value)) throw new ShapeError(`${r.at}.${field}`, `not ${rule}`);
  return value;
}

/** A string of at most `max` characters. */
export function boundedString(r: ShapeReader, field: string, max: number): string {
  const value = r.string(field);
  if (value.length > max) {
    throw new ShapeError(`${r.at}.${field}`, `longer than ${max} characters (${value.length})`);
  }
  return value;
}

/** The form of a capability on the wire: an enum value name (`CAP_REPO_LIST`). */
const CAPABILITY_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;

/**
 * A list of capabilities, `[]` when absent: each an enum value name. Names outside
 * the SDK's list are kept (the service's enum grows), but not other shapes.
 */
export function capabilityNames(r: ShapeReader, field: string): string[] {
  const names = r.stringArray(field);
  names.forEach((name, index) => {
    if (!CAPABILITY_NAME.test(name)) {
      throw new ShapeError(`${r.at}.${field}[${index}]`, "not a capability name (CAP_...)");
    }
  });
  return names;
}
