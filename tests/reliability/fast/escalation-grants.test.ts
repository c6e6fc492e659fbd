/**
 * Escalation through the IAM additions: no one grants more than they hold. An invite's
 * role, an identity provider's default role, the capabilities added to a custom role
 * and the identities named in an account association's service bindings each hand
 * capabilities to someone else, so each needs the caller to hold them. An editor
 * never writes an access grant, and a custom role is usable only in its group's
 * subtree.
 *
 * The attacker, mallory, holds a custom role "gatekeeper" in group A that grants every
 * write on the new collections but not, for instance, `CAP_IAM_GROUPS_DELETE`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../../emulator/capabilities";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;
let mallory: Caller;
let editor: Caller;
/** A under the root, A1 under A, B a sibling of A. */
let groupA = "";
let groupA1 = "";
let groupB = "";
let ownerRole = "";
let editorRole = "";
let viewerRole = "";
let gatekeeper = "";
/** A custom role of A with a capability mallory lacks. */
let wide = "";

const GATEKEEPER_CAPABILITIES = [
  "CAP_IAM_GROUPS_LIST",
  "CAP_IAM_GROUP_INVITES_CREATE",
  "CAP_IAM_GROUP_INVITES_LIST",
  "CAP_IAM_ROLES_UPDATE",
  "CAP_IAM_ROLES_LIST",
  "CAP_IAM_ROLE_BINDINGS_CREATE",
  "CAP_IAM_ROLE_BINDINGS_LIST",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST",
  "CAP_IAM_IDENTITY_LIST",
  "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
  "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
  "CAP_IAM_IDENTITY_PROVIDERS_LIST",
];

