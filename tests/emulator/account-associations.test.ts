/**
 * Account associations (addendum 5): one per group at the group's uid, every block's
 * validation, service bindings to service-principal identities directly in the group,
 * update masks that replace or remove whole blocks, the idempotent delete, scope
 * filters on the group's uid, and the deletes they refuse.
 */
import { describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, uniqueName, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

const path = (suffix = "") => `/iam/v2beta1/accountAssociations${suffix}`;
const GUID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const GUID2 = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

useTestOrg((started) => {
  ({ emu, o } = started);
});

async function servicePrincipal(group: string, principal: string): Promise<string> {
  return o.identity(group, { name: uniqueName("service"), servicePrincipal: principal });
}

describe("create and read", () => {
  it("answers the blocks given (and only those), at the group's uid; Get and List answer the same", async () => {
    const group = await o.group(emu.rootGroupUid);
    const ingester = await servicePrincipal(group, "SERVICE_PRINCIPAL_INGESTER");
    const reply = await o.call<Json>("POST", path(`/${group}`), {
      body: {
        name: "prod accounts",
        amazon: { account: "123456789012" },
        github: {
          appInstallations: {
            "123456": {
              installations: [{ installationId: 7890123, name: "acme" }, { installationId: "42" }],
            },
          },
        },
        chainguard: { serviceBindings: { INGESTER: ingester } },
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      uid: group,
      name: "prod accounts",
      description: "",
      amazon: { account: "123456789012" },
      github: {
        appInstallations: {
          "123456": {
            installations: [
              { installationId: "7890123", name: "acme" },
              { installationId: "42", name: "" },
            ],
          },
        },
      },
      chainguard: { serviceBindings: { INGESTER: ingester } },
      createTime: reply.body.createTime,
      updateTime: reply.body.createTime,
    });
    expect((await o.call<Json>("GET", path(`/${group}`))).body).toEqual(reply.body);
    const listed = await o.call<Json>(
      "GET",
      path(`?uidp.descendants_of=${emu.rootGroupUid}&name=prod%20accounts`),
    );
    expect(listed.body.accountAssociations).toEqual([reply.body]);
  });

  it("google and azure blocks", async () => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call<Json>("POST", path(`/${group}`), {
      body: {
        name: "clouds",
        description: "gcp and azure",
        google: { projectId: "my-project-1", projectNumber: "123456789" },
        azure: { tenantId: GUID, clientIds: { ingester: GUID2 } },
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      google: { projectId: "my-project-1", projectNumber: "123456789" },
      azure: { tenantId: GUID, clientIds: { ingester: GUID2 } },
    });
    expect(reply.body).not.toHaveProperty("amazon");
  });

  it("a second create is ALREADY_EXISTS; get and update of none are NOT_FOUND naming the association", async () => {
    const group = await o.group(emu.rootGroupUid);
    expect(failure(await o.call("GET", path(`/${group}`)))).toEqual([
      404,
      `Not found: account association of ${group}`,
    ]);
    expect(failure(await o.call("PATCH", path(`/${group}`), { body: { name: "x" } }))).toEqual([
      404,
      `Not found: account association of ${group}`,
    ]);
    const body = { name: "acct", amazon: { account: "123456789012" } };
    expect((await o.call("POST", path(`/${group}`), { body })).status).toBe(200);
    expect(failure(await o.call("POST", path(`/${group}`), { body }))).toEqual([
      409,
      `Already exists: account association of ${group}`,
    ]);
  });

  it("a missing group is NOT_FOUND naming the group, after the capability check", async () => {
    const missing = `${emu.rootGroupUid}/${"0".repeat(16)}`;
    for (const method of ["GET", "PATCH", "DELETE", "POST"]) {
      const reply = await o.call(method, path(`/${missing}`), {
        body:
          method === "GET" || method === "DELETE"
            ? undefined
            : { name: "a", amazon: { account: "123456789012" } },
      });
      expect(failure(reply), method).toEqual([404, `Not found: ${missing}`]);
    }
    const group = await o.group(emu.rootGroupUid);
    const stranger = await o.actor(group, []);
    expect(failure(await stranger.call("GET", path(`/${missing}`)))).toEqual([
      403,
      `Permission denied: CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST on ${missing}`,
    ]);
  });
});

describe("the order of checks", () => {
  it("path, capability, body, references, uniqueness: the first failure answers", async () => {
    const group = await o.group(emu.rootGroupUid);
    const other = await o.group(emu.rootGroupUid);
    const good = { name: "acct", amazon: { account: "123456789012" } };
    expect((await o.call("POST", path(`/${group}`), { body: good })).status).toBe(200);
    const creator = await o.actorWith(group, ["CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE"]);
    const bad = { name: "acct", amazon: { account: "1" } };
    expect(failure(await creator.call("POST", path("/not-a-uid"), { body: bad }))).toEqual([
      400,
      "Invalid argument: parent: must be a uid (hex segments separated by /)",
    ]);
    expect(failure(await creator.call("POST", path(`/${other}`), { body: bad }))).toEqual([
      403,
      `Permission denied: CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE on ${other}`,
    ]);
    expect(failure(await creator.call("POST", path(`/${group}`), { body: bad }))).toEqual([
      400,
      "Invalid argument: amazon.account: must be 12 digits",
    ]);
    const missing = `${group}/${"0".repeat(16)}`;
    expect(
      failure(
        await creator.call("POST", path(`/${group}`), {
          body: { name: "acct", chainguard: { serviceBindings: { INGESTER: missing } } },
        }),
      ),
    ).toEqual([404, `Not found: ${missing}`]);
    expect(failure(await creator.call("POST", path(`/${group}`), { body: good }))).toEqual([
      409,
      `Already exists: account association of ${group}`,
    ]);
  });
});

describe("validation (5.3)", () => {
  const base = { name: "acct" };
  const rows: Array<[string, Json, string]> = [
    [
      "no block",
      { ...base },
      "body: at least one of amazon, google, azure, github, chainguard is required",
    ],
    [
      "only null blocks",
      { ...base, amazon: null },
      "body: at least one of amazon, google, azure, github, chainguard is required",
    ],
    [
      "name missing",
      { amazon: { account: "123456789012" } },
      "name: must match ^[a-z0-9 ._-]{1,}$",
    ],
    ["block type", { ...base, amazon: "123456789012" }, "amazon: must be an object"],
    ["amazon account missing", { ...base, amazon: {} }, "amazon.account: is required"],
    [
      "amazon account form",
      { ...base, amazon: { account: "12345" } },
      "amazon.account: must be 12 digits",
    ],
    [
      "amazon account type",
      { ...base, amazon: { account: 123456789012 } },
      "amazon.account: must be a string",
    ],
    [
      "google projectId missing",
      { ...base, google: { projectNumber: "1" } },
      "google.projectId: is required",
    ],
    [
      "google projectId size",
      { ...base, google: { projectId: "p".repeat(129), projectNumber: "1" } },
      "google.projectId: must be at most 128 characters",
    ],
    [
      "google projectNumber missing",
      { ...base, google: { projectId: "my-project" } },
      "google.projectNumber: is required",
    ],
    [
      "google projectNumber too long",
      { ...base, google: { projectId: "my-project", projectNumber: "9".repeat(65) } },
      "google.projectNumber: must be at most 64 characters",
    ],
    [
      "azure tenantId missing",
      { ...base, azure: { clientIds: { a: GUID } } },
      "azure.tenantId: is required",
    ],
    [
      "azure tenantId form",
      { ...base, azure: { tenantId: "abc", clientIds: { a: GUID } } },
      "azure.tenantId: must be a GUID",
    ],
    [
      "azure clientIds missing",
      { ...base, azure: { tenantId: GUID } },
      "azure.clientIds: is required",
    ],
    [
      "azure clientIds empty",
      { ...base, azure: { tenantId: GUID, clientIds: {} } },
      "azure.clientIds: must have at least one entry",
    ],
    [
      "azure clientIds empty key",
      { ...base, azure: { tenantId: GUID, clientIds: { "": GUID } } },
      "azure.clientIds: a key must not be empty",
    ],
    [
      "azure client id form",
      { ...base, azure: { tenantId: GUID, clientIds: { ingester: "x" } } },
      "azure.clientIds.ingester: must be a GUID",
    ],
    ["github apps missing", { ...base, github: {} }, "github.appInstallations: is required"],
    [
      "github apps empty",
      { ...base, github: { appInstallations: {} } },
      "github.appInstallations: must have at least one entry",
    ],
    [
      "github app id form",
      {
        ...base,
        github: { appInstallations: { abc: { installations: [{ installationId: 1 }] } } },
      },
      "github.appInstallations.abc: the key must be a GitHub App id (a positive integer)",
    ],
    [
      "github app id over int64",
      {
        ...base,
        github: {
          appInstallations: { "9223372036854775808": { installations: [{ installationId: 1 }] } },
        },
      },
      "github.appInstallations.9223372036854775808: the key must be a GitHub App id (a positive integer)",
    ],
    [
      "github no installation",
      { ...base, github: { appInstallations: { "1": { installations: [] } } } },
      "github.appInstallations.1.installations: must have at least one installation",
    ],
    [
      "github installationId zero",
      {
        ...base,
        github: { appInstallations: { "1": { installations: [{ installationId: 0 }] } } },
      },
      "github.appInstallations.1.installations[0].installationId: must be a positive 64-bit integer",
    ],
    [
      "github installationId text",
      {
        ...base,
        github: { appInstallations: { "1": { installations: [{ installationId: "12a" }] } } },
      },
      "github.appInstallations.1.installations[0].installationId: must be a positive 64-bit integer",
    ],
    [
      "github installationId twice",
      {
        ...base,
        github: {
          appInstallations: {
            "1": { installations: [{ installationId: 5 }, { installationId: "5" }] },
          },
        },
      },
      "github.appInstallations.1.installations[1].installationId: appears twice for this app",
    ],
    [
      "github installationId missing",
      { ...base, github: { appInstallations: { "1": { installations: [{ name: "x" }] } } } },
      "github.appInstallations.1.installations[0].installationId: is required",
    ],
    [
      "chainguard bindings missing",
      { ...base, chainguard: {} },
      "chainguard.serviceBindings: is required",
    ],
    [
      "chainguard bindings empty",
      { ...base, chainguard: { serviceBindings: {} } },
      "chainguard.serviceBindings: must have at least one entry",
    ],
    [
      "chainguard full enum name as key",
      { ...base, chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: "x" } } },
      "chainguard.serviceBindings.SERVICE_PRINCIPAL_INGESTER: the key must be a service principal name without its prefix (COSIGNED, INGESTER, CATALOG_SYNCER, APKO_BUILDER, ENTITLEMENT_SYNCER, TENANT_SCANNER, SEDIMENTOLOGY, SKILLUP, MATERIALIZER, MICROFLOW, GUARDENER, MICROVM, SKILLS)",
    ],
    [
      "chainguard binding value form",
      { ...base, chainguard: { serviceBindings: { INGESTER: "nope" } } },
      "chainguard.serviceBindings.INGESTER: must be a uid (hex segments separated by /)",
    ],
  ];
  it.each(rows)("%s is INVALID_ARGUMENT naming the field", async (_case, body, message) => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call<Json>("POST", path(`/${group}`), { body });
    expect(failure(reply)).toEqual([400, `Invalid argument: ${message}`]);
    expect(failure(await o.call("GET", path(`/${group}`)))[0]).toBe(404);
  });

  it("an installation id as large as int64 allows is kept exactly, as a string", async () => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call<Json>("POST", path(`/${group}`), {
      body: {
        name: "big",
        github: {
          appInstallations: {
            "9223372036854775807": { installations: [{ installationId: "9223372036854775807" }] },
          },
        },
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toContain('"installationId":"9223372036854775807"');
  });
});

describe("service bindings", () => {
  it("name an existing identity directly in the group with the matching service principal", async () => {
    const group = await o.group(emu.rootGroupUid);
    const child = await o.group(group);
    const ingester = await servicePrincipal(group, "SERVICE_PRINCIPAL_INGESTER");
    const deeper = await servicePrincipal(child, "SERVICE_PRINCIPAL_INGESTER");
    const person = await o.identity(group);
    const missing = `${group}/${"0".repeat(16)}`;
    const attempt = (value: string, key = "INGESTER") =>
      o.call("POST", path(`/${group}`), {
        body: { name: "cg", chainguard: { serviceBindings: { [key]: value } } },
      });
    expect(failure(await attempt(missing))).toEqual([404, `Not found: ${missing}`]);
    expect(failure(await attempt(deeper))).toEqual([
      400,
      "Invalid argument: chainguard.serviceBindings.INGESTER: must name an identity directly in this group",
    ]);
    expect(failure(await attempt(person))).toEqual([
      400,
      "Invalid argument: chainguard.serviceBindings.INGESTER: must name an identity whose servicePrincipal is SERVICE_PRINCIPAL_INGESTER",
    ]);
    expect(failure(await attempt(ingester, "COSIGNED"))).toEqual([
      400,
      "Invalid argument: chainguard.serviceBindings.COSIGNED: must name an identity whose servicePrincipal is SERVICE_PRINCIPAL_COSIGNED",
    ]);
    expect((await attempt(ingester)).status).toBe(200);
  });

  it("an identity a binding names cannot be deleted until the association lets it go", async () => {
    const group = await o.group(emu.rootGroupUid);
    const ingester = await servicePrincipal(group, "SERVICE_PRINCIPAL_INGESTER");
    await o.call("POST", path(`/${group}`), {
      body: { name: "cg", chainguard: { serviceBindings: { INGESTER: ingester } } },
    });
    const refused = await o.call<Json>("DELETE", `/iam/v2beta1/identities/${ingester}`);
    expect(failure(refused)).toEqual([
      400,
      `Precondition failed: identity ${ingester} is named in the serviceBindings of the account association of ${group}`,
    ]);
    expect(JSON.stringify(refused.body)).toContain('"type":"RESOURCE_IN_USE"');
    const swapped = await o.call("PATCH", path(`/${group}?updateMask=chainguard,amazon`), {
      body: { amazon: { account: "123456789012" } },
    });
    expect(swapped.status).toBe(200);
    expect((await o.call("DELETE", `/iam/v2beta1/identities/${ingester}`)).status).toBe(200);
  });
});

describe("update (5.4)", () => {
  async function fresh(): Promise<string> {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call("POST", path(`/${group}`), {
      body: {
        name: "acct",
        description: "d",
        amazon: { account: "123456789012" },
        google: { projectId: "my-project", projectNumber: "1" },
      },
    });
    expect(reply.status).toBe(200);
    return group;
  }

  it("without a mask the keys present apply; a block sent as null is removed", async () => {
    const group = await fresh();
    const reply = await o.call<Json>("PATCH", path(`/${group}`), {
      body: { google: null, amazon: { account: "210987654321" } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      name: "acct",
      description: "d",
      amazon: { account: "210987654321" },
    });
    expect(reply.body).not.toHaveProperty("google");
  });

  it("with a mask a named block absent from the body is removed; blocks are replaced whole", async () => {
    const group = await fresh();
    const reply = await o.call<Json>("PATCH", path(`/${group}?updateMask=google,azure`), {
      body: {
        azure: { tenantId: GUID, clientIds: { a: GUID2 } },
        amazon: { account: "000000000000" },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.amazon).toEqual({ account: "123456789012" });
    expect(reply.body).not.toHaveProperty("google");
    expect(reply.body.azure).toEqual({ tenantId: GUID, clientIds: { a: GUID2 } });
  });

  it("* applies all seven fields from the body, removing absent blocks", async () => {
    const group = await fresh();
    const reply = await o.call<Json>("PATCH", path(`/${group}?updateMask=*`), {
      body: {
        name: "renamed",
        github: { appInstallations: { "7": { installations: [{ installationId: 1 }] } } },
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      uid: group,
      name: "renamed",
      description: "",
      github: { appInstallations: { "7": { installations: [{ installationId: "1", name: "" }] } } },
      createTime: reply.body.createTime,
      updateTime: reply.body.updateTime,
    });
  });

  it("no block left is INVALID_ARGUMENT on body", async () => {
    const group = await fresh();
    const none = await o.call("PATCH", path(`/${group}?updateMask=amazon,google`), { body: {} });
    expect(failure(none)).toEqual([
      400,
      "Invalid argument: body: at least one of amazon, google, azure, github, chainguard is required",
    ]);
  });
});

describe("update: a leaf inside a block (corrections 15)", () => {
  async function fresh(): Promise<string> {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call("POST", path(`/${group}`), {
      body: {
        name: "acct",
        google: { projectId: "my-project", projectNumber: "1" },
        azure: { tenantId: GUID, clientIds: { a: GUID, b: GUID } },
      },
    });
    expect(reply.status).toBe(200);
    return group;
  }

  it.each(["google.project_id", "google.projectId"])(
    "a mask %s changes that member and keeps the rest of the block and the others",
    async (mask) => {
      const group = await fresh();
      const reply = await o.call<Json>("PATCH", path(`/${group}?updateMask=${mask}`), {
        body: { google: { projectId: "other-project", projectNumber: "99" } },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.google).toEqual({ projectId: "other-project", projectNumber: "1" });
      expect(reply.body.azure).toEqual({ tenantId: GUID, clientIds: { a: GUID, b: GUID } });
    },
  );

  it("without a mask a block's members present apply, as the gateway's implied mask", async () => {
    const group = await fresh();
    const reply = await o.call<Json>("PATCH", path(`/${group}`), {
      body: { google: { projectId: "other-project" } },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.google).toEqual({ projectId: "other-project", projectNumber: "1" });
    expect(reply.body.azure).toEqual({ tenantId: GUID, clientIds: { a: GUID, b: GUID } });
  });

  it("without a mask an empty block is named whole, as the gateway implies, and judged", async () => {
    const group = await fresh();
    const reply = await o.call("PATCH", path(`/${group}`), { body: { google: {} } });
    expect(failure(reply)).toEqual([400, "Invalid argument: google.projectId: is required"]);
  });

  it("a map member is replaced whole", async () => {
    const group = await fresh();
    const reply = await o.call<Json>("PATCH", path(`/${group}?updateMask=azure.client_ids`), {
      body: { azure: { clientIds: { c: GUID2 } } },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.azure).toEqual({ tenantId: GUID, clientIds: { c: GUID2 } });
  });

  it("a named member left out is cleared, and the block judged whole", async () => {
    const group = await fresh();
    const cleared = await o.call("PATCH", path(`/${group}?updateMask=google.project_number`), {
      body: {},
    });
    expect(failure(cleared)).toEqual([400, "Invalid argument: google.projectNumber: is required"]);
    const added = await o.call("PATCH", path(`/${group}?updateMask=amazon.account`), {
      body: { amazon: { account: "1234" } },
    });
    expect(failure(added)).toEqual([400, "Invalid argument: amazon.account: must be 12 digits"]);
    const got = await o.call<Json>("GET", path(`/${group}`));
    expect(got.body.google).toEqual({ projectId: "my-project", projectNumber: "1" });
    expect(got.body).not.toHaveProperty("amazon");
  });

  it("a leaf of a block the association lacks starts that block", async () => {
    const group = await fresh();
    const reply = await o.call<Json>("PATCH", path(`/${group}?updateMask=amazon.account`), {
      body: { amazon: { account: "123456789012" } },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.amazon).toEqual({ account: "123456789012" });
  });

  it("a path that is no member is still refused, naming it", async () => {
    const group = await fresh();
    const reply = await o.call("PATCH", path(`/${group}?updateMask=google.project`), { body: {} });
    expect(failure(reply)[1]).toMatch(
      /^Invalid argument: update_mask: "google\.project" is not a writable field/,
    );
  });
});

describe("delete", () => {
  it("is idempotent while the group exists; the group is not empty while it has one", async () => {
    const group = await o.group(emu.rootGroupUid);
    await o.call("POST", path(`/${group}`), {
      body: { name: "a", amazon: { account: "123456789012" } },
    });
    const blocked = await o.call("DELETE", `/iam/v2beta1/groups/${group}`);
    expect(failure(blocked)).toEqual([
      400,
      `Precondition failed: group ${group} is not empty: it still has 1 account association`,
    ]);
    expect((await o.call("DELETE", path(`/${group}`))).body).toEqual({});
    const again = await o.call("DELETE", path(`/${group}`));
    expect([again.status, again.body]).toEqual([200, {}]);
    expect((await o.call("DELETE", `/iam/v2beta1/groups/${group}`)).status).toBe(200);
  });

  it("the capability comes first, even for a group without an association", async () => {
    const group = await o.group(emu.rootGroupUid);
    const stranger = await o.actor(group, []);
    expect(failure(await stranger.call("DELETE", path(`/${group}`)))).toEqual([
      403,
      `Permission denied: CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE on ${group}`,
    ]);
  });
});

describe("lists (5.2)", () => {
  it("scope filters test the group's uid: descendants strictly below, children of direct child groups", async () => {
    const top = await o.group(emu.rootGroupUid);
    const child = await o.group(top);
    const grandchild = await o.group(child);
    for (const [group, name] of [
      [top, "top"],
      [child, "child"],
      [grandchild, "grandchild"],
    ]) {
      await o.call("POST", path(`/${group}`), {
        body: { name, amazon: { account: "123456789012" } },
      });
    }
    const names = async (query: string) =>
      ((await o.call<Json>("GET", path(`?${query}`))).body.accountAssociations as Json[]).map(
        (a) => a.name,
      );
    expect(await names(`uidp.descendants_of=${top}&order_by=name`)).toEqual([
      "child",
      "grandchild",
    ]);
    expect(await names(`uidp.children_of=${top}`)).toEqual(["child"]);
    expect(await names(`uidp.children_of=${emu.rootGroupUid}&name=top`)).toEqual(["top"]);
    expect(await names(`uidp.descendants_of=${top}&order_by=name%20desc&page_size=1`)).toEqual([
      "grandchild",
    ]);
  });

  it("a caller sees the associations of groups where it holds accountAssociations.list", async () => {
    const top = await o.group(emu.rootGroupUid);
    const visible = await o.group(top);
    const hidden = await o.group(top);
    for (const group of [visible, hidden]) {
      await o.call("POST", path(`/${group}`), {
        body: { name: "a", amazon: { account: "123456789012" } },
      });
    }
    const reader = await o.actor(top, [
      [visible, await o.role(top, ["CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST"])],
    ]);
    const listed = await reader.call<Json>("GET", path(`?uidp.descendants_of=${top}`));
    expect((listed.body.accountAssociations as Json[]).map((a) => a.uid)).toEqual([visible]);
  });
});
