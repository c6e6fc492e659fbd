/**
 * Secrets of the IAM additions: an identity provider's client secret and a group
 * invite's code. Neither may appear in the emulator's request log or `--data` files
 * (digests only), in an error of the emulator, the SDK or the provider (also when a
 * server echoes the value back, in JSON, HTML or a garbled answer, and also when the
 * secret is short or holds characters JSON escapes), in Pulumi state outside the
 * properties the classes mark secret (through the real dynamic-provider host), or in
 * what the SDK prints of its objects.
 */

import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretMatches } from "../../../emulator/collections/secrets";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { createConsumerProject } from "../../../harness/installed-package";
import {
  type PropertyMap,
  type ProviderHost,
  startProviderHost,
} from "../../../harness/provider-host";
import type * as Package from "../../../provider/index";
import * as runtime from "../../../provider/runtime";
import { IrmClient } from "../../../sdk/index";
import { rejection, useFakeApi } from "../../support/fake-api";
import {
  iamKindsProgram,
  type Registration,
  registerUnderMocks,
} from "../../support/provider-program";

const GROUP = "0123456789abcdef0123456789abcdef01234567";
const ROLE = "89abcdef0123456789abcdef0123456789abcdef";
/** The provider's API token: well-formed (a JWT, unexpired), so requests are sent. */
const PROVIDER_TOKEN = new UnsecuredJWT({ sub: "provider-token-3c1d" })
  .setExpirationTime("1h")
  .encode();
const LONG_SECRET = "idp-client-secret-7f3a9c1e5b-never-shown";
/** Under the 8 characters the SDK's token redaction looks for. */
const SHORT_SECRET = "k9Zq4w";
/** Characters JSON escapes: an echo in a quoted excerpt shows `\"` and `\\`. */
const QUOTED_SECRET = 'pa"ss\\word-2c81e0';
/** The secrets an echo must never bring back into an error, each with its label. */
const SECRETS = [
  ["a long secret", LONG_SECRET],
  ["a secret under 8 characters", SHORT_SECRET],
  ["a secret with quotes and backslashes", QUOTED_SECRET],
] as const;

/** Everything a user could see of an error. */
function shown(error: unknown): string {
  const e = error as Error;
  return [
    String(e),
    e.stack ?? "",
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    String(e.cause ?? ""),
  ].join("\n");
}

/**
 * The forms a secret takes in text: as is, JSON-escaped once and twice, and its last 8
 * characters (what is left when only the start of a secret was cut out).
 */
function formsOf(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([secret, once, twice, secret.slice(-8)])];
}

function expectAbsent(secret: string, places: Record<string, string>): void {
  for (const [where, text] of Object.entries(places)) {
    for (const form of formsOf(secret)) {
      expect(text.includes(form), `${JSON.stringify(form)} appears in ${where}`).toBe(false);
    }
  }
}

