/**
 * Start-up: the Pulumi program (`pulumi-irm`), the provider host (`pulumi-irm/provider/
 * runtime`) and the SDK load undici and p-retry only when a request needs them
 * (`sdk/core/lazy-modules.ts`); undici alone is about 150 ms of every preview. The
 * program and the provider host read a static token's `exp` (to refuse a malformed or
 * expired one in preview without a request) with the SDK's own decoder, not jose's
 * (`jwtClaims`): jose is never loaded. Each case
 * runs in a fresh node process on the built package (`dist/`), as the engine loads it,
 * and lists the dependencies found in `require.cache`.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, REPO_ROOT } from "../../harness/installed-package";

const DIST = path.join(REPO_ROOT, "dist");

/** Prints, as JSON, the request-only dependencies the process has loaded so far. */
const LOADED = `
  const loaded = () => [...new Set(Object.keys(require.cache).flatMap((file) => {
    const match = /[\\\\/]node_modules[\\\\/](undici|p-retry|jose)[\\\\/]/.exec(file);
    return match ? [match[1]] : [];
  }))].sort();
`;

/** Runs `body` (an async function body that may use `loaded()` and `dist`) in a fresh node. */
function run(body: string): unknown {
  const script = `${LOADED}
    const dist = ${JSON.stringify(DIST)};
    (async () => { ${body} })().then(
      (result) => process.stdout.write(JSON.stringify(result)),
      (error) => { console.error(error); process.exit(1); },
    );`;
  const child = spawnSync(process.execPath, ["-e", script], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    timeout: 50_000,
  });
  expect(child.stderr).toBe("");
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout);
}

const ROOT = "a".repeat(40);
const GROUP = `${ROOT}/${"1".repeat(16)}`;

describe("request-only dependencies load on the first request", () => {
  // The built package is what the engine loads: rebuilt here when a source is newer.
  beforeAll(() => ensureBuilt());

  it("importing the program's entry loads none of them", () => {
    expect(run(`require(dist + "/provider/index.js"); return loaded();`)).toEqual([]);
  });

  it("the provider host loads none of them for a plan of an unchanged resource, token check included", () => {
    // A JWT of payload {"exp":4102444800} (2100), unsigned: only its shape and exp are read.
    const token = "eyJhbGciOiJub25lIn0.eyJleHAiOjQxMDI0NDQ4MDB9.";
    const result = run(`
      const runtime = require(dist + "/provider/runtime.js");
      const config = { "irm:apiUrl": "https://api.example.test", "irm:token": ${JSON.stringify(token)} };
      await runtime.configure({ config: { get: (key) => config[key], require: (key) => config[key] } });
      const inputs = { parentUid: ${JSON.stringify(ROOT)}, name: "platform", description: "" };
      const state = {
        ...inputs, uid: ${JSON.stringify(GROUP)}, verified: false, resourceLimits: {},
        createTime: "2026-11-21T10:00:00.000Z", updateTime: "2026-11-21T10:00:00.000Z",
      };
      const checked = await runtime.group.check(state, inputs);
      const diff = await runtime.group.diff(${JSON.stringify(GROUP)}, state, checked.inputs);
      return { failures: checked.failures ?? [], diff, loaded: loaded() };
    `);
    expect(result).toEqual({ failures: [], diff: { changes: false }, loaded: [] });
  });

  it("an SDK client loads them only when it reads a token or sends a request", () => {
    const result = run(`
      const sdk = require(dist + "/sdk/index.js");
      const seen = { imported: loaded() };
      // Port 1 on loopback: refused at once, no retry.
      const client = new sdk.IrmClient({
        baseUrl: "http://127.0.0.1:1", token: "t0k3n", retry: { retries: 0 }, env: {},
      });
      seen.constructed = loaded();
      sdk.tokenExpiry("not-a-jwt");
      seen.tokenRead = loaded();
      const failure = await client.iam.groups.get(${JSON.stringify(GROUP)}).catch((error) => error);
      seen.failure = failure.name;
      seen.requested = loaded();
      await client.close();
      return seen;
    `);
    expect(result).toEqual({
      imported: [],
      constructed: [],
      tokenRead: [],
      failure: "ConnectionError",
      requested: ["p-retry", "undici"],
    });
  });
});
