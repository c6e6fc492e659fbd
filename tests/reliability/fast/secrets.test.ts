/**
 * Secrets in the SDK: a sentinel token must appear in nothing the SDK prints or throws,
 * also when the server echoes the token back, and in nothing a process using
 * `IRM_TOKEN` with `IRM_DEBUG=1` prints. The same through the engine (state, the
 * serialized providers, the provider host's output): tests/engine/options.test.ts
 * (`irm:token`) and tests/engine/github-actions.test.ts (`IRM_TOKEN`).
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../harness/installed-package";
import { IrmClient } from "../../../sdk/index";
import { expectNoSecret } from "../../support/no-secret";

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
