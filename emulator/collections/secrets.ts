/**
 * Secrets the API takes or makes (identity providers' client secrets, invite codes) are
 * kept only as SHA-256 digests: the `--data` file, the request log and error text never
 * hold one.
 */
import { createHash, randomBytes } from "node:crypto";

/** SHA-256 of `secret`, lowercase hex. */
export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** A new invite code: 32 random bytes in base64url (43 characters). */
export function newInviteCode(): string {
  return randomBytes(32).toString("base64url");
}
