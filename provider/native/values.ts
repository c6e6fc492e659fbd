/**
 * Property values as the engine sends them (a protobuf `Struct` turned into plain
 * JavaScript) and as the handlers take them. The engine marks two kinds of value with a
 * signature key: a secret (`{ <sig>: SECRET_SIG, value }`) and, in preview, a value not
 * known yet (the string {@link UNKNOWN}, which the handlers already let through).
 * The handlers see plain values; which top-level properties were secret is kept aside
 * and put back on the way out, so a secret input stays a secret in every answer.
 */

/** The key that marks a special value. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** A value the engine does not know yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Plain = Record<string, unknown>;

function isSecret(value: unknown): value is { value?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/** `value` with every secret envelope replaced by its content; `found` set when there was one. */
function unwrap(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => unwrap(item, found));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, unwrap(item, found)]),
    );
  }
  return value;
}

/**
 * The plain properties, and the names of the top-level properties that held a secret
 * anywhere inside them.
 */
export function unwrapSecrets(props: Plain | undefined): { plain: Plain; secrets: Set<string> } {
  const plain: Plain = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(props ?? {})) {
    const found = { secret: false };
    plain[key] = unwrap(value, found);
    if (found.secret) secrets.add(key);
  }
  return { plain, secrets };
}

/** `props` with the named top-level properties (those present) wrapped as secrets. */
export function wrapSecrets(props: Plain, secrets: Iterable<string>): Plain {
  const out: Plain = { ...props };
  for (const key of secrets) {
    if (out[key] !== undefined && !isSecret(out[key])) {
      out[key] = { [SIG_KEY]: SECRET_SIG, value: out[key] };
    }
  }
  return out;
}

/** Drops the properties whose value is `undefined` (a Struct cannot hold them). */
export function defined(props: object): Plain {
  return Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
}
