/**
 * Secrets of resources, kept out of errors: an identity provider's client secret
 * and a group invite's code are credentials, like tokens. The transport already
 * cleans token-shaped strings and the client's own tokens from whatever the server
 * echoes; these values are not token-shaped, so each collection that carries them
 * wraps its requester with `guardSecrets`, which cleans every error of its calls
 * (message, stack, field and precondition violations, causes) of
 *
 * - the secret values the request itself carried (the client secret sent), and
 * - the value of any JSON key named as secret (`"code": "..."`) in echoed text,
 *   such as the excerpt of a garbled create answer.
 */

import { REDACTED, redact } from "../core/redact";
import type { ApiCall, ApiRequester } from "../core/resource";

export interface SecretRules {
  /** JSON keys whose string values are secret wherever they appear in echoed text. */
  keys: readonly string[];
  /** The secret values carried by a request body. */
  valuesIn?: (body: unknown) => string[];
}

/** Matches `"<key>": "<value>` also when the quotes are escaped (`\"`), as in a quoted excerpt. */
function keyPattern(key: string): RegExp {
  return new RegExp(`(\\\\?"${key}\\\\?"\\s*:\\s*\\\\?")[^"\\\\]*`, "g");
}

/** Secret values at least this long are removed wherever they appear; see `withoutValue`. */
const WHOLE_WORD_BELOW = 4;

/**
 * The forms a value takes in echoed text: as sent, JSON-escaped once (a body echoed in
 * an error message) and twice (that message quoted in an excerpt), longest first. A
 * value holding `"` or `\` shows only escaped once echoed.
 */
function formsOf(value: string): string[] {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([twice, once, value])];
}

/**
 * `text` without `value` in any of its forms. Unlike the transport's token redaction,
 * which skips configured strings under 8 characters, a short client secret is removed
 * too: it is a credential the request carried, however short. Only a form of 1 to 3
 * characters (guessable anyway) is removed just where it stands as a word of its own
 * (no letter or digit on either side), so that it does not mangle every word holding it.
 */
function withoutValue(text: string, value: string): string {
  let result = text;
  for (const form of formsOf(value)) {
    if (form.length >= WHOLE_WORD_BELOW) {
      result = result.split(form).join(REDACTED);
    } else {
      const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      result = result.replace(
        new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, "g"),
        REDACTED,
      );
    }
  }
  return result;
}

/** `text` without the given secret values and without the values of the secret keys. */
function redactSecrets(text: string, values: readonly string[], keys: readonly string[]): string {
  let result = redact(text);
  for (const value of values) if (value !== "") result = withoutValue(result, value);
  for (const key of keys) result = result.replace(keyPattern(key), `$1${REDACTED}`);
  return result;
}

interface Violation {
  field?: unknown;
  description?: unknown;
  subject?: unknown;
}

/** Sets `target[key]` when `text` changed; an accessor without a setter (`DOMException.message`) gets an own value. */
function replaceText(target: object, key: string, text: string, cleaned: string): void {
  if (cleaned === text) return;
  try {
    (target as Record<string, unknown>)[key] = cleaned;
  } catch {
    try {
      Object.defineProperty(target, key, { value: cleaned, configurable: true, writable: true });
    } catch {
      // A frozen object keeps its text; nothing else can be done without replacing it.
    }
  }
}

/** Cleans `error` in place (it keeps its class, code and fields), its causes too. */
function scrubError(
  error: unknown,
  values: readonly string[],
  keys: readonly string[],
  depth = 0,
): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const clean = (text: string) => redactSecrets(text, values, keys);
  replaceText(error, "message", error.message, clean(error.message));
  if (typeof error.stack === "string") replaceText(error, "stack", error.stack, clean(error.stack));
  const fields = error as { fieldViolations?: unknown; preconditionViolations?: unknown };
  for (const list of [fields.fieldViolations, fields.preconditionViolations]) {
    if (!Array.isArray(list)) continue;
    for (const violation of list as Violation[]) {
      for (const key of ["field", "description", "subject"] as const) {
        const text = violation[key];
        if (typeof text === "string") replaceText(violation, key, text, clean(text));
      }
    }
  }
  if (error.cause !== undefined) scrubError(error.cause, values, keys, depth + 1);
  return error;
}

/** A requester whose errors never show the secrets of `rules`. */
export function guardSecrets(client: ApiRequester, rules: SecretRules): ApiRequester {
  return {
    async call(call: ApiCall): Promise<unknown> {
      try {
        return await client.call(call);
      } catch (error) {
        const values = rules.valuesIn?.(call.body) ?? [];
        throw scrubError(error, values, rules.keys);
      }
    },
  };
}
