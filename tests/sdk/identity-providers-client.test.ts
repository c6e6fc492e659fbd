/**
 * `client.iam.identityProviders` against a scripted stand-in: the wire form of
 * each verb, the reader's checks, and the client secret kept out of answers and
 * of every error.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadResponseError, InvalidArgumentError, OutcomeUnknownError } from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { apiError, json, StandIn } from "../support/sdk-stand-in";

const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);
const UID = `${ROOT}/0123456789abcdef`;
const SECRET = "oidc-client-secret-7f3a9c";

/** An answer as the service gives it (no client secret). */
function provider(overrides: Record<string, unknown> = {}) {
  return {
    uid: UID,
    name: "corporate sso",
    description: "",
    defaultRole: ROLE,
    oidc: {
      issuer: "https://sso.example.com",
      clientId: "client-1",
      additionalScopes: ["email", "groups"],
      groupsClaim: "groups",
      pkceEnabled: true,
      correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
    },
    createTime: "2026-11-22T10:00:00.000Z",
    updateTime: "2026-11-22T10:00:00.000Z",
    ...overrides,
  };
}

/** Everything of an error someone could print. */
function printed(error: unknown): string {
  return `${String(error)}\n${(error as Error).stack}\n${inspect(error, { depth: 5 })}\n${JSON.stringify(error)}`;
}

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

describe("identity providers: answers as the official gateway writes them", () => {
  it("accepts unpopulated members, a custom default role and a scim status", async () => {
    const customRole = `${ROOT}/fedcba9876543210`;
    standIn.answer(
      json(
        provider({
          defaultRole: customRole,
          oidc: {
            issuer: "https://sso.example.com",
            clientId: "client-1",
            clientSecret: "",
            additionalScopes: [],
            groupsClaim: "",
            pkceEnabled: false,
            correlationRule: "CORRELATION_RULE_UNSPECIFIED",
          },
          scim: {
            enabled: true,
            endpointUrl: "https://scim.example.com/v2",
            tokenExpireTime: "2027-01-01T00:00:00Z",
            previousTokenExpireTime: null,
            credentialState: "CREDENTIAL_STATE_LIVE",
            etag: "e1",
          },
        }),
      ),
      json(provider({ scim: null })),
    );
    const client = standIn.client();
    const read = await client.iam.identityProviders.get(UID);
    expect(read.defaultRole).toBe(customRole);
    expect(read.oidc).not.toHaveProperty("clientSecret");
    expect(read.scim).toEqual({
      enabled: true,
      endpointUrl: "https://scim.example.com/v2",
      tokenExpireTime: "2027-01-01T00:00:00Z",
      credentialState: "CREDENTIAL_STATE_LIVE",
      etag: "e1",
    });
    expect(await client.iam.identityProviders.get(UID)).not.toHaveProperty("scim");
  });

  it("refuses a scim status of the wrong shape", async () => {
    standIn.answer(json(provider({ scim: { credentialState: "LIVE" } })));
    const error = await failure(standIn.client().iam.identityProviders.get(UID));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain("identityProvider.scim.credentialState");
  });
});

describe("identity providers: requests", () => {
  it("creates under the group with the body as given, client secret included", async () => {
    standIn.answer(json(provider()));
    const body = {
      name: "corporate sso",
      defaultRole: ROLE,
      oidc: { issuer: "https://sso.example.com", clientId: "client-1", clientSecret: SECRET },
    };
    const created = await standIn.client().iam.identityProviders.create(ROOT, body);
    expect(standIn.seen[0]).toMatchObject({
      method: "POST",
      path: `/iam/v2beta1/identityProviders/${ROOT}`,
      body,
    });
    expect(created).toEqual(provider());
  });

  it("updates with a mask of oidc paths, sent comma-separated", async () => {
    standIn.answer(json(provider()));
    await standIn
      .client()
      .iam.identityProviders.update(
        UID,
        { oidc: { clientSecret: "" }, name: "x" },
        { updateMask: ["oidc.client_secret", "oidc.pkce_enabled"] },
      );
    expect(standIn.seen[0]).toMatchObject({
      method: "PATCH",
      path: `/iam/v2beta1/identityProviders/${ROOT}/0123456789abcdef`,
      rawQuery: "updateMask=oidc.client_secret,oidc.pkce_enabled",
      body: { oidc: { clientSecret: "" }, name: "x" },
    });
  });

  it("lists with name and scope filters under their wire names, and deletes by uid", async () => {
    standIn.answer(json({ identityProviders: [provider()], totalCount: "1" }), json({}));
    const client = standIn.client();
    const page = await client.iam.identityProviders.list({
      descendantsOf: ROOT,
      name: "corporate sso",
      orderBy: "name",
    });
    expect(page.items.map((p) => p.uid)).toEqual([UID]);
    expect(standIn.seen[0].path).toBe("/iam/v2beta1/identityProviders");
    expect(standIn.seen[0].query).toEqual({
      "uidp.descendants_of": ROOT,
      name: "corporate sso",
      order_by: "name",
    });
    await client.iam.identityProviders.delete(UID);
    expect(standIn.seen[1]).toMatchObject({
      method: "DELETE",
      path: `/iam/v2beta1/identityProviders/${ROOT}/0123456789abcdef`,
    });
  });
});