describe("the emulator keeps digests only", () => {
  let emu: TestEmulator;
  let dataDir: string;
  let client: IrmClient;
  let groupUid: string;
  let viewerRole: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "irm-iam-secrets-"));
    emu = await startTestEmulator({ seed: false, dataFile: join(dataDir, "state.json") });
    client = new IrmClient({ baseUrl: emu.url, token: emu.token, env: {} });
    groupUid = (await client.iam.groups.create(emu.rootGroupUid, { name: "secrets" })).uid;
    viewerRole = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
  });
  afterAll(async () => {
    await client?.close();
    await emu?.close();
  });

  it("a client secret and an invite code: not in the request log, the data files or any answer after create", async () => {
    const idp = await client.iam.identityProviders.create(groupUid, {
      name: "corp sso",
      defaultRole: viewerRole,
      oidc: { issuer: "https://login.example.com", clientId: "irm", clientSecret: LONG_SECRET },
    });
    // A new secret through an update, under its explicit path.
    const rotated = `${LONG_SECRET}-rotated`;
    await client.iam.identityProviders.update(
      idp.uid,
      { oidc: { clientSecret: rotated } },
      { updateMask: ["oidc.clientSecret"] },
    );
    const invite = await client.iam.groupInvites.create(groupUid, {
      roleUid: viewerRole,
      ttl: 600,
    });
    const code = invite.code;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Whatever reads them later answers neither.
    const answers = JSON.stringify([
      await client.iam.identityProviders.get(idp.uid),
      await client.iam.groupInvites.get(invite.uid),
      (await client.iam.groupInvites.list({ childrenOf: groupUid })).items,
    ]);

    const files = await readdir(dataDir);
    expect(files.length).toBeGreaterThan(0);
    const stored = (
      await Promise.all(files.map((file) => readFile(join(dataDir, file), "utf8")))
    ).join("\n");
    // The data holds the digests: the secrets were stored, as salted digests.
    const digests = [...stored.matchAll(/sha256-salted:[A-Za-z0-9_-]{22}:[0-9a-f]{64}/g)];
    for (const secret of [LONG_SECRET, rotated, code]) {
      expect(stored).not.toContain(createHash("sha256").update(secret).digest("hex"));
      expect(digests.some((m) => secretMatches(m[0], secret))).toBe(true);
    }
    expectAbsent(LONG_SECRET, { "the data files": stored, answers });
    expectAbsent(rotated, { "the data files": stored, answers });
    expectAbsent(code, {
      "the data files": stored,
      "the request log": JSON.stringify(await emu.requests()),
      answers,
    });
    expectAbsent(rotated, { "the request log": JSON.stringify(await emu.requests()) });
  });

  it("refused writes carrying a secret: the emulator's error never quotes it", async () => {
    const failures: unknown[] = [];
    for (const secret of [LONG_SECRET, SHORT_SECRET, QUOTED_SECRET]) {
      const bodies: Array<Record<string, unknown>> = [
        // Bad name, bad role, unknown role, wrong types next to the secret, a clear without PKCE.
        { name: "X", defaultRole: viewerRole },
        { name: "sso", defaultRole: secret },
        { name: "sso", defaultRole: "f".repeat(40) },
        { name: "sso", defaultRole: viewerRole, oidc: { issuer: secret, clientId: "c" } },
        {
          name: "sso",
          defaultRole: viewerRole,
          oidc: { issuer: "https://x.example", clientId: 7 },
        },
      ];
      for (const body of bodies) {
        const oidc = {
          issuer: "https://login.example.com",
          clientId: "irm",
          ...(body.oidc as object | undefined),
          clientSecret: secret,
        };
        failures.push(
          await rejection(
            client.iam.identityProviders.create(groupUid, { ...body, oidc } as never),
          ),
        );
      }
      // The secret as a value of the wrong field type: a number where a string goes.
      failures.push(
        await rejection(
          client.iam.identityProviders.create(groupUid, {
            name: "sso",
            defaultRole: viewerRole,
            oidc: {
              issuer: "https://login.example.com",
              clientId: "irm",
              clientSecret: secret,
              additionalScopes: [secret, secret],
            },
          } as never),
        ),
      );
    }
    expect(failures.every((f) => f instanceof Error)).toBe(true);
    for (const secret of [LONG_SECRET, SHORT_SECRET, QUOTED_SECRET]) {
      expectAbsent(secret, {
        "the errors": failures.map(shown).join("\n"),
        "the request log": JSON.stringify(await emu.requests()),
      });
    }
  });
});

