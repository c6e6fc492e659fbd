/**
 * The test controls mint owner tokens: they answer only this machine. A `Host` that is
 * a DNS name other than localhost (a page that rebinds its name to 127.0.0.1), an
 * `Origin` of another site, and, on `--host 0.0.0.0`, a caller beyond loopback are
 * refused (PERMISSION_DENIED naming the rule). `--open-controls` lifts the Host and
 * peer rules (a container driven by its service name), never the Origin rule. The API
 * itself is unaffected.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import * as http2 from "node:http2";
import * as os from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descriptorFilePath } from "../../emulator/grpc/descriptors";
import { startEmulator } from "../../emulator/index";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { startCliWithBootstrap, stopCleanly } from "../support/emulator-cli";

interface Answer {
  status: number;
  body: string;
}

/** One HTTP request with the headers given as they are (fetch forbids setting Host). */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
});
afterAll(async () => {
  await emu?.close();
});

const mint = (url: string, headers: Record<string, string> = {}, identityUid = "") =>
  send(
    url,
    "POST",
    "/emulator/tokens",
    { "content-type": "application/json", ...headers },
    JSON.stringify({ identityUid }),
  );

describe("the controls answer only this machine", () => {
  it("a Host naming another site (DNS rebinding): PERMISSION_DENIED, no token", async () => {
    for (const host of ["attacker.example", "attacker.example:8787", "127.0.0.1.nip.example"]) {
      const answer = await mint(emu.url, { host });
      expect(answer.status, host).toBe(403);
      expect(answer.body).toContain("Host that is an IP address or localhost");
      expect(answer.body).not.toContain('"token"');
    }
    const log = await send(emu.url, "GET", "/emulator/requests", { host: "attacker.example" });
    expect(log.status).toBe(403);
  });

  it("a Host under .localhost is not loopback: a resolver may send it to DNS", async () => {
    const port = new URL(emu.url).port;
    for (const host of [`app.localhost:${port}`, "localhost.attacker.example"]) {
      const answer = await mint(emu.url, { host });
      expect(answer.status, host).toBe(403);
      expect(answer.body).toContain("Host that is an IP address or localhost");
    }
  });

  it("an Origin of another site: PERMISSION_DENIED", async () => {
    for (const origin of ["https://attacker.example", "null", "http://attacker.localhost:3000"]) {
      const answer = await send(emu.url, "GET", "/emulator/requests", { origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.body).toContain("another origin");
    }
  });

  it("loopback Host and Origin are answered; the API is unaffected by the rule", async () => {
    const port = new URL(emu.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await send(emu.url, "GET", "/emulator/requests", { host })).status, host).toBe(200);
    }
    const fromLocalPage = await send(emu.url, "GET", "/emulator/requests", {
      origin: "http://localhost:3000",
    });
    expect(fromLocalPage.status).toBe(200);
    const api = await send(emu.url, "GET", "/iam/v2beta1/groups", {
      host: "api.example",
      authorization: `Bearer ${emu.token}`,
    });
    expect(api.status).toBe(200);
  });
});

/** One plaintext HTTP/2 (h2c) request with the pseudo-headers and headers given. */
async function sendH2(url: string, headers: http2.OutgoingHttpHeaders): Promise<Answer> {
  const session = http2.connect(url);
  try {
    return await new Promise<Answer>((resolve, reject) => {
      session.once("error", reject);
      const stream = session.request(headers);
      let status = 0;
      let text = "";
      stream.setEncoding("utf8");
      stream.on("response", (h) => {
        status = Number(h[":status"]);
      });
      stream.on("data", (chunk: string) => {
        text += chunk;
      });
      stream.on("end", () => resolve({ status, body: text }));
      stream.on("error", reject);
      stream.end();
    });
  } finally {
    session.close();
  }
}

describe.runIf(descriptorFilePath() !== undefined || Boolean(process.env.CI))(
  "over HTTP/2 (h2c) the rules read :authority",
  () => {
    it("an :authority of another site is refused, whatever host header comes with it", async () => {
      const port = new URL(emu.url).port;
      for (const headers of [
        { ":authority": "attacker.example" },
        { ":authority": "attacker.example", host: `127.0.0.1:${port}` },
        { ":authority": `127.0.0.1:${port}`, host: "attacker.example" },
      ]) {
        const answer = await sendH2(emu.url, {
          ":method": "GET",
          ":path": "/emulator/requests",
          ...headers,
        });
        expect(answer.status, JSON.stringify(headers)).toBe(403);
      }
    });

    it("a loopback :authority is answered, as a loopback Host is over HTTP/1.1", async () => {
      const answer = await sendH2(emu.url, { ":method": "GET", ":path": "/emulator/requests" });
      expect(answer.status).toBe(200);
    });
  },
);

