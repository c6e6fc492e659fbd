/**
 * Servers that answer the IAM additions wrongly. Every new SDK decoder (identity
 * providers, group invites, account associations, identities of every kind) refuses a
 * wrong shape with a `BadResponseError` naming the field (an `OutcomeUnknownError` for
 * a create), never quoting a secret; an endless answer is abandoned at
 * `maxResponseBytes`. And the provider's refresh and delete of `Role`, `IdentityProvider`,
 * `GroupInvite` and `AccountAssociation` take only the API's own NOT_FOUND for the
 * object as "gone": a proxy's 404 page fails instead, and the object stays in state.
 */
import type { ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ResourceHandler } from "../../../provider/handlers/common";
import * as runtime from "../../../provider/runtime";
import { BadResponseError, IrmClient, isNotFound, OutcomeUnknownError } from "../../../sdk/index";
import { edited } from "../../support/edited";
import { closeFakeApis, fakeApi, rejection } from "../../support/fake-api";
import { type ProviderFixture, startProviderFixture } from "../../support/provider-fixture";

type Json = Record<string, unknown>;

const GROUP = "0123456789abcdef0123456789abcdef01234567";
const CHILD = `${GROUP}/0123456789abcdef`;
const ROLE = "89abcdef0123456789abcdef0123456789abcdef";
const TIME = "2026-01-01T00:00:00.000Z";
const TOKEN = "hostile-iam-token-5e1f9a";

// --- a server answering whatever the test says ------------------------------

let answer: (res: ServerResponse) => void = (res) => res.end();

/** A fake API answering every request with the current `answer`; its URL. */
async function answering(): Promise<string> {
  return (await fakeApi((_req, res) => answer(res))).url;
}

afterEach(closeFakeApis);

