/**
 * `expectNoSecret(sentinel, places)`: fails naming the place (state, a run's output,
 * an error) where a secret, or for a JWT its signature alone, was found.
 * `withoutDebug(output)`: a real-engine run's output without debug diagnostics.
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

/**
 * A run's output without the engine events of debug diagnostics, which the CLI shows
 * only under `--debug`: there `@pulumi/pulumi` itself logs each RegisterResource
 * response whole, the plaintext of its secret outputs included, whatever the provider
 * (a run that runs the program: `up`, `preview`, not `refresh`).
 */
export function withoutDebug(output: string): string {
  return output
    .split("\n")
    .filter((line) => {
      if (!line.startsWith("{")) return true;
      try {
        const event = JSON.parse(line) as { diagnosticEvent?: { severity?: string } };
        return event.diagnosticEvent?.severity !== "debug";
      } catch {
        return true;
      }
    })
    .join("\n");
}
