/**
 * Secrets: a sentinel token configured as a Pulumi secret (`irm:token`) or as the
 * `IRM_TOKEN` environment variable must appear nowhere in state (the serialized
 * providers included), in the program's or the provider host's output (with
 * `IRM_DEBUG=1` too), in error messages, or in anything the SDK prints or throws —
 * also when the server echoes the token back.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { REPO_ROOT } from "../../../harness/installed-package";
import { IrmClient } from "../../../sdk/index";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  type RunOutcome,
} from "../../support/engine-stack";
import { FIXTURES } from "../../support/reliability/org";

/** Fails naming where the sentinel (or its signature, for a JWT) was found. */
function expectNoSecret(sentinel: string, places: Record<string, string>): void {
  // A JWT's signature alone is as identifying as the whole token.
  const signature = sentinel.split(".")[2] ?? "";
  const needles = signature.length >= 40 ? [sentinel, signature] : [sentinel];
  for (const [where, text] of Object.entries(places)) {
    for (const needle of needles) {
      expect(text.includes(needle), `the secret appears in ${where}`).toBe(false);
    }
  }
}

// Several engine runs per test, each a CLI, a language host and a provider host.
describeOnEngine("through the engine: up, refresh and destroy", { timeout: 400_000 }, () => {
  let emu: TestEmulator;
  let ownerUid: string;
  const stacks: EngineStack[] = [];

  beforeAll(async () => {
    emu = await startTestEmulator();
    ownerUid = JSON.parse(Buffer.from(emu.token.split(".")[1], "base64url").toString("utf8"))
      .sub as string;
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.dispose();
    await emu?.close();
  });

  /** A one-team stack of the reliability fixture; IRM_DEBUG=1 makes the provider log. */
  async function bigOrg(name: string, env: Record<string, string> = {}, tokenFromEnv = false) {
    const stack = await createEngineStack({
      name,
      program: FIXTURES.bigOrg,
      emulator: emu,
      projectConfig: { rootUid: emu.rootGroupUid, issuer: emu.issuer, teams: "1" },
      env: { IRM_DEBUG: "1", ...env },
      tokenFromEnv,
    });
    stacks.push(stack);
    return stack;
  }

  /** Everything a user could see or keep: what each run printed, state, files on disk. */
  async function everything(
    stack: EngineStack,
    runs: RunOutcome[],
  ): Promise<Record<string, string>> {
    return {
      "the runs' output and events": runs.map((run) => run.output).join("\n"),
      "the runs' errors": runs.map((run) => run.error ?? "").join("\n"),
      "state (stack export)": JSON.stringify(await stack.resources()),
      "state, backups, history, logs and config on disk": stack.persistedText(),
    };
  }

  /** One stack for the tokens given in config: each test sets the one it tries. */
  let configStack: Promise<EngineStack> | undefined;
  const withConfigToken = () => {
    configStack ??= bigOrg("secrets-config");
    return configStack;
  };

  it("a token given as the Pulumi secret irm:token stays out of state and output", async () => {
    const sentinel = await emu.mintToken(ownerUid, 3600);
    const stack = await withConfigToken();
    await stack.setConfig("irm:token", sentinel, true);
    // Some 503s, so that the debug log has retries to report.
    await emu.fault({ match: { method: "POST" }, status: 503, count: 3 });
    // Each run without its preview: a preview runs the same program and provider code
    // (a refresh's reads the same objects, a destroy's calls the provider not at
    // all), and what is checked here is what the runs that send requests print.
    const created = await stack.up({ skipPreview: true });
    expect(created.error, created.output).toBeUndefined();
    const resources = await stack.resources();
    expect(resources).toHaveLength(5);
    // The provider host's debug log reached the engine's output: what is checked is real.
    expect(created.output).toMatch(/retry/i);
    const providers = resources.map((r) => String(r.inputs.__provider));
    expect(providers.every((text) => text.includes("pulumi-irm/provider/runtime"))).toBe(true);
    const refreshed = await stack.refresh({ skipPreview: true });
    expect(refreshed.error).toBeUndefined();
    const afterRefresh = await everything(stack, [created, refreshed]);
    const destroyed = await stack.destroy({ skipPreview: true });
    expect(destroyed.error).toBeUndefined();
    expectNoSecret(sentinel, {
      ...afterRefresh,
      "the serialized providers": providers.join("\n"),
      "the output of destroy": destroyed.output,
    });
  });

  it("a token given as IRM_TOKEN stays out of state and output", async () => {
    const sentinel = await emu.mintToken(ownerUid, 3600);
    const stack = await bigOrg("secrets-env", { IRM_TOKEN: sentinel }, true);
    await emu.fault({ match: { method: "GET" }, status: 503, count: 2 });
    const created = await stack.up({ skipPreview: true });
    expect(created.error, created.output).toBeUndefined();
    expect(await stack.resources()).toHaveLength(5);
    // The provider was handed the token from the environment, not from config.
    expect(stack.persistedText()).not.toContain("irm:token");
    expectNoSecret(sentinel, await everything(stack, [created]));
  });

  it("a refused token stays out of the error and the output of the failed run", async () => {
    const stack = await withConfigToken();
    for (const sentinel of [
      "sentinel-not-a-jwt-5b0c7a1e9d2f4c3b8a6e",
      // A well-formed token the service refuses (expired on its clock).
      await emu.mintToken(ownerUid, 1),
    ]) {
      await emu.advanceClock(5);
      await stack.setConfig("irm:token", sentinel, true);
      const result = await stack.up();
      // Not a JWT, or past its exp: refused before any request, naming irm:token; else
      // by the API (expired on its clock).
      expect(result.error).toMatch(
        /Unauthenticated|UNAUTHENTICATED|irm:token is not an API token|irm:token expired at/,
      );
      expectNoSecret(sentinel, await everything(stack, [result]));
    }
  });
});