describe("identity providers: answers are checked", () => {
  it("fills the members proto3 JSON may leave out with their zero values", async () => {
    const sparse = provider({ description: undefined });
    sparse.oidc = { issuer: "https://sso.example.com", clientId: "c" } as typeof sparse.oidc;
    standIn.answer(json(sparse));
    const read = await standIn.client().iam.identityProviders.get(UID);
    expect(read.description).toBe("");
    expect(read.oidc).toEqual({
      issuer: "https://sso.example.com",
      clientId: "c",
      additionalScopes: [],
      groupsClaim: "",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
    });
  });

  it("never keeps a client secret an answer should not carry", async () => {
    const leaky = provider();
    (leaky.oidc as Record<string, unknown>).clientSecret = SECRET;
    standIn.answer(json(leaky));
    const read = await standIn.client().iam.identityProviders.get(UID);
    expect("clientSecret" in read.oidc).toBe(false);
    expect(inspect(read, { depth: 5 })).not.toContain(SECRET);
  });

  it.each([
    [
      "a defaultRole that is not a role uid",
      { defaultRole: "viewer" },
      "identityProvider.defaultRole: not a role uid (a built-in role's 40 lowercase hex, or a custom role's <group uid>/<16 lowercase hex>)",
    ],
    ["no oidc", { oidc: undefined }, "identityProvider.oidc: missing (expected an object)"],
    [
      "an unknown correlation rule",
      { oidc: { ...provider().oidc, correlationRule: "CORRELATION_RULE_EMAIL" } },
      'identityProvider.oidc.correlationRule: unknown value "CORRELATION_RULE_EMAIL"',
    ],
    [
      "a scope that is not a string",
      { oidc: { ...provider().oidc, additionalScopes: ["email", 3] } },
      "identityProvider.oidc.additionalScopes[1]: expected a string, got a number",
    ],
    [
      "pkceEnabled as a string",
      { oidc: { ...provider().oidc, pkceEnabled: "true" } },
      "identityProvider.oidc.pkceEnabled: expected a boolean, got a string",
    ],
    ["another uid than asked for", { uid: `${ROOT}/fedcba9876543210` }, "is not the uid asked for"],
  ])("refuses %s", async (_what, overrides, message) => {
    standIn.answer(json(provider(overrides)));
    const error = await failure(standIn.client().iam.identityProviders.get(UID));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
  });

  it("takes a create answered outside the group for an unknown outcome", async () => {
    standIn.answer(json(provider({ uid: `${"c".repeat(40)}/0123456789abcdef` })));
    const error = await failure(
      standIn.client().iam.identityProviders.create(ROOT, {
        name: "corporate sso",
        defaultRole: ROLE,
        oidc: { issuer: "https://sso.example.com", clientId: "c", clientSecret: SECRET },
      }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toContain(`is not directly under ${ROOT}`);
  });

  it("refuses a list item outside the name filtered on", async () => {
    standIn.answer(json({ identityProviders: [provider({ name: "other" })], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .iam.identityProviders.list({ name: "corporate sso" })
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain("identityProviders[0].name");
  });
});

describe("identity providers: a page longer than asked for", () => {
  const items = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      provider({ uid: `${ROOT}/${index.toString(16).padStart(16, "0")}` }),
    );

  it.each([
    [{ pageSize: 2 }, 3, "3 items, more than the 2"],
    [{}, 51, "51 items, more than the 50"],
    [{ pageSize: 500 }, 201, "201 items, more than the 200"],
  ])("is refused (%j, %i items)", async (params, count, problem) => {
    standIn.answer(json({ identityProviders: items(count), totalCount: String(count) }));
    const error = await failure(
      standIn
        .client()
        .iam.identityProviders.list(params)
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(problem);
  });

  it("is not refused at exactly the size asked for", async () => {
    standIn.answer(json({ identityProviders: items(2), totalCount: "2" }));
    const page = await standIn.client().iam.identityProviders.list({ pageSize: 2 });
    expect(page.items).toHaveLength(2);
  });
});

describe("identity providers: the client secret never shows", () => {
  const create = () =>
    standIn.client().iam.identityProviders.create(ROOT, {
      name: "corporate sso",
      defaultRole: ROLE,
      oidc: { issuer: "https://sso.example.com", clientId: "c", clientSecret: SECRET },
    });

  it("in an error whose message and field violations echo it", async () => {
    standIn.answer(
      apiError(400, 3, `Invalid argument: oidc.clientSecret: ${SECRET} is too weak`, [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "INVALID_ARGUMENT",
          domain: "iam.example",
        },
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field: "oidc.clientSecret", description: `got ${SECRET}` }],
        },
      ]),
    );
    const error = await failure(create());
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).fieldViolations).toEqual([
      { field: "oidc.clientSecret", description: "got [REDACTED]" },
    ]);
    expect((error as Error).message).toBe(
      "Invalid argument: oidc.clientSecret: [REDACTED] is too weak",
    );
    expect(printed(error)).not.toContain(SECRET);
  });

  it("in the excerpt of a garbled create answer, by value and by key", async () => {
    standIn.answer(
      json(`{"uid":"${UID}","oidc":{"clientSecret":"another-secret-value","x":"${SECRET}"`),
    );
    const error = await failure(create());
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toContain("[REDACTED]");
    expect(printed(error)).not.toContain(SECRET);
    expect(printed(error)).not.toContain("another-secret-value");
  });

  it("in an update's error", async () => {
    standIn.answer(apiError(400, 3, `Invalid argument: oidc: ${SECRET}`));
    const error = await failure(
      standIn.client().iam.identityProviders.update(UID, { oidc: { clientSecret: SECRET } }),
    );
    expect(printed(error)).not.toContain(SECRET);
    expect((error as Error).message).toBe("Invalid argument: oidc: [REDACTED]");
  });
});