describe("the SDK, against a server that echoes what it was sent", () => {
  /** The client secret of each request received, so a test can prove it was sent. */
  const carried: string[] = [];
  /** Echoes the client secret received in the answer's shape the path names. */
  const echo = useFakeApi((req, res, body) => {
    const secret = (() => {
      try {
        return String(
          (JSON.parse(body) as { oidc?: { clientSecret?: string } }).oidc?.clientSecret ?? "",
        );
      } catch {
        return "";
      }
    })();
    carried.push(secret);
    const kind = new URL(req.url ?? "/", "http://x").pathname.split("/")[5] ?? "";
    if (kind.startsWith("html")) {
      res.writeHead(502, { "content-type": "text/html" });
      res.end(`<html>bad gateway: ${secret} ${body}</html>`);
    } else if (kind.startsWith("garbled")) {
      // A create answered with a truncated body carrying the secret and a code.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"uid":"x","oidc":{"clientSecret":"${secret}"},"code":"AAAAcode${secret}`);
    } else {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          code: 3,
          message: `Invalid argument: oidc.clientSecret: ${secret} is not accepted`,
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: [{ field: "oidc.clientSecret", description: `got ${secret}` }],
            },
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "INVALID_ARGUMENT",
              metadata: { secret },
            },
          ],
        }),
      );
    }
  });

  it.each(SECRETS)(
    "%s sent in a create or an update never shows in the error",
    async (_label, secret) => {
      const client = new IrmClient({
        baseUrl: echo.url,
        token: "sdk-token-not-shown-0b9d2c",
        env: {},
        retry: { retries: 0 },
      });
      carried.length = 0;
      const failures: unknown[] = [];
      for (const kind of ["json", "html", "garbled"]) {
        const parent = `${GROUP}/${kind}`;
        failures.push(
          await rejection(
            client.iam.identityProviders.create(parent as never, {
              name: "sso",
              defaultRole: ROLE,
              oidc: { issuer: "https://login.example.com", clientId: "irm", clientSecret: secret },
            }),
          ),
          await rejection(
            client.iam.identityProviders.update(
              `${parent}/0123456789abcdef` as never,
              { oidc: { clientSecret: secret } },
              { updateMask: ["oidc.clientSecret"] },
            ),
          ),
        );
      }
      // The echo really received and answered the secret: what is checked below is a real answer.
      expect(failures).toHaveLength(6);
      expect(carried).toEqual(Array(6).fill(secret));
      expect(shown(failures[0])).toMatch(/oidc\.clientSecret/);
      expectAbsent(secret, { "the errors": failures.map(shown).join("\n") });
      expectAbsent("sdk-token-not-shown-0b9d2c", { "the errors": failures.map(shown).join("\n") });
      await client.close();
    },
  );

  it("a garbled invite create answer carrying a code: the error never shows it", async () => {
    const client = new IrmClient({ baseUrl: echo.url, token: "t", env: {}, retry: { retries: 0 } });
    const error = await rejection(
      client.iam.groupInvites.create(`${GROUP}/garbled` as never, { roleUid: ROLE, ttl: 60 }),
    );
    expect(shown(error)).toContain("Bad response");
    expect(shown(error)).not.toMatch(/AAAAcode/);
    await client.close();
  });

  it("an invite and an identity provider print without their code or secret", async () => {
    const emu = await startTestEmulator({ seed: false });
    const client = new IrmClient({ baseUrl: emu.url, token: emu.token, env: {} });
    try {
      const viewer = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
      const invite = await client.iam.groupInvites.create(emu.rootGroupUid, {
        roleUid: viewer,
        ttl: 60,
      });
      const idp = await client.iam.identityProviders.create(emu.rootGroupUid, {
        name: "printed",
        defaultRole: viewer,
        oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: SHORT_SECRET },
      });
      expect(invite.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const printed = [
        JSON.stringify(invite),
        JSON.stringify({ ...invite }),
        inspect(invite, { depth: 5 }),
        inspect([invite], { depth: 5 }),
        `${invite}`,
        JSON.stringify(idp),
        inspect(idp, { depth: 5, showHidden: true }),
      ].join("\n");
      expectAbsent(invite.code, { "the printed invite": printed });
      expectAbsent(SHORT_SECRET, { "the printed provider": printed });
    } finally {
      await client.close();
      await emu.close();
    }
  });
});