function json(body: unknown, status = 200) {
  return (res: ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

async function client(options: Json = {}): Promise<IrmClient> {
  const url = await answering();
  return new IrmClient({
    baseUrl: url,
    token: TOKEN,
    env: {},
    retry: { retries: 0 },
    ...options,
  });
}

// --- well-formed answers, to be broken one field at a time --------------------

const idp = (): Json => ({
  uid: CHILD,
  name: "corp sso",
  description: "",
  defaultRole: ROLE,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "irm",
    additionalScopes: [],
    groupsClaim: "",
    pkceEnabled: false,
    correlationRule: "CORRELATION_RULE_UNSPECIFIED",
  },
  createTime: TIME,
  updateTime: TIME,
});

const invite = (): Json => ({
  uid: CHILD,
  roleUid: ROLE,
  role: { uid: ROLE, name: "viewer", description: "", capabilities: ["CAP_REPO_LIST"] },
  email: "",
  expirationTime: TIME,
  singleUse: false,
  keyId: "0123456789abcdef0123456789abcdef",
  createTime: TIME,
});

const association = (): Json => ({
  uid: GROUP,
  name: "prod",
  description: "",
  github: {
    appInstallations: {
      "123456": { installations: [{ installationId: "7890123", name: "acme" }] },
    },
  },
  chainguard: { serviceBindings: { INGESTER: CHILD } },
  createTime: TIME,
  updateTime: TIME,
});

const identity = (): Json => ({
  uid: CHILD,
  name: "ci",
  description: "",
  claimMatch: { issuer: "https://token.example", subject: "repo:acme/x" },
  createTime: TIME,
  updateTime: TIME,
});

/** Asserts a refusal of the answer that names `field` and is not taken for NOT_FOUND. */
function expectRefused(error: Error, field: string): void {
  expect(
    error instanceof BadResponseError || error instanceof OutcomeUnknownError,
    String(error),
  ).toBe(true);
  expect(isNotFound(error)).toBe(false);
  expect(error.message).toContain(field);
  expect(error.message).not.toContain(TOKEN);
}

describe("identity providers: the decoder refuses wrong shapes", () => {
  it.each([
    ["oidc missing", "oidc", undefined, "oidc"],
    ["oidc a string", "oidc", "https://login.example.com", "oidc"],
    ["oidc.clientId a number", "oidc.clientId", 7, "oidc.clientId"],
    ["oidc.additionalScopes a string", "oidc.additionalScopes", "openid", "oidc.additionalScopes"],
    ["oidc.pkceEnabled a string", "oidc.pkceEnabled", "true", "oidc.pkceEnabled"],
    [
      "an unknown correlation rule",
      "oidc.correlationRule",
      "CORRELATION_RULE_ANYONE",
      "oidc.correlationRule",
    ],
    ["defaultRole not a role uid", "defaultRole", "owner", "defaultRole"],
    ["uid missing", "uid", undefined, "uid"],
    ["createTime not a time", "createTime", "yesterday", "createTime"],
  ])("%s → refused naming %s", async (_what, path, value, field) => {
    const api = await client();
    answer = json(edited(idp(), path, value));
    expectRefused(
      await rejection(api.iam.identityProviders.get(CHILD)),
      `identityProvider.${field}`,
    );
    // Inside a list too.
    answer = json({ identityProviders: [edited(idp(), path, value)] });
    expectRefused(
      await rejection(api.iam.identityProviders.list()),
      `identityProviders[0].${field}`,
    );
    await api.close();
  });

  it("a clientSecret in an answer (none should carry one) is dropped, never kept or printed", async () => {
    const api = await client();
    answer = json(edited(idp(), "oidc.clientSecret", "leaked-by-server-0a1b2c"));
    const got = await api.iam.identityProviders.get(CHILD);
    expect(JSON.stringify(got)).not.toContain("leaked-by-server");
    expect(got.oidc).not.toHaveProperty("clientSecret");
    await api.close();
  });
});

describe("group invites: the decoder refuses wrong shapes, and a code of the wrong type", () => {
  it.each([
    ["code a number", "code", 1234567890123, "groupInvite.code"],
    ["code an object", "code", { value: "x" }, "groupInvite.code"],
    ["code missing", "code", undefined, "groupInvite.code"],
    // code and keyId have no published format: only their type and size are judged.
    ["code oversized", "code", "c".repeat(100_000), "groupInvite.code"],
    ["keyId a number", "keyId", 7, "groupInvite.keyId"],
    ["keyId oversized", "keyId", "k".repeat(100_000), "groupInvite.keyId"],
    ["role.uid not the roleUid", "role.uid", "f".repeat(40), "groupInvite.role.uid"],
    ["roleUid missing", "roleUid", undefined, "groupInvite.roleUid"],
  ])(
    "create answered with %s → an unknown outcome naming %s",
    async (_what, path, value, field) => {
      const api = await client();
      answer = json(edited({ ...invite(), code: "A".repeat(43) }, path, value));
      const error = await rejection(api.iam.groupInvites.create(GROUP, { roleUid: ROLE, ttl: 60 }));
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expectRefused(error, field);
      // A code of the wrong type is never quoted.
      expect(error.message).not.toContain("1234567890123");
      await api.close();
    },
  );

  it("a code in a Get answer (none should carry one) is dropped", async () => {
    const api = await client();
    answer = json({ ...invite(), code: "B".repeat(43) });
    const got = await api.iam.groupInvites.get(CHILD);
    expect(JSON.stringify(got)).not.toContain("B".repeat(43));
    expect((got as { code?: string }).code).toBeUndefined();
    await api.close();
  });
});

describe("account associations: installation ids beyond safe integers, and other wrong shapes", () => {
  it.each([
    ["an installationId of 2^53 + 1 as a string", "9007199254740993"],
    ["an installationId beyond safe integer as a JSON number", "__RAW__9007199254740993"],
    ["an int64 maximum", "9223372036854775807"],
    ["zero", "0"],
    ["a negative number", -5],
    ["a fraction", 1.5],
    ["missing", undefined],
  ])("%s → refused naming the installation", async (_what, value) => {
    const api = await client();
    const body = edited(
      association(),
      "github.appInstallations.123456.installations",
      value === undefined ? [{ name: "x" }] : [{ installationId: value, name: "x" }],
    );
    const text = JSON.stringify(body).replace(/"__RAW__(\d+)"/, "$1");
    answer = json(text);
    expectRefused(
      await rejection(api.iam.accountAssociations.get(GROUP)),
      "accountAssociation.github.appInstallations.123456.installations[0].installationId",
    );
    await api.close();
  });

  it.each([
    [
      "an app id that is not a number",
      "github.appInstallations",
      { acme: { installations: [] } },
      "accountAssociation.github.appInstallations.acme",
    ],
    [
      "installations not an array",
      "github.appInstallations",
      { "1": { installations: {} } },
      "accountAssociation.github.appInstallations.1.installations",
    ],
    [
      "an unknown service",
      "chainguard.serviceBindings",
      { ROOT: CHILD },
      "accountAssociation.chainguard.serviceBindings",
    ],
    [
      "a binding to a number",
      "chainguard.serviceBindings",
      { INGESTER: 7 },
      "accountAssociation.chainguard.serviceBindings.INGESTER",
    ],
    [
      "azure.clientIds an array",
      "azure",
      { tenantId: "t", clientIds: ["x"] },
      "accountAssociation.azure.clientIds",
    ],
    ["amazon a string", "amazon", "123456789012", "accountAssociation.amazon"],
  ])("%s → refused naming %s", async (_what, path, value, field) => {
    const api = await client();
    answer = json(edited(association(), path, value));
    expectRefused(await rejection(api.iam.accountAssociations.get(GROUP)), field);
    await api.close();
  });

  it("another group's association answered for this group → refused", async () => {
    const api = await client();
    answer = json({ ...association(), uid: "f".repeat(40) });
    expectRefused(await rejection(api.iam.accountAssociations.get(GROUP)), "f".repeat(40));
    await api.close();
  });

  it("a create or update refused locally: an installationId beyond safe integer is never sent", async () => {
    const api = await client();
    let requests = 0;
    answer = (res) => {
      requests += 1;
      json(association())(res);
    };
    // A number has lost its digits already; a decimal string would be stored, but its
    // answer could never be decoded: a create that succeeded would look failed.
    for (const installationId of [2 ** 53 + 2, "9007199254740993", "9223372036854775807"]) {
      const body = {
        name: "prod",
        github: { appInstallations: { "1": { installations: [{ installationId }] } } },
      };
      for (const call of [
        () => api.iam.accountAssociations.create(GROUP, body),
        () => api.iam.accountAssociations.update(GROUP, body, { updateMask: ["github"] }),
      ]) {
        const error = await rejection(call());
        expect(error.message).toMatch(
          /^github\.appInstallations\.1\.installations\[0\]\.installationId: must be a positive safe integer/,
        );
      }
    }
    expect(requests).toBe(0);
    // The largest safe id goes through, as a string.
    await api.iam.accountAssociations.create(GROUP, {
      name: "prod",
      github: {
        appInstallations: { "1": { installations: [{ installationId: "9007199254740991" }] } },
      },
    });
    expect(requests).toBe(1);
    await api.close();
  });
});

describe("identities: exactly one kind", () => {
  it.each([
    [
      "claimMatch and staticKeys",
      {
        staticKeys: {
          issuer: "https://x",
          subject: "s",
          issuerKeys: "{}",
          expirationTime: TIME,
          audiences: [],
        },
      },
      "claimMatch and staticKeys",
    ],
    [
      "claimMatch and a service principal",
      { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
      "claimMatch and servicePrincipal",
    ],
    ["no kind at all", { claimMatch: undefined }, "got none"],
  ])("%s → refused", async (_what, extra, text) => {
    const api = await client();
    const body = { ...identity(), ...extra };
    answer = json(body);
    const error = await rejection(api.iam.identities.get(CHILD));
    expectRefused(error, "identity");
    expect(error.message).toContain(text);
    await api.close();
  });

  it.each([
    [
      "both members of a pair",
      "claimMatch.subjectPattern",
      ".*",
      "identity.claimMatch.subjectPattern",
    ],
    ["an unknown service principal", "claimMatch", undefined, "identity"],
    [
      "a claim value that is not a string",
      "claimMatch.claims",
      { owner: 7 },
      "identity.claimMatch.claims.owner",
    ],
  ])("%s → refused naming %s", async (_what, path, value, field) => {
    const api = await client();
    const body = edited(identity(), path, value);
    if (_what === "an unknown service principal") body.servicePrincipal = "SERVICE_PRINCIPAL_ROOT";
    answer = json(body);
    expectRefused(await rejection(api.iam.identities.get(CHILD)), field);
    await api.close();
  });

  it("an issuerKeys document beyond its bound → refused, not kept", async () => {
    const api = await client();
    answer = json({
      ...identity(),
      claimMatch: undefined,
      staticKeys: {
        issuer: "https://x.example",
        subject: "s",
        issuerKeys: "k".repeat(70_000),
        expirationTime: TIME,
        audiences: [],
      },
    });
    expectRefused(await rejection(api.iam.identities.get(CHILD)), "identity.staticKeys.issuerKeys");
    await api.close();
  });
});

describe("oversized answers are abandoned at maxResponseBytes", () => {
  it.each([
    [
      "an identity provider",
      (api: IrmClient) => api.iam.identityProviders.get(CHILD),
      { ...idp(), description: "d".repeat(200_000) },
    ],
    [
      "a group invite",
      (api: IrmClient) => api.iam.groupInvites.get(CHILD),
      { ...invite(), email: "e".repeat(200_000) },
    ],
    [
      "an account association",
      (api: IrmClient) => api.iam.accountAssociations.get(GROUP),
      { ...association(), description: "d".repeat(200_000) },
    ],
  ])("%s of 200 KB against a 64 KiB limit", async (_what, call, body) => {
    const api = await client({ maxResponseBytes: 65_536 });
    answer = json(body);
    const error = await rejection(call(api));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain("body larger than 65536 bytes");
    await api.close();
  });
});

describe("the provider: only the API's own NOT_FOUND for the object means gone", () => {
  let emu: ProviderFixture;
  let groupUid = "";
  let viewerRole = "";

  beforeAll(async () => {
    emu = await startProviderFixture();
    groupUid = (await emu.client.iam.groups.create(emu.rootGroupUid, { name: "hostile" })).uid;
    viewerRole = (await emu.client.iam.roles.list({ name: "viewer" })).items[0].uid;
  });
  afterAll(async () => {
    await emu?.close();
  });

  interface Kind {
    name: string;
    /** The collection: its name in the SDK's `iam` and in the API's paths. */
    collection: "roles" | "identityProviders" | "groupInvites" | "accountAssociations";
    /** The provider's handler of the type, as the provider text calls it. */
    handler: ResourceHandler<never, never>;
    /** Inputs of a valid object in `groupUid`. */
    inputs(): Json;
  }

  const make = async (kind: Kind): Promise<{ id: string; props: Json }> => {
    const created = await kind.handler.create(kind.inputs() as never);
    return { id: created.id, props: created.outs as unknown as Json };
  };
  const read = (kind: Kind, id: string, props: Json) => kind.handler.read(id, props as never);
  const remove = (kind: Kind, id: string, props: Json) => kind.handler.delete(id, props as never);

  /** Whether the object is still there: only the API's NOT_FOUND says it is not. */
  const exists = (kind: Kind, id: string): Promise<boolean> =>
    // The SDK's own read of the object, straight from the emulator.
    emu.client.iam[kind.collection].get(id).then(
      () => true,
      (e: unknown) => (isNotFound(e) ? false : Promise.reject(e)),
    );

  const kind = (
    name: string,
    collection: Kind["collection"],
    handler: unknown,
    inputs: () => Json,
  ): Kind => ({ name, collection, handler: handler as Kind["handler"], inputs });

  const KINDS: Kind[] = [
    kind("Role", "roles", runtime.role, () => ({
      parentUid: groupUid,
      name: "readers",
      description: "",
      capabilities: ["CAP_REPO_LIST"],
    })),
    kind("IdentityProvider", "identityProviders", runtime.idp, () => ({
      parentUid: groupUid,
      name: "sso",
      description: "",
      defaultRole: viewerRole,
      oidc: idp().oidc,
      clientSecret: "hostile-client-secret-1",
    })),
    kind("GroupInvite", "groupInvites", runtime.invite, () => ({
      groupUid,
      roleUid: viewerRole,
      ttl: "600s",
      email: "",
      singleUse: false,
    })),
    kind("AccountAssociation", "accountAssociations", runtime.assoc, () => ({
      groupUid,
      name: "prod",
      description: "",
      amazon: { account: "123456789012" },
    })),
  ];

  it.each(KINDS.map((kind) => [kind.name, kind] as const))(
    "%s: a proxy's HTML 404 on refresh and on delete fails naming what answered; the object stays",
    async (_name, kind) => {
      await emu.configureRuntime();
      await emu.clearFaults();
      const { id, props } = await make(kind);
      for (const method of ["GET", "DELETE"]) {
        await emu.fault({
          match: { method, path: `/iam/v2beta1/${kind.collection}/${id}` },
          status: 404,
          html: true,
          count: 0,
        });
      }
      const refreshed = await rejection(read(kind, id, props));
      expect(refreshed).toBeInstanceOf(BadResponseError);
      expect(refreshed.message).toContain("HTTP 404");
      expect(refreshed.message).toContain("text/html");
      const deleted = await rejection(remove(kind, id, props));
      expect(deleted).toBeInstanceOf(BadResponseError);
      await emu.clearFaults();
      expect(await exists(kind, id)).toBe(true);
      // The API's own NOT_FOUND, once really gone: refresh reports it gone, delete is done.
      await remove(kind, id, props);
      expect(await exists(kind, id)).toBe(false);
      expect((await read(kind, id, props)).id ?? "").toBe("");
      await remove(kind, id, props);
    },
  );

  it("a JSON 404 without the API's ErrorInfo (a gateway's) is not NOT_FOUND either", async () => {
    await emu.configureRuntime();
    const kind = KINDS[0];
    const { id, props } = await make(kind);
    const url = await answering();
    answer = json({ error: "not found", status: 404 }, 404);
    await emu.configureRuntime({ "irm:apiUrl": url });
    const error = await rejection(read(kind, id, props));
    expect(isNotFound(error)).toBe(false);
    expect(error).toBeInstanceOf(BadResponseError);
    await emu.configureRuntime();
    expect(await exists(kind, id)).toBe(true);
  });
});
