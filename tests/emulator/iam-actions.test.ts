/**
 * The IAM calls HEAD publishes beyond the collections' verbs: `roleBindings:batchCreate`
 * (all or none, with a single create's checks), `identities:lookupIdentity`,
 * `accountAssociations/<uid>:checkAccountAssociation`, the groups' email-domain calls
 * and the terms acceptances.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;
let editor: string;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
  editor = await o.builtIn("editor");
});

const BATCH = "/iam/v2beta1/roleBindings:batchCreate";
const bindingsOf = async (group: string) =>
  ((await o.call<Json>("GET", `/iam/v2beta1/roleBindings?uidp.children_of=${group}`)).body
    .roleBindings ?? []) as Json[];

describe("roleBindings:batchCreate", () => {
  it("makes every binding in one group, in the order asked, as single creates answer them", async () => {
    const group = await o.group(emu.rootGroupUid);
    const [a, b] = [await o.identity(group), await o.identity(group)];
    const reply = await o.call<Json>("POST", BATCH, {
      body: {
        parent: group,
        requests: [
          { roleBinding: { identityUid: a, roleUid: viewer } },
          { parent: group, roleBinding: { identityUid: b, roleUid: viewer } },
          { roleBinding: { identityUid: a, roleUid: editor } },
        ],
      },
    });
    expect(reply.status, reply.text).toBe(200);
    const made = reply.body.roleBindings as Json[];
    expect(made.map((m) => [(m.identity as Json).uid, (m.role as Json).uid])).toEqual([
      [a, viewer],
      [b, viewer],
      [a, editor],
    ]);
    for (const binding of made) {
      expect(binding.uid).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
      const got = await o.call<Json>("GET", `/iam/v2beta1/roleBindings/${binding.uid}`);
      expect(got.body).toEqual(binding);
    }
  });

  it("a batch roleUid is inherited by the requests that name none", async () => {
    const group = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const reply = await o.call<Json>("POST", BATCH, {
      body: { parent: group, roleUid: editor, requests: [{ roleBinding: { identityUid: who } }] },
    });
    expect(((reply.body.roleBindings as Json[])[0].role as Json).uid).toBe(editor);
  });

  it.each([
    [{ requests: [] }, "requests", "must hold 1 to 25 bindings"],
    [
      { requests: Array.from({ length: 26 }, () => ({ roleBinding: {} })) },
      "requests",
      "must hold 1 to 25 bindings",
    ],
    [
      { requests: [{ roleBinding: { roleUid: "v" } }] },
      "requests[0].roleBinding.identityUid",
      "is required",
    ],
    [
      { requests: [{ roleBinding: { identityUid: "x" } }] },
      "requests[0].roleBinding.roleUid",
      "is required",
    ],
  ])("refuses %j naming the field", async (body, field, rule) => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call("POST", BATCH, { body: { parent: group, ...body } });
    expect(failure(reply)).toEqual([400, `Invalid argument: ${field}: ${rule}`]);
  });

  it("a sub-request naming another parent or role is refused (AIP-233)", async () => {
    const group = await o.group(emu.rootGroupUid);
    const other = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const elsewhere = await o.call("POST", BATCH, {
      body: {
        parent: group,
        requests: [{ parent: other, roleBinding: { identityUid: who, roleUid: viewer } }],
      },
    });
    expect(failure(elsewhere)).toEqual([
      400,
      "Invalid argument: requests[0].parent: must be empty or the batch's parent",
    ]);
    const conflict = await o.call("POST", BATCH, {
      body: {
        parent: group,
        roleUid: viewer,
        requests: [{ roleBinding: { identityUid: who, roleUid: editor } }],
      },
    });
    expect(failure(conflict)).toEqual([
      400,
      "Invalid argument: requests[0].roleBinding.roleUid: differs from the batch's roleUid",
    ]);
  });

  it("all or none: one failing binding leaves the group without any", async () => {
    const group = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const missing = `${group}/0123456789abcdef`;
    const reply = await o.call("POST", BATCH, {
      body: {
        parent: group,
        roleUid: viewer,
        requests: [
          { roleBinding: { identityUid: who } },
          { roleBinding: { identityUid: missing } },
        ],
      },
    });
    expect(failure(reply)).toEqual([404, `Not found: ${missing}`]);
    expect(await bindingsOf(group)).toEqual([]);
    const twice = await o.call("POST", BATCH, {
      body: {
        parent: group,
        roleUid: viewer,
        requests: [{ roleBinding: { identityUid: who } }, { roleBinding: { identityUid: who } }],
      },
    });
    expect(failure(twice)).toEqual([
      400,
      "Invalid argument: requests[1]: binds the same identity and role as requests[0]",
    ]);
    expect(await bindingsOf(group)).toEqual([]);
    await o.bind(group, who, viewer);
    const existing = await o.call("POST", BATCH, {
      body: { parent: group, roleUid: viewer, requests: [{ roleBinding: { identityUid: who } }] },
    });
    expect(existing.status).toBe(409);
  });

  it("needs CAP_IAM_ROLE_BINDINGS_CREATE on the group and every capability of each role", async () => {
    const group = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const body = {
      parent: group,
      roleUid: viewer,
      requests: [{ roleBinding: { identityUid: who } }],
    };
    const reader = await o.actorWith(group, ["CAP_IAM_ROLE_BINDINGS_LIST"]);
    const before = (await bindingsOf(group)).length;
    const refused = await reader.call("POST", BATCH, { body });
    expect(failure(refused)[0]).toBe(403);
    expect(failure(refused)[1]).toContain("CAP_IAM_ROLE_BINDINGS_CREATE");
    const binder = await o.actorWith(group, [
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_IDENTITY_LIST",
    ]);
    const escalation = await binder.call("POST", BATCH, { body });
    expect(failure(escalation)[0]).toBe(403);
    // Only the two actors' own bindings: the batch made none.
    expect((await bindingsOf(group)).length).toBe(before + 1);
  });

  it("is POST only", async () => {
    const reply = await o.call<Json>("GET", BATCH);
    expect(reply.status).toBe(501);
  });
});

describe("identities:lookupIdentity", () => {
  it("answers the identity naming exactly that issuer and subject, else a derived flat uid", async () => {
    const group = await o.group(emu.rootGroupUid);
    const known = await o.identity(group, {
      name: "person",
      claimMatch: { issuer: "https://accounts.example", subject: "user-42" },
    });
    const found = await o.call<Json>(
      "GET",
      "/iam/v2beta1/identities:lookupIdentity?issuer=https%3A%2F%2Faccounts.example&subject=user-42",
    );
    expect(found.body).toEqual({ uid: known });
    const future = await o.call<Json>(
      "GET",
      "/iam/v2beta1/identities:lookupIdentity?issuer=https%3A%2F%2Faccounts.example&subject=user-43",
    );
    expect(future.body.uid).toMatch(/^[0-9a-f]{40}$/);
    const again = await o.call<Json>(
      "GET",
      "/iam/v2beta1/identities:lookupIdentity?issuer=https%3A%2F%2Faccounts.example&subject=user-43",
    );
    expect(again.body.uid).toBe(future.body.uid);
    const missing = await o.call("GET", "/iam/v2beta1/identities:lookupIdentity?issuer=x");
    expect(failure(missing)).toEqual([400, "Invalid argument: subject: is required"]);
    const anonymous = await o.call(
      "GET",
      "/iam/v2beta1/identities:lookupIdentity?issuer=x&subject=y",
      {
        token: null,
      },
    );
    expect(anonymous.status).toBe(401);
  });
});

describe("accountAssociations:checkAccountAssociation", () => {
  it("READY for a configured provider, NOT_READY otherwise; needs the LIST capability", async () => {
    const group = await o.group(emu.rootGroupUid);
    const path = `/iam/v2beta1/accountAssociations/${group}:checkAccountAssociation`;
    const none = await o.call("POST", path, {
      body: { providerType: "ACCOUNT_PROVIDER_TYPE_AMAZON" },
    });
    expect(failure(none)).toEqual([404, `Not found: ${group}`]);
    await o.call("POST", `/iam/v2beta1/accountAssociations/${group}`, {
      body: { name: "accounts", amazon: { account: "123456789012" } },
    });
    const ready = await o.call<Json>("POST", path, {
      body: { providerType: "ACCOUNT_PROVIDER_TYPE_AMAZON" },
    });
    expect(ready.body).toEqual({ status: "CHECK_STATUS_READY" });
    const google = await o.call<Json>("POST", path, {
      body: { providerType: "ACCOUNT_PROVIDER_TYPE_GOOGLE" },
    });
    expect(google.body).toEqual({ status: "CHECK_STATUS_NOT_READY", reason: "not configured" });
    const unspecified = await o.call("POST", path, { body: {} });
    expect(failure(unspecified)[1]).toMatch(/^Invalid argument: providerType: must be one of/);
    const stranger = await o.actorWith(await o.group(emu.rootGroupUid), ["CAP_IAM_GROUPS_LIST"]);
    const refused = await stranger.call("POST", path, {
      body: { providerType: "ACCOUNT_PROVIDER_TYPE_AMAZON" },
    });
    expect(failure(refused)[0]).toBe(403);
  });
});

describe("the groups' email-domain calls", () => {
  it("no emulator token carries a verified email: NOT_FOUND, not eligible", async () => {
    const lookup = await o.call("GET", "/iam/v2beta1/groups:lookupGroup");
    expect(failure(lookup)[0]).toBe(404);
    const eligible = await o.call<Json>("GET", "/iam/v2beta1/groups:checkEligibility");
    expect(eligible.body).toEqual({ eligible: false });
    const request = await o.call(
      "POST",
      `/iam/v2beta1/groups/${emu.rootGroupUid}:requestGroupAccess`,
      {
        body: {},
      },
    );
    expect(failure(request)[0]).toBe(404);
    expect(
      (await o.call("GET", "/iam/v2beta1/groups:checkEligibility", { token: null })).status,
    ).toBe(401);
  });
});

describe("terms", () => {
  it("records accepted documents once each, and lists a group's with its ancestors'", async () => {
    const group = await o.group(emu.rootGroupUid);
    const accepted = await o.call<Json>("POST", `/iam/v2beta1/terms/${emu.rootGroupUid}`, {
      body: { documentIds: ["tos.v1", "dpa.v2", "tos.v1"] },
    });
    expect(accepted.body).toEqual({ group: emu.rootGroupUid, documentIds: ["tos.v1", "dpa.v2"] });
    await o.call("POST", `/iam/v2beta1/terms/${group}`, { body: { documentIds: ["extra.v1"] } });
    await o.call("POST", `/iam/v2beta1/terms/${emu.rootGroupUid}`, {
      body: { documentIds: ["tos.v1"] },
    });
    const listed = await o.call<Json>("GET", `/iam/v2beta1/terms/${group}`);
    const items = listed.body.termsAcceptances as Json[];
    expect(items.map((a) => [a.docId, a.orgUid])).toEqual([
      ["tos.v1", emu.rootGroupUid],
      ["dpa.v2", emu.rootGroupUid],
      ["extra.v1", group],
    ]);
    expect(items[0].acceptedBy).toMatch(/^[0-9a-f]{40}/);
    expect(listed.body.totalCount).toBe("3");
    const first = await o.call<Json>("GET", `/iam/v2beta1/terms/${group}?page_size=2`);
    const rest = await o.call<Json>(
      "GET",
      `/iam/v2beta1/terms/${group}?page_size=2&page_token=${first.body.nextPageToken}`,
    );
    expect((rest.body.termsAcceptances as Json[]).map((a) => a.docId)).toEqual(["extra.v1"]);
    expect(rest.body.nextPageToken).toBe("");
  });

  it("needs CAP_TERMS_ACCEPT to accept and CAP_TERMS_LIST to list; refuses no documents", async () => {
    const group = await o.group(emu.rootGroupUid);
    const lister = await o.actorWith(group, ["CAP_TERMS_LIST"]);
    expect((await lister.call("GET", `/iam/v2beta1/terms/${group}`)).status).toBe(200);
    const refused = await lister.call("POST", `/iam/v2beta1/terms/${group}`, {
      body: { documentIds: ["tos.v1"] },
    });
    expect(failure(refused)[1]).toContain("CAP_TERMS_ACCEPT");
    const empty = await o.call("POST", `/iam/v2beta1/terms/${group}`, {
      body: { documentIds: [] },
    });
    expect(failure(empty)).toEqual([
      400,
      "Invalid argument: documentIds: must hold 1 to 50 document ids",
    ]);
  });
});

describe("identities:updateIdentityMetadata", () => {
  const path = "/iam/v2beta1/identities:updateIdentityMetadata";

  it("keeps the caller's own fields: those the body sets, or the mask names; * replaces", async () => {
    const group = await o.group(emu.rootGroupUid);
    const me = await o.actorWith(group, ["CAP_IAM_GROUPS_LIST"]);
    const first = await me.call<Json>("PATCH", path, {
      body: { identityMetadata: { company: "Acme", jobTitle: "SRE", hubspotUtk: "utk-1" } },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      uid: me.identityUid,
      company: "Acme",
      jobTitle: "SRE",
      hubspotUtk: "utk-1",
    });
    const masked = await me.call<Json>("PATCH", path, {
      body: {
        identityMetadata: { company: "Other", updatesOptIn: true },
        updateMask: "updates_opt_in",
      },
    });
    expect(masked.body).toMatchObject({ company: "Acme", jobTitle: "SRE", updatesOptIn: true });
    // The HubSpot value is ephemeral: echoed once, never kept.
    expect(masked.body).not.toHaveProperty("hubspotUtk");
    const replaced = await me.call<Json>("PATCH", path, {
      body: { identityMetadata: { product: "images" }, updateMask: "*" },
    });
    expect(replaced.body).not.toHaveProperty("company");
    expect(replaced.body.product).toBe("images");
    // Another caller's metadata is its own.
    const other = await o.call<Json>("PATCH", path, { body: { identityMetadata: {} } });
    expect(other.body).not.toHaveProperty("product");
  });

  it("refuses an unknown mask path and a value of the wrong type", async () => {
    const unknown = await o.call("PATCH", path, {
      body: { identityMetadata: {}, updateMask: "email" },
    });
    expect(failure(unknown)).toEqual([
      400,
      'Invalid argument: update_mask: "email" is not a field of the metadata',
    ]);
    const wrong = await o.call("PATCH", path, { body: { identityMetadata: { selfServe: "yes" } } });
    expect(failure(wrong)).toEqual([
      400,
      "Invalid argument: identityMetadata.selfServe: must be a boolean",
    ]);
  });
});