describe("the provider, through the real dynamic-provider host", () => {
  const PROJECT = "secrets-client-secret";
  let run: Registration;
  let pkg: typeof Package;
  let emu: TestEmulator;
  let host: ProviderHost;
  let groupUid: string;
  let viewerRole: string;

  const urn = (type: string, name: string) => `urn:pulumi:dev::${PROJECT}::${type}::${name}`;

  beforeAll(async () => {
    const project = createConsumerProject({
      name: PROJECT,
      requiredSubpaths: [".", "./provider/runtime", "./sdk"],
    });
    run = await registerUnderMocks(project, iamKindsProgram(LONG_SECRET));
    pkg = run.pkg;
    emu = await startTestEmulator({ seed: false });
    const client = new IrmClient({ baseUrl: emu.url, token: emu.token, env: {} });
    groupUid = (await client.iam.groups.create(emu.rootGroupUid, { name: "host" })).uid;
    viewerRole = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
    await client.close();
    host = await startProviderHost({ cwd: project.dir, projectName: PROJECT });
    await host.configure({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
  }, 180_000);
  afterAll(async () => {
    await host?.close();
    await emu?.close();
  });

  /** Every property path holding `secret`, in any form. */
  function pathsHolding(value: unknown, secret: string, at = ""): string[] {
    if (typeof value === "string") {
      return formsOf(secret).some((form) => value.includes(form)) ? [at] : [];
    }
    if (Array.isArray(value))
      return value.flatMap((v, i) => pathsHolding(v, secret, `${at}[${i}]`));
    if (value !== null && typeof value === "object") {
      return Object.entries(value).flatMap(([k, v]) =>
        pathsHolding(v, secret, at ? `${at}.${k}` : k),
      );
    }
    return [];
  }

  it("the client secret is only ever the clientSecret property (marked secret by the class), and the code only the code output", async () => {
    const idpType = pkg.IdentityProvider.__pulumiType;
    const inviteType = pkg.GroupInvite.__pulumiType;
    // The class marks both as secret outputs, and wraps the client secret input.
    expect(run.registered.map((r) => r.type)).toContain(idpType);
    for (const { type } of run.registered) {
      expectAbsent(LONG_SECRET, { "a provider": run.providerOf(type) });
    }

    const news: PropertyMap = {
      parentUid: groupUid,
      name: "corp sso",
      defaultRole: viewerRole,
      oidc: { issuer: "https://login.example.com", clientId: "irm" },
      clientSecret: SHORT_SECRET,
      __provider: run.providerOf(idpType),
    };
    const checked = await host.check(urn(idpType, "sso"), {}, news);
    expect(checked.failures).toEqual([]);
    expect(pathsHolding(checked.inputs, SHORT_SECRET)).toEqual(["clientSecret"]);
    const created = await host.create(urn(idpType, "sso"), checked.inputs);
    expect(pathsHolding(created.properties, SHORT_SECRET)).toEqual(["clientSecret"]);
    const read = await host.read(
      created.id,
      urn(idpType, "sso"),
      created.properties,
      checked.inputs,
    );
    expect(pathsHolding(read.properties, SHORT_SECRET)).toEqual(["clientSecret"]);
    expect(pathsHolding(read.inputs ?? {}, SHORT_SECRET)).toEqual(["clientSecret"]);
    // A rotated secret: the diff names the property, never the value.
    const rotated = { ...checked.inputs, clientSecret: LONG_SECRET };
    const diff = await host.diff(created.id, urn(idpType, "sso"), created.properties, rotated);
    expect(diff.changes).toBe("some");
    expectAbsent(LONG_SECRET, { "the diff": JSON.stringify(diff) });
    const updated = await host.update(created.id, urn(idpType, "sso"), created.properties, rotated);
    expect(pathsHolding(updated, LONG_SECRET)).toEqual(["clientSecret"]);

    // A check that fails next to a secret: the failures never quote it.
    const refused = await host.check(
      urn(idpType, "bad"),
      {},
      { ...news, name: "X", clientSecret: 42, oidc: { issuer: LONG_SECRET, clientId: "c" } },
    );
    expect(refused.failures.length).toBeGreaterThan(0);
    const refusedWithSecret = await host.check(
      urn(idpType, "bad2"),
      {},
      { ...news, name: "X", defaultRole: "nope", clientSecret: "x".repeat(5000) },
    );
    expect(refusedWithSecret.failures.map((f) => f.property)).toContain("clientSecret");
    expect(JSON.stringify(refusedWithSecret.failures)).not.toContain("x".repeat(100));

    // The invite's code: an output only, kept by refresh, never an input.
    const invite = await host.check(
      urn(inviteType, "inv"),
      {},
      { groupUid, roleUid: viewerRole, ttl: 600, __provider: run.providerOf(inviteType) },
    );
    const made = await host.create(urn(inviteType, "inv"), invite.inputs);
    const code = made.properties.code as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pathsHolding(made.properties, code)).toEqual(["code"]);
    const reread = await host.read(made.id, urn(inviteType, "inv"), made.properties, invite.inputs);
    expect(pathsHolding(reread.properties, code)).toEqual(["code"]);
    expect(pathsHolding(reread.inputs ?? {}, code)).toEqual([]);
    const changed = { ...invite.inputs, email: "dev@example.com" };
    expectAbsent(code, {
      "the diff": JSON.stringify(
        await host.diff(made.id, urn(inviteType, "inv"), made.properties, changed),
      ),
    });

    for (const secret of [SHORT_SECRET, LONG_SECRET, code, emu.token]) {
      expectAbsent(secret, { "the host's log": host.stderr() });
    }
  });
});

describe("the provider, against a server that echoes the secret", () => {
  /** The bodies received, so a test can prove the secret was sent to be echoed. */
  const received: string[] = [];
  const echo = useFakeApi((req, res, body) => {
    received.push(body);
    res.writeHead(req.method === "GET" ? 404 : 400, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        code: req.method === "GET" ? 5 : 3,
        message: `Invalid argument: cannot use ${body}`,
        details: [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "INVALID_ARGUMENT" },
        ],
      }),
    );
  });

  it.each(SECRETS)("%s: create and update fail without showing it", async (_label, secret) => {
    await runtime.configure({
      config: {
        get: (key) => ({ "irm:apiUrl": echo.url, "irm:token": PROVIDER_TOKEN })[key],
        require: (key) => ({ "irm:apiUrl": echo.url, "irm:token": PROVIDER_TOKEN })[key] ?? "",
      },
    });
    const inputs = {
      parentUid: GROUP,
      name: "sso",
      description: "",
      defaultRole: ROLE,
      oidc: {
        issuer: "https://login.example.com",
        clientId: "irm",
        additionalScopes: [],
        groupsClaim: "",
        pkceEnabled: false,
        correlationRule: "CORRELATION_RULE_UNSPECIFIED" as const,
      },
      clientSecret: secret,
    };
    received.length = 0;
    const created = await rejection(runtime.idp.create(inputs));
    const olds = {
      ...inputs,
      uid: `${GROUP}/0123456789abcdef`,
      clientSecret: "old-secret-value-1",
      createTime: "2026-01-01T00:00:00.000Z",
      updateTime: "2026-01-01T00:00:00.000Z",
    };
    const updated = await rejection(runtime.idp.update(olds.uid, olds, inputs));
    expect(shown(created)).toMatch(/Invalid argument/);
    expect(shown(updated)).toMatch(/Invalid argument/);
    // Both requests carried the secret, so the echoes below did quote it.
    expect(
      received.map(
        (body) => (JSON.parse(body) as { oidc?: { clientSecret?: string } }).oidc?.clientSecret,
      ),
    ).toEqual([secret, secret]);
    for (const value of [secret, "old-secret-value-1", "provider-token-3c1d"]) {
      expectAbsent(value, {
        "the create's error": shown(created),
        "the update's error": shown(updated),
      });
    }
  });
});
