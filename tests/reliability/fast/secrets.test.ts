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
import {
  type ConsumerProject,
  createConsumerProject,
  REPO_ROOT,
} from "../../../harness/installed-package";
import { destroy, newStack, refresh, up } from "../../../harness/lifecycle/engine";
import { IrmClient } from "../../../sdk/index";

let emu: TestEmulator;
let project: ConsumerProject;
let ownerUid: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  project = createConsumerProject({
    name: "reliability-secrets",
    programDir: path.join(__dirname, "..", "fixtures", "big-org"),
    requiredSubpaths: [".", "./provider/runtime"],
  });
  ownerUid = JSON.parse(Buffer.from(emu.token.split(".")[1], "base64url").toString("utf8"))
    .sub as string;
});

afterAll(() => emu?.close());

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

const programConfig = () => ({
  "irm:apiUrl": emu.url,
  "big-org:rootUid": emu.rootGroupUid,
  "big-org:issuer": emu.issuer,
  "big-org:teams": "1",
});

describe("through the engine: up, refresh and destroy", () => {
  it("a token given as the Pulumi secret irm:token stays out of state and output", async () => {
    const sentinel = await emu.mintToken(ownerUid, 3600);
    const options = {
      config: { ...programConfig(), "irm:token": sentinel },
      secretKeys: ["irm:token"],
      // LIFECYCLE_DEBUG passes the provider host's stderr through into the run's log.
      env: { IRM_DEBUG: "1", LIFECYCLE_DEBUG: "1" },
    };
    // Some 503s, so that the debug log has retries to report.
    await emu.fault({ match: { method: "POST" }, status: 503, count: 3 });
    const created = await up(project.dir, newStack(project.dir), options);
    expect(created.error, created.log).toBeUndefined();
    expect(created.state.resources).toHaveLength(5);
    expect(created.log).toMatch(/retry/i);
    const refreshed = await refresh(project.dir, created.state, options);
    const destroyed = await destroy(project.dir, refreshed.state, options);
    expect(destroyed.error).toBeUndefined();

    const providers = created.state.resources.map((r) => String(r.inputs.__provider));
    expect(providers.every((text) => text.includes("pulumi-irm/provider/runtime"))).toBe(true);
    expectNoSecret(sentinel, {
      "state after up": JSON.stringify(created.state),
      "state after refresh": JSON.stringify(refreshed.state),
      "the serialized providers": providers.join("\n"),
      "the output of up": created.log,
    });
  });

  it("a token given as IRM_TOKEN stays out of state and output", async () => {
    const sentinel = await emu.mintToken(ownerUid, 3600);
    const options = {
      config: programConfig(),
      env: { IRM_TOKEN: sentinel, IRM_DEBUG: "1", LIFECYCLE_DEBUG: "1" },
    };
    await emu.fault({ match: { method: "GET" }, status: 503, count: 2 });
    const created = await up(project.dir, newStack(project.dir), options);
    expect(created.error, created.log).toBeUndefined();
    const destroyed = await destroy(project.dir, created.state, options);
    expect(destroyed.error).toBeUndefined();
    expectNoSecret(sentinel, {
      state: JSON.stringify(created.state),
      "the output of up": created.log,
    });
  });

  it("a refused token stays out of the error and the output of the failed run", async () => {
    for (const sentinel of [
      "sentinel-not-a-jwt-5b0c7a1e9d2f4c3b8a6e",
      // A well-formed token the service refuses (expired on its clock).
      await emu.mintToken(ownerUid, 1),
    ]) {
      await emu.advanceClock(5);
      const result = await up(project.dir, newStack(project.dir), {
        config: { ...programConfig(), "irm:token": sentinel },
        secretKeys: ["irm:token"],
        env: { IRM_DEBUG: "1", LIFECYCLE_DEBUG: "1" },
      });
      expect(result.error).toMatch(/Unauthenticated|UNAUTHENTICATED/);
      expectNoSecret(sentinel, {
        "the error": result.error ?? "",
        "the output": result.log,
        state: JSON.stringify(result.state),
      });
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
