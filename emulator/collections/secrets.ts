/**
 * Secrets the API takes or makes (identity providers' client secrets, invite codes) are
 * kept only as salted SHA-256 digests: the `--data` file, the request log and error text
 * never hold one, and a digest cannot be looked up in a table of common secrets or
 * compared between objects. Data written before salting (a bare SHA-256 in hex) stays
 * readable: {@link secretMatches} accepts both forms.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const SALTED = /^sha256-salted:([A-Za-z0-9_-]{22}):([0-9a-f]{64})$/;
const UNSALTED = /^[0-9a-f]{64}$/;

function sha256Hex(salt: Buffer, secret: string): string {
  return createHash("sha256").update(salt).update(secret, "utf8").digest("hex");
}

/** `sha256-salted:<16 random bytes, base64url>:<SHA-256 of salt and secret, hex>`. */
export function secretDigest(secret: string): string {
  const salt = randomBytes(16);
  return `sha256-salted:${salt.toString("base64url")}:${sha256Hex(salt, secret)}`;
}

/** Whether `digest` (salted, or the bare SHA-256 of older data) is that of `secret`. */
export function secretMatches(digest: string, secret: string): boolean {
  const salted = SALTED.exec(digest);
  const expected = salted
    ? sha256Hex(Buffer.from(salted[1], "base64url"), secret)
    : UNSALTED.test(digest)
      ? sha256Hex(Buffer.alloc(0), secret)
      : undefined;
  const actual = salted ? salted[2] : digest;
  return expected !== undefined && timingSafeEqual(Buffer.from(expected), Buffer.from(actual));
}

/** A new invite code: 32 random bytes in base64url (43 characters). */
export function newInviteCode(): string {
  return randomBytes(32).toString("base64url");
}
