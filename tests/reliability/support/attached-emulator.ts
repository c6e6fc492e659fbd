/**
 * A `TestEmulator` for an emulator this process did not start (the emulator CLI run as a
 * child process, from its bootstrap file), so that an engine stack can deploy to it and
 * read its request log. Its address and keys survive a restart on the same port and
 * `--data` file, so the handle stays valid across restarts. `close` does nothing: the
 * process belongs to whoever started it.
 */
import type { Bootstrap, LogEntry, SeedResult, TestEmulator } from "../../support/emulator";

export function attachEmulator(bootstrap: Bootstrap): TestEmulator {
  const url = bootstrap.apiUrl;

  async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${url}/emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `emulator control ${method} /emulator/${path} failed: ${response.status} ${text}`,
      );
    }
    return JSON.parse(text) as T;
  }

  return {
    url,
    bootstrap,
    token: bootstrap.token,
    rootGroupUid: bootstrap.rootGroupUid,
    issuer: bootstrap.issuer,
    requests: async () => (await control<{ requests: LogEntry[] }>("GET", "requests")).requests,
    clearRequests: async () => {
      await control("DELETE", "requests");
    },
    fault: async (spec) => (await control<{ id: string }>("POST", "faults", spec)).id,
    clearFaults: async () => {
      await control("DELETE", "faults");
    },
    advanceClock: async (seconds) =>
      (await control<{ now: string }>("POST", "clock", { advanceSeconds: seconds })).now,
    seed: (body) => control<SeedResult>("POST", "seed", body),
    mintToken: async (identityUid, ttlSeconds) =>
      (await control<{ token: string }>("POST", "tokens", { identityUid, ttlSeconds })).token,
    oidcToken: async (subject, options = {}) => {
      const response = await fetch(`${bootstrap.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ subject, ...options }),
      });
      if (!response.ok) throw new Error(`OIDC test issuer answered ${response.status}`);
      return ((await response.json()) as { token: string }).token;
    },
    rateLimit: async (requestsPerSecond, retryAfter) => {
      await control("POST", "rate-limit", { requestsPerSecond, retryAfter });
    },
    close: async () => {},
  };
}