describe("POST /oidc/token answers the callers the controls answer", () => {
  const mintOidc = (url: string, headers: Record<string, string> = {}) =>
    send(
      url,
      "POST",
      "/oidc/token",
      { "content-type": "application/json", ...headers },
      JSON.stringify({ subject: "someone" }),
    );

  it("from this machine: a token", async () => {
    const answer = await mintOidc(emu.url);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"token"');
  });

  it("a Host of another site (DNS rebinding) or a web page of another origin: PERMISSION_DENIED, no token", async () => {
    const refusedHeaders: Record<string, string>[] = [
      { host: "attacker.example" },
      { host: "app.localhost" },
      { origin: "https://attacker.example" },
    ];
    for (const headers of refusedHeaders) {
      const answer = await mintOidc(emu.url, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).toContain("the test issuer's token endpoint");
      expect(answer.body).not.toContain('"token"');
    }
    // However the path is spelled.
    const escaped = await send(
      emu.url,
      "POST",
      "/oidc/%74oken",
      { host: "attacker.example", "content-type": "application/json" },
      "{}",
    );
    expect(escaped.status).toBe(403);
  });
});

const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i?.family === "IPv4" && !i.internal)?.address;

describe.skipIf(outside === undefined)("on 0.0.0.0 the controls stay loopback-only", () => {
  it("a caller beyond loopback is refused, unless openControls", async () => {
    for (const openControls of [false, true]) {
      const emulator = await startEmulator({ host: "0.0.0.0", port: 0, seed: false, openControls });
      try {
        const port = new URL(emulator.url).port;
        const far = `http://${outside}:${port}`;
        const answer = await send(far, "GET", "/emulator/requests");
        expect(answer.status, `openControls ${openControls}`).toBe(openControls ? 200 : 403);
        if (!openControls) expect(answer.body).toContain("only loopback callers");
        const near = await send(`http://127.0.0.1:${port}`, "GET", "/emulator/requests");
        expect(near.status).toBe(200);
        const oidc = await send(
          far,
          "POST",
          "/oidc/token",
          { "content-type": "application/json" },
          JSON.stringify({ subject: "far" }),
        );
        expect(oidc.status, `openControls ${openControls}: /oidc/token`).toBe(
          openControls ? 200 : 403,
        );
        const api = await send(far, "GET", "/iam/v2beta1/groups", {
          authorization: `Bearer ${emulator.bootstrap.token}`,
        });
        expect(api.status).toBe(200);
      } finally {
        await emulator.close();
      }
    }
  });
});

/** The refusal names the one flag that opens the controls, exactly as the CLI spells it. */
const FLAG_HINT = "(start the emulator with --open-controls to open them to the network)";

describe("a container setup: --host 0.0.0.0, driven over a service name", () => {
  it("without --open-controls a service-name Host is refused, naming the flag", async () => {
    const answer = await send(emu.url, "GET", "/emulator/requests", { host: "emulator:8787" });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(`Host that is an IP address or localhost ${FLAG_HINT}`);
  });

  it("with --open-controls (the command line) the controls answer Host emulator:PORT", async () => {
    const dir = await mkdtemp(join(os.tmpdir(), "irm-open-controls-"));
    const bootstrapFile = join(dir, "bootstrap.json");
    const { running: cli, bootstrap } = await startCliWithBootstrap(bootstrapFile, [
      "--host",
      "0.0.0.0",
      "--no-grpc",
      "--no-seed",
      "--open-controls",
    ]);
    try {
      const port = new URL(cli.url).port;
      // Another container reaches this one by its address, naming it by service name.
      const address = outside ?? "127.0.0.1";
      const url = `http://${address}:${port}`;
      const host = `emulator:${port}`;
      expect((await send(url, "GET", "/emulator/clock", { host })).status).toBe(200);
      // The whole round a test makes: an identity through the API, a token minted for it.
      const made = await send(
        url,
        "POST",
        `/iam/v2beta1/identities/${bootstrap.rootGroupUid}`,
        {
          host,
          "content-type": "application/json",
          authorization: `Bearer ${bootstrap.token}`,
        },
        JSON.stringify({
          name: "ci runner",
          claimMatch: { issuer: "https://issuer.example", subject: "ci" },
        }),
      );
      expect(made.status, made.body).toBe(200);
      const identityUid = (JSON.parse(made.body) as { uid: string }).uid;
      const minted = await mint(url, { host }, identityUid);
      expect(minted.status, minted.body).toBe(200);
      expect(JSON.parse(minted.body).token).toEqual(expect.any(String));
      // A browser page of another site is still refused: the flag opens the network only.
      const page = await mint(url, { host, origin: "http://attacker.example" }, identityUid);
      expect(page.status).toBe(403);
      expect(page.body).toContain("another origin");
    } finally {
      expect(await stopCleanly(cli)).toBe(0);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(outside === undefined)(
    "without the flag a caller beyond loopback is refused, naming the flag",
    async () => {
      const emulator = await startEmulator({ host: "0.0.0.0", port: 0, seed: false });
      try {
        const far = `http://${outside}:${new URL(emulator.url).port}`;
        for (const host of [undefined, "emulator:8787"]) {
          const answer = await send(far, "GET", "/emulator/requests", host ? { host } : {});
          expect(answer.status, host).toBe(403);
          expect(answer.body, host).toContain(FLAG_HINT);
        }
      } finally {
        await emulator.close();
      }
    },
  );
});
