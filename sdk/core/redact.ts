/**
 * Removal of credentials from any text the SDK may print: error messages echoed
 * by the server, bodies of unexpected responses, log events.
 */

/** A compact JWS (three base64url parts, header starting `eyJ`), the shape of every token here. */
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** Whatever follows `Bearer ` in an echoed header. */
const BEARER_PATTERN = /(bearer\s+)[^\s"',;]+/gi;

export const REDACTED = "[REDACTED]";

/** Shortest configured secret worth searching for; shorter strings would redact innocent text. */
const MIN_SECRET_LENGTH = 8;

/** Replaces every token-looking string, and each of `secrets`, in `text`. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) result = result.split(secret).join(REDACTED);
  }
  return result.replace(JWT_PATTERN, REDACTED).replace(BEARER_PATTERN, `$1${REDACTED}`);
}
