/**
 * `expectNoSecret(sentinel, places)`: fails naming the place (state, a run's output,
 * an error) where a secret, or for a JWT its signature alone, was found.
 */
import { expect } from "vitest";

/** Fails naming where the sentinel (or its signature, for a JWT) was found. */
export function expectNoSecret(sentinel: string, places: Record<string, string>): void {
  // A JWT's signature alone is as identifying as the whole token.
  const signature = sentinel.split(".")[2] ?? "";
  const needles = signature.length >= 40 ? [sentinel, signature] : [sentinel];
  for (const [where, text] of Object.entries(places)) {
    for (const needle of needles) {
      expect(text.includes(needle), `the secret appears in ${where}`).toBe(false);
    }
  }
}
