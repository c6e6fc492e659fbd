/**
 * Reading resource properties that may not be known yet.
 *
 * During `pulumi preview` a property computed from another resource's output has no
 * value. It reaches a policy in one of three ways, and every policy must survive all
 * of them rather than crash:
 * - the property is absent (`undefined`), as the engine drops unknowns from inputs;
 * - it holds one of the engine's unknown sentinels (the dynamic provider's
 *   `04da6b54-...` string among them);
 * - `@pulumi/policy` wraps `args.props` in a proxy that throws `UnknownValueError`
 *   when a sentinel is read.
 */

/** Marks a value that exists but cannot be known before the update runs. */
export const UNKNOWN: unique symbol = Symbol("irm.policy.unknown");
export type Unknown = typeof UNKNOWN;

/**
 * The engine's unknown sentinels, one per value kind (string, boolean, number, array,
 * asset, archive, object). The string one is what a dynamic provider receives.
 */
const UNKNOWN_SENTINELS: ReadonlySet<string> = new Set([
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** True when `value` is one of the engine's unknown sentinels. */
export function isUnknownSentinel(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_SENTINELS.has(value);
}

/**
 * `@pulumi/policy` does not publish the type of `UnknownValueError`, so it is
 * recognised by its class name rather than with `instanceof`.
 */
function isUnknownValueError(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === "UnknownValueError";
}

/**
 * Reads `root[path[0]][path[1]]...`, returning `UNKNOWN` when any step is not known
 * yet and `undefined` when a step is absent or not an object.
 */
export function readPath(root: unknown, ...path: string[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    try {
      current = (current as Record<string, unknown>)[key];
    } catch (error) {
      if (isUnknownValueError(error)) return UNKNOWN;
      throw error;
    }
    if (current === UNKNOWN || isUnknownSentinel(current)) return UNKNOWN;
  }
  return current;
}

/** Like `readPath`, for a string: anything that is not a string reads as `undefined`. */
export function readString(root: unknown, ...path: string[]): string | Unknown | undefined {
  const value = readPath(root, ...path);
  if (value === UNKNOWN) return UNKNOWN;
  return typeof value === "string" ? value : undefined;
}
