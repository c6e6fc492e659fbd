/**
 * `client.iam.accountAssociations` against a scripted stand-in: every verb is
 * addressed by the group's uid, GitHub installation ids are numbers within
 * `Number.MAX_SAFE_INTEGER` (app ids stay string keys), blocks are checked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadResponseError, OutcomeUnknownError } from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

const ROOT = "a".repeat(40);
const GROUP = `${ROOT}/0123456789abcdef`;
const IDENTITY = `${GROUP}/aa11bb22cc33dd44`;
const TENANT = "0f8fad5b-d9cb-469f-a165-70867728950e";

function association(overrides: Record<string, unknown> = {}) {
  return {
    uid: GROUP,
    name: "prod accounts",
    description: "",
    amazon: { account: "123456789012" },
    google: { projectId: "acme-prod", projectNumber: "1234567890" },
    azure: { tenantId: TENANT, clientIds: { ingester: TENANT } },
    github: {
      appInstallations: {
        "123456": { installations: [{ installationId: "7890123", name: "acme" }] },
      },
    },
    chainguard: { serviceBindings: { INGESTER: IDENTITY } },
    createTime: "2026-11-22T10:00:00.000Z",
    updateTime: "2026-11-22T10:00:00.000Z",
    ...overrides,
  };
}

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

describe("account associations: requests", () => {
  it("creates, reads, updates and deletes at the group's uid", async () => {
    const client = standIn.client();
    const path = `/iam/v2beta1/accountAssociations/${ROOT}/0123456789abcdef`;
    standIn.answer(json(association()), json(association()), json(association()), json({}));
    const body = { name: "prod accounts", amazon: { account: "123456789012" } };
    const created = await client.iam.accountAssociations.create(GROUP, body);
    expect(created.uid).toBe(GROUP);
    await client.iam.accountAssociations.get(GROUP);
    await client.iam.accountAssociations.update(
      GROUP,
      { google: null, description: "d" },
      { updateMask: ["google", "description"] },
    );
    await client.iam.accountAssociations.delete(GROUP);
    expect(standIn.seen.map((r) => `${r.method} ${r.path}?${r.rawQuery}`)).toEqual([
      `POST ${path}?`,
      `GET ${path}?`,
      `PATCH ${path}?updateMask=google,description`,
      `DELETE ${path}?`,
    ]);
    expect(standIn.seen[0].body).toEqual(body);
    // A block sent as null is removed without a mask: the null must reach the wire.
    expect(standIn.seen[2].body).toEqual({ google: null, description: "d" });
  });

  it("lists with scope and name filters", async () => {
    standIn.answer(json({ accountAssociations: [association()], totalCount: "1" }));
    const page = await standIn
      .client()
      .iam.accountAssociations.list({ childrenOf: ROOT, name: "prod accounts" });
    expect(page.items.map((a) => a.uid)).toEqual([GROUP]);
    expect(standIn.seen[0].query).toEqual({ "uidp.children_of": ROOT, name: "prod accounts" });
  });

  it("resolves a delete the service answers with {} although there was none", async () => {
    standIn.answer(json({}));
    await expect(standIn.client().iam.accountAssociations.delete(GROUP)).resolves.toBeUndefined();
  });

  it("sends installation ids as given, and refuses an unsafe number before any request", async () => {
    standIn.answer(json(association()));
    const client = standIn.client();
    const github = {
      appInstallations: {
        "123456": {
          installations: [{ installationId: 7890123 }, { installationId: "9007199254740991" }],
        },
      },
    };
    await client.iam.accountAssociations.create(GROUP, { name: "n", github });
    expect(standIn.seen[0].body).toEqual({ name: "n", github });
    const unsafe = {
      appInstallations: { "42": { installations: [{ installationId: 2 ** 53 + 2 }] } },
    };
    const error = await failure(client.iam.accountAssociations.update(GROUP, { github: unsafe }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      "github.appInstallations.42.installations[0].installationId: must be a positive safe integer (at most 9007199254740991), or its decimal string, got 9007199254740994",
    );
    expect(standIn.seen).toHaveLength(1);
  });
});

describe("account associations: answers are checked", () => {
  it("decodes installation ids to numbers and keeps app ids as string keys", async () => {
    standIn.answer(json(association()));
    const read = await standIn.client().iam.accountAssociations.get(GROUP);
    expect(read.github).toEqual({
      appInstallations: {
        "123456": { installations: [{ installationId: 7890123, name: "acme" }] },
      },
    });
    expect(read.chainguard).toEqual({ serviceBindings: { INGESTER: IDENTITY } });
    expect(read.azure?.clientIds).toEqual({ ingester: TENANT });
  });

  it("leaves out the blocks that are not set, null ones included", async () => {
    standIn.answer(
      json(
        association({ google: undefined, azure: null, github: undefined, chainguard: undefined }),
      ),
    );
    const read = await standIn.client().iam.accountAssociations.get(GROUP);
    expect(Object.keys(read).sort()).toEqual(
      ["amazon", "createTime", "description", "name", "uid", "updateTime"].sort(),
    );
  });

  const app = (installation: unknown) => ({
    github: { appInstallations: { "123456": { installations: [installation] } } },
  });
  it.each([
    [
      "an installation id beyond MAX_SAFE_INTEGER",
      app({ installationId: "9007199254740993" }),
      "accountAssociation.github.appInstallations.123456.installations[0].installationId: not a positive integer within Number.MAX_SAFE_INTEGER",
    ],
    [
      "an installation id that is not an integer",
      app({ installationId: 1.5 }),
      "installations[0].installationId: not a positive integer",
    ],
    [
      "no installation id",
      app({ name: "acme" }),
      "installations[0].installationId: missing (expected a positive integer)",
    ],
    [
      "an app id that is not a number",
      { github: { appInstallations: { acme: { installations: [] } } } },
      "accountAssociation.github.appInstallations.acme: the key is not a GitHub App id (int64)",
    ],
    [
      "installations that are not a list",
      { github: { appInstallations: { "1": { installations: {} } } } },
      "appInstallations.1.installations: expected an array",
    ],
    [
      "an unknown service binding",
      { chainguard: { serviceBindings: { PRINTER: IDENTITY } } },
      'accountAssociation.chainguard.serviceBindings: unknown value "PRINTER"',
    ],
    [
      "a client id that is not a string",
      { azure: { tenantId: TENANT, clientIds: { a: 1 } } },
      "accountAssociation.azure.clientIds.a: expected a string, got a number",
    ],
    [
      "a block that is not an object",
      { amazon: "123456789012" },
      "accountAssociation.amazon: expected an object, got a string",
    ],
    [
      "an amazon block without account",
      { amazon: {} },
      "accountAssociation.amazon.account: missing",
    ],
    ["another group's association", { uid: ROOT }, "is not the uid asked for"],
  ])("refuses %s", async (_what, overrides, message) => {
    standIn.answer(json(association(overrides)));
    const error = await failure(standIn.client().iam.accountAssociations.get(GROUP));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
  });

  it("takes a create answered with another group's association for an unknown outcome", async () => {
    standIn.answer(json(association({ uid: `${GROUP}/1111111111111111` })));
    const error = await failure(
      standIn
        .client()
        .iam.accountAssociations.create(GROUP, { name: "n", amazon: { account: "123456789012" } }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toContain(
      `is not the group the association was created for (${GROUP})`,
    );
  });

  it("refuses a listed association outside the scope", async () => {
    standIn.answer(json({ accountAssociations: [association({ uid: ROOT })], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .iam.accountAssociations.list({ descendantsOf: ROOT })
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(
      `accountAssociations[0].uid: ${ROOT} is not below ${ROOT}`,
    );
  });
});
