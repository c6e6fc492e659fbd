import { describe, expect, it } from "vitest";
import {
  cachedTokenSource,
  jwtClaims,
  staticToken,
  type TokenSourceContext,
  tokenExpiry,
} from "../../sdk/auth/token-source";
import type { SdkEvent } from "../../sdk/core/events";
import { failure } from "../support/sdk-helpers";

/** An unsigned JWT with the given `exp` (seconds); the SDK never verifies tokens itself. */
function jwt(exp: number, serial: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "ES256", typ: "JWT" })}.${part({ sub: "x", exp, n: serial })}.c2ln`;
}

function harness(options: { failFrom?: number } = {}) {
  let nowMs = 1_000_000_000_000;
  let fetches = 0;
  const events: SdkEvent[] = [];
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const source = cachedTokenSource(
    async () => {
      fetches++;
      if (gate) await gate;
      if (options.failFrom !== undefined && fetches >= options.failFrom) {
        throw new Error("issuer down");
      }
      return jwt(Math.floor(nowMs / 1000) + 3600, fetches);
    },
    { description: "test", refreshAheadMs: 60_000, now: () => nowMs },
  );
  const context: TokenSourceContext = {
    authUrl: "https://auth",
    audience: "https://api",
    postForm: async () => ({}),
    log: (event) => events.push(event),
  };
  return {
    source,
    context,
    events,
    fetches: () => fetches,
    advance: (ms: number) => {
      nowMs += ms;
    },
    hold: () => {
      gate = new Promise((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
    },
    release: () => release?.(),
  };
}

describe("cachedTokenSource", () => {
  it("fetches once and serves the cached token until close to exp", async () => {
    const h = harness();
    const first = await h.source.getToken({ context: h.context });
    h.advance(3600_000 - 61_000); // 61 s before exp: still fresh
    expect(await h.source.getToken({ context: h.context })).toBe(first);
    expect(h.fetches()).toBe(1);

    h.advance(2_000); // within the 60 s refresh window
    const second = await h.source.getToken({ context: h.context });
    expect(second).not.toBe(first);
    expect(h.fetches()).toBe(2);
    expect(h.events.map((e) => e.type === "token-refresh" && e.reason)).toEqual([
      "initial",
      "expiring",
    ]);
  });

  it("shares one refresh between concurrent callers", async () => {
    const h = harness();
    h.hold();
    const waiting = Array.from({ length: 5 }, () => h.source.getToken({ context: h.context }));
    h.release();
    const tokens = await Promise.all(waiting);
    expect(new Set(tokens).size).toBe(1);
    expect(h.fetches()).toBe(1);
  });

  it("refreshes a rejected token once, even when several callers report it", async () => {
    const h = harness();
    const rejected = await h.source.getToken({ context: h.context });
    const replacements = await Promise.all(
      Array.from({ length: 4 }, () =>
        h.source.getToken({ context: h.context, rejectedToken: rejected }),
      ),
    );
    expect(new Set(replacements).size).toBe(1);
    expect(replacements[0]).not.toBe(rejected);
    expect(h.fetches()).toBe(2);
    // A caller reporting the old token after the refresh gets the new one without a fetch.
    expect(await h.source.getToken({ context: h.context, rejectedToken: rejected })).toBe(
      replacements[0],
    );
    expect(h.fetches()).toBe(2);
  });

  it("keeps a still-valid token when an early refresh fails, and reports it", async () => {
    const h = harness({ failFrom: 2 });
    const first = await h.source.getToken({ context: h.context });
    h.advance(3600_000 - 30_000);
    expect(await h.source.getToken({ context: h.context })).toBe(first);
    expect(h.events.at(-1)).toMatchObject({ type: "token-refresh-failed", usingCachedToken: true });
    h.advance(60_000); // now expired: the failure surfaces
    await expect(h.source.getToken({ context: h.context })).rejects.toThrow("issuer down");
  });

  it("lets one caller abandon a shared refresh without failing the others", async () => {
    const h = harness();
    h.hold();
    const controller = new AbortController();
    const abandoned = h.source.getToken({ context: h.context, signal: controller.signal });
    const patient = h.source.getToken({ context: h.context });
    controller.abort(new Error("caller cancelled"));
    await expect(abandoned).rejects.toThrow("caller cancelled");
    h.release();
    expect(await patient).toMatch(/^eyJ/);
  });

  it("never puts the token in its events", async () => {
    const h = harness();
    const token = await h.source.getToken({ context: h.context });
    await h.source.getToken({ context: h.context, rejectedToken: token });
    expect(JSON.stringify(h.events)).not.toContain(String(token).split(".")[1]);
  });

  it("ends a shared fetch when its client closes; another client's caller asks anew", async () => {
    const fetchedFor: string[] = [];
    const source = cachedTokenSource(
      async ({ context, signal }) => {
        fetchedFor.push(context.audience);
        if (context.audience === "https://b") return "token-of-b";
        // The first client's exchange never answers: only that client's close ends it.
        return new Promise<string>((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      },
      { description: "shared" },
    );
    const contextOf = (audience: string, signal: AbortSignal): TokenSourceContext => ({
      authUrl: "https://auth",
      audience,
      postForm: async () => ({}),
      log: () => {},
      signal,
    });
    const closeA = new AbortController();
    const a = contextOf("https://a", closeA.signal);
    const b = contextOf("https://b", new AbortController().signal);
    const callerOfA = failure(source.getToken({ context: a }));
    const callerOfB = source.getToken({ context: b }); // joins the fetch begun for a
    closeA.abort(new DOMException("IrmClient closed", "AbortError"));
    expect(await callerOfA).toMatchObject({ name: "AbortError", message: "IrmClient closed" });
    expect(await callerOfB).toBe("token-of-b");
    expect(fetchedFor).toEqual(["https://a", "https://b"]);
  });
});

describe("staticToken", () => {
  it("is not refreshable and does not reveal its token when inspected", async () => {
    const source = staticToken("a-static-secret-value");
    expect(source.refreshable).toBe(false);
    expect(JSON.stringify(source)).not.toContain("a-static-secret-value");
    expect(String(source)).not.toContain("a-static-secret-value");
  });
});

describe("jwtClaims", () => {
  const part = (text: string) => Buffer.from(text).toString("base64url");

  it("reads the payload of a compact JWT, padded or not, with or without a signature", () => {
    expect(jwtClaims(jwt(2_000_000_000, 7))).toEqual({ sub: "x", exp: 2_000_000_000, n: 7 });
    expect(jwtClaims(`${part("{}")}.${part('{"a":1}')}=.`)).toEqual({ a: 1 });
  });

  it("refuses what is no compact JWT with a JSON object as its payload", () => {
    for (const token of [
      "opaque",
      "a.b",
      `${part("{}")}..c2ln`,
      `${part("{}")}.${part("{}")}.c.d.e`,
      `${part("{}")}.${part("[1]")}.c2ln`,
      `${part("{}")}.${part("null")}.c2ln`,
      `${part("{}")}.${part("not json")}.c2ln`,
      `${part("{}")}.e30+/.c2ln`,
    ]) {
      expect(() => jwtClaims(token), token).toThrow();
    }
  });
});

describe("tokenExpiry", () => {
  it("reads exp from a JWT and ignores opaque tokens", () => {
    expect(tokenExpiry(jwt(2_000_000_000, 1))).toBe(2_000_000_000_000);
    expect(tokenExpiry("opaque")).toBeUndefined();
  });
});