async function roleUid(name: string): Promise<string> {
  const reply = await owner<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=${enc(name)}`);
  return reply.body.roles[0].uid as string;
}

async function post(who: Caller, path: string, body: Json) {
  return who<Json>("POST", `/iam/v2beta1/${path}`, { body });
}

async function made(path: string, body: Json): Promise<Json> {
  const reply = await post(owner, path, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function identityIn(group: string, name: string, extra: Json = {}): Promise<string> {
  const body = {
    name,
    ...(Object.keys(extra).length > 0
      ? extra
      : { claimMatch: { issuer: emu.issuer, subject: name } }),
  };
  return (await made(`identities/${group}`, body)).uid as string;
}

async function bind(group: string, identityUid: string, role: string): Promise<void> {
  await made(`roleBindings/${group}`, { identityUid, roleUid: role });
}

function expectDenied(reply: { status: number; body: Json; text: string }, capability?: string) {
  expect(reply.status, reply.text).toBe(403);
  expect(reasonOf(reply.body)).toBe("PERMISSION_DENIED");
  if (capability)
    expect(reply.body.message).toMatch(
      new RegExp(`^Permission denied: ${capability.replace(".", "\\.")} on `),
    );
}

const idpBody = (defaultRole: string, name = "corp sso"): Json => ({
  name,
  defaultRole,
  oidc: { issuer: "https://login.example.com", clientId: "irm", clientSecret: "s3cret-value" },
});

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  ownerRole = await roleUid("owner");
  editorRole = await roleUid("editor");
  viewerRole = await roleUid("viewer");
  groupA = (await made(`groups/${emu.rootGroupUid}`, { name: "group a" })).uid as string;
  groupA1 = (await made(`groups/${groupA}`, { name: "group a1" })).uid as string;
  groupB = (await made(`groups/${emu.rootGroupUid}`, { name: "group b" })).uid as string;
  gatekeeper = (
    await made(`roles/${groupA}`, { name: "gatekeeper", capabilities: GATEKEEPER_CAPABILITIES })
  ).uid as string;
  wide = (
    await made(`roles/${groupA}`, {
      name: "wide",
      capabilities: [...GATEKEEPER_CAPABILITIES, "CAP_IAM_GROUPS_DELETE"],
    })
  ).uid as string;
  const m = await identityIn(groupA, "mallory");
  await bind(groupA, m, gatekeeper);
  mallory = caller(emu.url, await emu.mintToken(m, 3600));
  const ed = await identityIn(groupA, "ed the editor");
  await bind(groupA, ed, editorRole);
  editor = caller(emu.url, await emu.mintToken(ed, 3600));
});

afterAll(async () => {
  await emu?.close();
});

describe("an invite's role", () => {
  it.each([
    ["owner", () => ownerRole, "CAP_IAM_GROUPS_CREATE"],
    ["editor", () => editorRole, "CAP_TENANT_RECORD_SIGNATURES_LIST"],
    ["a custom role with groups.delete", () => wide, "CAP_IAM_GROUPS_DELETE"],
  ])(
    "mallory cannot invite to %s: PERMISSION_DENIED naming what she lacks, no invite made",
    async (_n, role, missing) => {
      // Other tests make invites in A too: nothing new, whatever ran before.
      const invitesOfA = async () =>
        (
          await owner<{ groupInvites?: Json[] }>(
            "GET",
            `/iam/v2beta1/groupInvites?uidp.children_of=${groupA}`,
          )
        ).body.groupInvites ?? [];
      const before = await invitesOfA();
      const reply = await post(mallory, `groupInvites/${groupA}`, { roleUid: role(), ttl: "600s" });
      expectDenied(reply, missing);
      expect(reply.text).not.toMatch(/"keyId"|"code":"/);
      expect(await invitesOfA()).toEqual(before);
    },
  );

  it("a role she holds whole may be invited to (the rule is not a blanket refusal)", async () => {
    const reply = await post(mallory, `groupInvites/${groupA}`, {
      roleUid: gatekeeper,
      ttl: "600s",
    });
    expect(reply.status, reply.text).toBe(200);
    const viewer = await post(mallory, `groupInvites/${groupA1}`, {
      roleUid: viewerRole,
      ttl: "60s",
    });
    // viewer needs every *.list and *.get: gatekeeper lacks most of them.
    expectDenied(viewer);
  });
});

describe("an identity provider's default role", () => {
  it("create with owner, editor or a wider custom role: PERMISSION_DENIED, nothing made", async () => {
    // Other tests make providers in A too: nothing new, whatever ran before.
    const providersOfA = async () =>
      (
        await owner<{ identityProviders?: Json[] }>(
          "GET",
          `/iam/v2beta1/identityProviders?uidp.children_of=${groupA}`,
        )
      ).body.identityProviders ?? [];
    const before = await providersOfA();
    for (const role of [ownerRole, editorRole, wide]) {
      expectDenied(await post(mallory, `identityProviders/${groupA}`, idpBody(role)));
    }
    expect(await providersOfA()).toEqual(before);
  });

  it.each([
    ["mask defaultRole", "?updateMask=defaultRole", (role: string) => ({ defaultRole: role })],
    ["mask *", `?updateMask=${enc("*")}`, (role: string) => idpBody(role, "mine")],
    ["no mask", "", (role: string) => ({ defaultRole: role })],
  ])(
    "%s: switching her own provider's default role to owner is refused",
    async (_f, query, body) => {
      const created = await post(
        mallory,
        `identityProviders/${groupA}`,
        idpBody(gatekeeper, "mine"),
      );
      expect(created.status, created.text).toBe(200);
      const uid = created.body.uid as string;
      expectDenied(
        await mallory<Json>("PATCH", `/iam/v2beta1/identityProviders/${uid}${query}`, {
          body: body(ownerRole),
        }),
      );
      const after = await owner<Json>("GET", `/iam/v2beta1/identityProviders/${uid}`);
      expect(after.body.defaultRole).toBe(gatekeeper);
      expect(after.body.updateTime).toBe(created.body.updateTime);
    },
  );
});

describe("an identity provider's update, by who holds what", () => {
  /** Ivy may update providers of A and nothing else: no binding create, no role held. */
  let ivy: Caller;
  let provider = "";
  const patch = (who: Caller, mask: string, body: Json) =>
    who<Json>("PATCH", `/iam/v2beta1/identityProviders/${provider}?updateMask=${enc(mask)}`, {
      body,
    });
  const stored = async () =>
    (await owner<Json>("GET", `/iam/v2beta1/identityProviders/${provider}`)).body;

  beforeAll(async () => {
    const updater = (
      await made(`roles/${groupA}`, {
        name: "provider updater",
        capabilities: ["CAP_IAM_IDENTITY_PROVIDERS_UPDATE", "CAP_IAM_IDENTITY_PROVIDERS_LIST"],
      })
    ).uid as string;
    const i = await identityIn(groupA, "ivy");
    await bind(groupA, i, updater);
    ivy = caller(emu.url, await emu.mintToken(i, 3600));
    provider = (await made(`identityProviders/${groupA}`, idpBody(gatekeeper, "ivys sso")))
      .uid as string;
  });

  it("an update that leaves the default role alone needs only the update capability", async () => {
    const reply = await patch(ivy, "name", { name: "renamed sso" });
    expect(reply.status, reply.text).toBe(200);
    expect((await stored()).name).toBe("renamed sso");
    const oidc = await patch(ivy, "oidc.client_id", { oidc: { clientId: "irm-2" } });
    expect(oidc.status, oidc.text).toBe(200);
  });

  it.each([
    ["default_role", (role: string) => ({ defaultRole: role })],
    ["*", (role: string) => idpBody(role, "renamed sso")],
  ])(
    "mask %s: needs what the create needs, refused naming the first capability missing",
    async (mask, body) => {
      const before = await stored();
      // Ivy cannot promise any binding: even a role she could read is refused.
      expectDenied(await patch(ivy, mask, body(viewerRole)));
      expect((await patch(ivy, mask, body(viewerRole))).body.message).toBe(
        `Permission denied: CAP_IAM_ROLE_BINDINGS_CREATE on ${groupA}`,
      );
      // Mallory may create bindings, but does not hold owner's capabilities.
      const reply = await patch(mallory, mask, body(ownerRole));
      expectDenied(reply);
      expect(reply.body.message).toBe(`Permission denied: CAP_IAM_GROUPS_CREATE on ${groupA}`);
      expect(await stored()).toEqual(before);
      // A role she holds whole she may set (the rule is not a blanket refusal).
      const allowed = await patch(mallory, mask, body(gatekeeper));
      expect(allowed.status, allowed.text).toBe(200);
    },
  );
});

describe("a custom role's capabilities", () => {
  it.each([
    ["mask capabilities", "?updateMask=capabilities"],
    ["mask *", `?updateMask=${enc("*")}`],
    ["no mask", ""],
  ])("%s: mallory cannot add groups.delete to her own role", async (_f, query) => {
    const reply = await mallory<Json>("PATCH", `/iam/v2beta1/roles/${gatekeeper}${query}`, {
      body: {
        name: "gatekeeper",
        capabilities: [...GATEKEEPER_CAPABILITIES, "CAP_IAM_GROUPS_DELETE"],
      },
    });
    expectDenied(reply, "CAP_IAM_GROUPS_DELETE");
    const after = await owner<Json>("GET", `/iam/v2beta1/roles/${gatekeeper}`);
    // In the enum's order, as a role answers its capabilities.
    expect(after.body.capabilities).toEqual(
      [...GATEKEEPER_CAPABILITIES].sort(
        (a, b) => CAPABILITIES.indexOf(a as never) - CAPABILITIES.indexOf(b as never),
      ),
    );
  });

  it("removing one she holds is allowed (then restored by the owner)", async () => {
    const fewer = GATEKEEPER_CAPABILITIES.filter((c) => c !== "CAP_IAM_ROLE_BINDINGS_LIST");
    const reply = await mallory<Json>(
      "PATCH",
      `/iam/v2beta1/roles/${gatekeeper}?updateMask=capabilities`,
      {
        body: { capabilities: fewer },
      },
    );
    expect(reply.status, reply.text).toBe(200);
    const back = await owner<Json>(
      "PATCH",
      `/iam/v2beta1/roles/${gatekeeper}?updateMask=capabilities`,
      {
        body: { capabilities: GATEKEEPER_CAPABILITIES },
      },
    );
    expect(back.status).toBe(200);
  });
});

describe("an account association's service bindings", () => {
  let ingester = "";
  let catalog = "";

  beforeAll(async () => {
    // A service-principal identity of A bound to owner of the root (set up by the owner).
    ingester = await identityIn(groupA, "ingester", {
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    await bind(emu.rootGroupUid, ingester, ownerRole);
    // One whose bindings mallory holds whole.
    catalog = await identityIn(groupA, "catalog", {
      servicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER",
    });
    await bind(groupA, catalog, gatekeeper);
  });

  it("naming an identity bound to owner of the root, at create: PERMISSION_DENIED, nothing made", async () => {
    // A's association, or none, as it is before the attempt (the next test makes one).
    const association = () => owner<Json>("GET", `/iam/v2beta1/accountAssociations/${groupA}`);
    const before = await association();
    const reply = await post(mallory, `accountAssociations/${groupA}`, {
      name: "prod",
      amazon: { account: "123456789012" },
      chainguard: { serviceBindings: { INGESTER: ingester } },
    });
    expectDenied(reply);
    expect(reply.body.message).toContain(`identity ${ingester}`);
    const after = await association();
    expect([after.status, after.body]).toEqual([before.status, before.body]);
  });

  it("naming it by an update, with or without a mask: refused, the association unchanged", async () => {
    const created = await post(mallory, `accountAssociations/${groupA}`, {
      name: "prod",
      chainguard: { serviceBindings: { CATALOG_SYNCER: catalog } },
    });
    expect(created.status, created.text).toBe(200);
    for (const query of ["?updateMask=chainguard", `?updateMask=${enc("*")}`, ""]) {
      const reply = await mallory<Json>(
        "PATCH",
        `/iam/v2beta1/accountAssociations/${groupA}${query}`,
        {
          body: {
            name: "prod",
            chainguard: { serviceBindings: { CATALOG_SYNCER: catalog, INGESTER: ingester } },
          },
        },
      );
      expectDenied(reply);
    }
    const after = await owner<Json>("GET", `/iam/v2beta1/accountAssociations/${groupA}`);
    expect(after.body.chainguard).toEqual({ serviceBindings: { CATALOG_SYNCER: catalog } });
    // Restating the binding she already has, and renaming, stay allowed.
    const renamed = await mallory<Json>("PATCH", `/iam/v2beta1/accountAssociations/${groupA}`, {
      body: { name: "prod two", chainguard: { serviceBindings: { CATALOG_SYNCER: catalog } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    // The owner holds everything: the same binding is fine for the owner.
    const byOwner = await owner<Json>(
      "PATCH",
      `/iam/v2beta1/accountAssociations/${groupA}?updateMask=chainguard`,
      {
        body: { chainguard: { serviceBindings: { INGESTER: ingester } } },
      },
    );
    expect(byOwner.status, byOwner.text).toBe(200);
  });
});

describe("an editor never writes an access grant", () => {
  it.each([
    ["roles", "CAP_IAM_ROLES_CREATE", () => ({ name: "r", capabilities: ["CAP_REPO_LIST"] })],
    [
      "roleBindings",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      () => ({ identityUid: `${groupA}/0000000000000001`, roleUid: viewerRole }),
    ],
    ["identityProviders", "CAP_IAM_IDENTITY_PROVIDERS_CREATE", () => idpBody(viewerRole)],
    ["groupInvites", "CAP_IAM_GROUP_INVITES_CREATE", () => ({ roleUid: viewerRole, ttl: "60s" })],
    [
      "accountAssociations",
      "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
      () => ({ name: "x", amazon: { account: "123456789012" } }),
    ],
  ])(
    "POST %s in the editor's own group: PERMISSION_DENIED %s",
    async (collection, capability, body) => {
      expectDenied(await post(editor, `${collection}/${groupA1}`, body()), capability);
    },
  );

  it("nor change or delete existing ones", async () => {
    const idp = await made(`identityProviders/${groupA1}`, idpBody(viewerRole, "owned"));
    const invite = await made(`groupInvites/${groupA1}`, { roleUid: viewerRole, ttl: "60s" });
    await made(`accountAssociations/${groupA1}`, {
      name: "x",
      amazon: { account: "123456789012" },
    });
    const cases: Array<[string, string, string, Json | undefined]> = [
      [
        "PATCH",
        `roles/${gatekeeper}?updateMask=description`,
        "CAP_IAM_ROLES_UPDATE",
        { description: "x" },
      ],
      ["DELETE", `roles/${wide}`, "CAP_IAM_ROLES_DELETE", undefined],
      [
        "PATCH",
        `identityProviders/${idp.uid}?updateMask=name`,
        "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
        { name: "mine" },
      ],
      ["DELETE", `identityProviders/${idp.uid}`, "CAP_IAM_IDENTITY_PROVIDERS_DELETE", undefined],
      ["DELETE", `groupInvites/${invite.uid}`, "CAP_IAM_GROUP_INVITES_DELETE", undefined],
      [
        "PATCH",
        `accountAssociations/${groupA1}?updateMask=name`,
        "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE",
        { name: "y" },
      ],
      [
        "DELETE",
        `accountAssociations/${groupA1}`,
        "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE",
        undefined,
      ],
    ];
    for (const [method, path, capability, body] of cases) {
      expectDenied(await editor<Json>(method, `/iam/v2beta1/${path}`, { body }), capability);
    }
    expect((await owner<Json>("GET", `/iam/v2beta1/identityProviders/${idp.uid}`)).body.name).toBe(
      "owned",
    );
    expect(
      (await owner<Json>("GET", `/iam/v2beta1/accountAssociations/${groupA1}`)).body.name,
    ).toBe("x");
  });
});

describe("a custom role is usable only in its group's subtree", () => {
  let identityB = "";
  let identityRoot = "";

  beforeAll(async () => {
    identityB = await identityIn(groupB, "b-user");
    identityRoot = await identityIn(emu.rootGroupUid, "root-user");
  });

  it.each([
    ["a sibling group", () => groupB, () => identityB],
    ["the parent group", () => emu.rootGroupUid, () => identityRoot],
  ])(
    "in %s, even for the root owner: binding, invite and default role refused naming the field",
    async (_w, group, identity) => {
      const cases: Array<[string, Json, string]> = [
        [`roleBindings/${group()}`, { identityUid: identity(), roleUid: gatekeeper }, "roleUid"],
        [`groupInvites/${group()}`, { roleUid: gatekeeper, ttl: "60s" }, "roleUid"],
        [`identityProviders/${group()}`, idpBody(gatekeeper), "defaultRole"],
      ];
      for (const [path, body, field] of cases) {
        const reply = await post(owner, path, body);
        expect(reply.status, `${path}: ${reply.text}`).toBe(400);
        expect(reply.body.message).toMatch(new RegExp(`^Invalid argument: ${field}: `));
      }
      // An update of a provider elsewhere to the role: refused too.
      const idp = await made(`identityProviders/${group()}`, idpBody(viewerRole, "elsewhere"));
      const patch = await owner<Json>(
        "PATCH",
        `/iam/v2beta1/identityProviders/${idp.uid}?updateMask=defaultRole`,
        {
          body: { defaultRole: gatekeeper },
        },
      );
      expect(patch.status).toBe(400);
      expect(patch.body.message).toMatch(/^Invalid argument: defaultRole: /);
    },
  );

  it("in a group below its own: accepted", async () => {
    const below = await identityIn(groupA1, "a1-user");
    expect(
      (await post(owner, `roleBindings/${groupA1}`, { identityUid: below, roleUid: gatekeeper }))
        .status,
    ).toBe(200);
    expect(
      (await post(owner, `groupInvites/${groupA1}`, { roleUid: gatekeeper, ttl: "60s" })).status,
    ).toBe(200);
    expect(
      (await post(owner, `identityProviders/${groupA1}`, idpBody(gatekeeper, "below"))).status,
    ).toBe(200);
  });
});

describe("an owner of A cannot see or touch B's providers, invites and association", () => {
  let aOwner: Caller;
  let bIdp = "";
  let bInvite = "";

  beforeAll(async () => {
    const erin = await identityIn(groupA, "erin");
    await bind(groupA, erin, ownerRole);
    aOwner = caller(emu.url, await emu.mintToken(erin, 3600));
    bIdp = (await made(`identityProviders/${groupB}`, idpBody(viewerRole, "b sso"))).uid as string;
    bInvite = (await made(`groupInvites/${groupB}`, { roleUid: viewerRole, ttl: "600s" }))
      .uid as string;
    await made(`accountAssociations/${groupB}`, { name: "b", amazon: { account: "123456789012" } });
  });

  it("every read of B's objects is denied, and no listing shows them", async () => {
    for (const path of [
      `identityProviders/${bIdp}`,
      `groupInvites/${bInvite}`,
      `accountAssociations/${groupB}`,
      // PERMISSION_DENIED before NOT_FOUND: probing B for uids reveals nothing.
      `identityProviders/${groupB}/0000000000000000`,
      `groupInvites/${groupB}/0000000000000000`,
    ]) {
      expectDenied(await aOwner<Json>("GET", `/iam/v2beta1/${path}`));
    }
    for (const collection of ["identityProviders", "groupInvites", "accountAssociations"]) {
      for (const scope of [
        `uidp.descendants_of=${emu.rootGroupUid}`,
        `uidp.children_of=${groupB}`,
        "",
      ]) {
        const reply = await aOwner<Json>(
          "GET",
          `/iam/v2beta1/${collection}?${scope}&page_size=200`,
        );
        const items = reply.status === 200 ? ((reply.body[collection] as Json[]) ?? []) : [];
        expect([200, 403]).toContain(reply.status);
        const fromB = items.filter(
          (o) => o.uid === groupB || String(o.uid).startsWith(`${groupB}/`),
        );
        expect(fromB, `${collection}?${scope}`).toEqual([]);
      }
    }
  });

  it("every write to B's objects, or into B, is denied and changes nothing", async () => {
    const attempts: Array<[string, string, Json | undefined]> = [
      ["PATCH", `identityProviders/${bIdp}?updateMask=name`, { name: "taken" }],
      ["DELETE", `identityProviders/${bIdp}`, undefined],
      ["DELETE", `groupInvites/${bInvite}`, undefined],
      ["PATCH", `accountAssociations/${groupB}?updateMask=name`, { name: "taken" }],
      ["DELETE", `accountAssociations/${groupB}`, undefined],
      ["POST", `identityProviders/${groupB}`, idpBody(viewerRole, "planted")],
      ["POST", `groupInvites/${groupB}`, { roleUid: viewerRole, ttl: "60s" }],
      ["POST", `roles/${groupB}`, { name: "planted", capabilities: ["CAP_REPO_LIST"] }],
    ];
    for (const [method, path, body] of attempts) {
      expectDenied(await aOwner<Json>(method, `/iam/v2beta1/${path}`, { body }));
    }
    expect((await owner<Json>("GET", `/iam/v2beta1/identityProviders/${bIdp}`)).body.name).toBe(
      "b sso",
    );
    expect((await owner<Json>("GET", `/iam/v2beta1/groupInvites/${bInvite}`)).status).toBe(200);
    expect((await owner<Json>("GET", `/iam/v2beta1/accountAssociations/${groupB}`)).body.name).toBe(
      "b",
    );
  });
});