describe("in the SDK's errors and output", () => {
  let echo: Server;
  let echoUrl: string;

  beforeAll(async () => {
    // A server that echoes the Authorization header back in every kind of answer.
    echo = createServer((req, res) => {
      const header = req.headers.authorization ?? "";
      const kind = (req.url ?? "").split("/")[3];
      if (kind === "html") {
        res.writeHead(502, { "content-type": "text/html" });
        res.end(`<html><body>bad gateway for ${header}</body></html>`);
      } else if (kind === "truncated") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`{"uid": "${header}", "na`);
      } else {
        res.writeHead(kind === "unavailable" ? 503 : 403, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            code: kind === "unavailable" ? 14 : 7,
            message: `Permission denied: caller presented ${header}`,
            details: [
              {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                reason: "PERMISSION_DENIED",
                domain: "iam.example",
                metadata: { presented: header },
              },
            ],
          }),
        );
      }
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });

  afterAll(
    () =>
      new Promise<void>((resolve) => {
        echo.close(() => resolve());
        echo.closeAllConnections();
      }),
  );

  it("errors of every kind never carry the token, even when the server echoes it", async () => {
    const sentinel = "sentinel-sdk-token-0c4f2b9e7a1d";
    const events: unknown[] = [];
    const client = new IrmClient({
      baseUrl: echoUrl,
      token: sentinel,
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
      logger: (event) => events.push(event),
    });
    const failures: unknown[] = [];
    for (const kind of ["denied", "unavailable", "html", "truncated"]) {
      failures.push(
        await client.iam.groups
          .get(`0123456789abcdef0123456789abcdef01234567/${kind}`)
          .catch((e: unknown) => e),
        await client.iam.groups
          .create(`0123456789abcdef0123456789abcdef01234567/${kind}`, { name: "x" })
          .catch((e: unknown) => e),
      );
    }
    // A connection that fails outright, and a timeout.
    const refused = new IrmClient({
      baseUrl: "http://127.0.0.1:9",
      token: sentinel,
      retry: { retries: 0 },
    });
    failures.push(await refused.iam.groups.list().catch((e: unknown) => e));
    await refused.close();
    expect(failures.every((f) => f instanceof Error)).toBe(true);

    const rendered = failures.flatMap((f) => [
      String(f),
      JSON.stringify(f),
      inspect(f, { depth: 10, showHidden: true }),
      (f as Error).stack ?? "",
    ]);
    expectNoSecret(sentinel, {
      "error messages, JSON, inspection and stacks": rendered.join("\n"),
      "logger events": JSON.stringify(events),
      "the client's own printout": `${JSON.stringify(client)} ${inspect(client, { showHidden: true, depth: 5 })}`,
    });
    await client.close();
  });

  it("a process using IRM_TOKEN with IRM_DEBUG=1 prints nothing of it, whatever fails", async () => {
    const sentinel = "sentinel-env-token-8e1a5c3f0b9d";
    const script = `
      const { IrmClient } = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "sdk", "index.js"))});
      (async () => {
        const client = new IrmClient({ retry: { retries: 2, minDelayMs: 1, maxDelayMs: 1 } });
        console.log("client", JSON.stringify(client));
        for (const uid of ["a/denied", "a/unavailable", "a/html"]) {
          try { await client.iam.groups.get(uid); } catch (error) { console.error(error); console.log(String(error)); }
        }
        await client.close();
      })();
    `;
    // Asynchronous: the echo server answering it lives in this process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, ["-e", script], {
          env: { ...process.env, IRM_API_URL: echoUrl, IRM_TOKEN: sentinel, IRM_DEBUG: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
        });
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
        });
        child.once("error", reject);
        child.once("close", (status) => resolve({ status, stdout, stderr }));
      },
    );
    expect(run.status).toBe(0);
    // The run did fail and did log: the checks below look at real output.
    expect(run.stdout).toMatch(/PermissionDenied|Permission denied/);
    expect(run.stderr).toMatch(/retry/i);
    expectNoSecret(sentinel, { stdout: run.stdout, stderr: run.stderr });
  });
});
