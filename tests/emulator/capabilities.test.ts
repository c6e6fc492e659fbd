/**
 * The capability names (the platform's `Capability` enum), the built-in roles' published
 * sets, and what the operations require (a Get needs the collection's LIST), over HTTP.
 */
import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../emulator/capabilities";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

useTestOrg((started) => {
  ({ emu, o } = started);
});

/** The platform's enum: 216 values besides UNKNOWN; the contract suite compares the list. */
const ENUM_SIZE = 216;

/** The names this API pins (capabilities of its own collections and reads). */
const PINNED = /^CAP_(IAM_|REPO_|TAG|MANIFEST|REFERRERS|ADVISORIES|EVENTS)/;
const IAM_LISTS = [
  "CAP_IAM_GROUPS_LIST",
  "CAP_IAM_GROUP_INVITES_LIST",
  "CAP_IAM_ROLES_LIST",
  "CAP_IAM_ROLE_BINDINGS_LIST",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST",
  "CAP_IAM_IDENTITY_LIST",
  "CAP_IAM_IDENTITY_PROVIDERS_LIST",
];
const PULL = [
  "CAP_REPO_BLOBS_GET",
  "CAP_REPO_LIST",
  "CAP_MANIFEST_LIST",
  "CAP_MANIFEST_METADATA_LIST",
  "CAP_TAG_LIST",
  "CAP_REFERRERS_LIST",
];
/** The published sets on the pinned subset, written out from the definitions. */
const VIEWER = [...IAM_LISTS, "CAP_EVENTS_SUBSCRIPTION_LIST", ...PULL, "CAP_ADVISORIES_LIST"];
const EDITOR = [
  ...VIEWER,
  "CAP_EVENTS_SUBSCRIPTION_CREATE",
  "CAP_EVENTS_SUBSCRIPTION_UPDATE",
  "CAP_EVENTS_SUBSCRIPTION_DELETE",
  "CAP_REPO_CREATE",
  "CAP_REPO_UPDATE",
  "CAP_REPO_DELETE",
];
const REGISTRY_PULL = ["CAP_IAM_GROUPS_LIST", ...PULL];
const IAM_COLLECTIONS = [
  "GROUPS",
  "GROUP_INVITES",
  "ROLES",
  "ROLE_BINDINGS",
  "ACCOUNT_ASSOCIATIONS",
  "IDENTITY",
  "IDENTITY_PROVIDERS",
];
const OWNER = [
  ...IAM_COLLECTIONS.flatMap((c) =>
    ["CREATE", "UPDATE", "LIST", "DELETE"]
      .map((v) => `CAP_IAM_${c}_${v}`)
      .filter((name) => name !== "CAP_IAM_GROUP_INVITES_UPDATE"),
  ),
  "CAP_IAM_SCIM_MANAGE",
  ...["CREATE", "UPDATE", "LIST", "DELETE"].map((v) => `CAP_EVENTS_SUBSCRIPTION_${v}`),
  ...["CREATE", "UPDATE", "LIST", "DELETE"].map((v) => `CAP_REPO_${v}`),
  "CAP_REPO_BLOBS_GET",
  "CAP_REPO_CHECK_POLICIES",
  ...["CREATE", "UPDATE", "LIST", "DELETE"].map((v) => `CAP_MANIFEST_${v}`),
  "CAP_MANIFEST_METADATA_LIST",
  ...["CREATE", "UPDATE", "LIST", "DELETE"].map((v) => `CAP_TAG_${v}`),
  "CAP_REFERRERS_LIST",
  "CAP_ADVISORIES_LIST",
];

function pinned(capabilities: unknown): string[] {
  return (capabilities as string[]).filter((name) => PINNED.test(name)).sort();
}

async function builtInRole(name: string): Promise<Json> {
  const uid = await o.builtIn(name);
  return (await o.call<Json>("GET", `/iam/v2beta1/roles/${uid}`)).body;
}

describe("capability names: the platform's enum", () => {
  it("the emulator knows the enum's 216 names, and a custom role may hold every owner value", async () => {
    expect(CAPABILITIES).toHaveLength(ENUM_SIZE);
    expect(new Set(CAPABILITIES).size).toBe(ENUM_SIZE);
    expect(CAPABILITIES).not.toContain("UNKNOWN");
    const owner = (await builtInRole("owner")).capabilities as string[];
    const uid = await o.role(emu.rootGroupUid, [...owner].reverse());
    const role = (await o.call<Json>("GET", `/iam/v2beta1/roles/${uid}`)).body;
    // Stored in the enum's order, without repeats.
    expect(role.capabilities).toEqual(owner);
    expect(owner).toEqual(
      [...owner].sort(
        (a, b) => CAPABILITIES.indexOf(a as never) - CAPABILITIES.indexOf(b as never),
      ),
    );
  });

  it("values beyond the owner set (newer, deprecated) are enum names and accepted too", async () => {
    const uid = await o.role(emu.rootGroupUid, [
      "CAP_IAM_POLICY_LIST",
      "CAP_REGISTRY_OVERLAYS_LIST",
      "CAP_SKILLS_LIST",
    ]);
    expect((await o.call<Json>("GET", `/iam/v2beta1/roles/${uid}`)).body.capabilities).toEqual([
      "CAP_IAM_POLICY_LIST",
      "CAP_REGISTRY_OVERLAYS_LIST",
      "CAP_SKILLS_LIST",
    ]);
  });

  it.each([
    "groups.create",
    "CAP_IAM_GROUP_INVITES_UPDATE",
    "CAP_IAM_GROUPS_GET",
    "role_bindings.create",
    "UNKNOWN",
    "cap_iam_groups_list",
  ])("%s is refused, never translated", async (name) => {
    const reply = await o.call("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
      body: { name: "bad caps", capabilities: [name] },
    });
    expect(failure(reply)).toEqual([
      400,
      `Invalid argument: capabilities: unknown capability "${name}" (expected a Capability enum name such as CAP_IAM_GROUPS_LIST)`,
    ]);
  });
});

describe("built-in roles: the published sets", () => {
  it("owner, editor, viewer and registry.pull hold the published sets", async () => {
    const sizes: Record<string, number> = {
      owner: 138,
      editor: 62,
      viewer: 51,
      "registry.pull": 10,
    };
    const expected: Record<string, string[]> = {
      owner: OWNER,
      editor: EDITOR,
      viewer: VIEWER,
      "registry.pull": REGISTRY_PULL,
    };
    for (const [name, size] of Object.entries(sizes)) {
      const role = await builtInRole(name);
      const held = role.capabilities as string[];
      expect(held, name).toHaveLength(size);
      for (const capability of held) expect(CAPABILITIES, name).toContain(capability);
      expect(pinned(held), name).toEqual([...expected[name]].sort());
    }
    expect(OWNER).toHaveLength(49);
    expect(EDITOR).toHaveLength(21);
    expect(VIEWER).toHaveLength(15);
    expect(REGISTRY_PULL).toHaveLength(7);
  });

  it("an editor creates no group, identity, role, binding, provider, invite or association", async () => {
    const group = await o.group(emu.rootGroupUid);
    const editor = await o.actor(group, [[group, await o.builtIn("editor")]]);
    const viewer = await o.builtIn("viewer");
    const refused: Array<[string, unknown, string]> = [
      ["groups", { name: "made by editor" }, "CAP_IAM_GROUPS_CREATE"],
      [
        "identities",
        { name: "by editor", claimMatch: { issuer: "https://issuer.example", subject: "s" } },
        "CAP_IAM_IDENTITY_CREATE",
      ],
      ["roles", { name: "r", capabilities: ["CAP_IAM_GROUPS_LIST"] }, "CAP_IAM_ROLES_CREATE"],
      [
        "roleBindings",
        { identityUid: editor.identityUid, roleUid: viewer },
        "CAP_IAM_ROLE_BINDINGS_CREATE",
      ],
      [
        "identityProviders",
        {
          name: "sso",
          defaultRole: viewer,
          oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
        },
        "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
      ],
      ["groupInvites", { roleUid: viewer, ttl: "60s" }, "CAP_IAM_GROUP_INVITES_CREATE"],
      [
        "accountAssociations",
        { name: "acct", amazon: { account: "123456789012" } },
        "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
      ],
    ];
    for (const [collection, body, capability] of refused) {
      const reply = await editor.call("POST", `/iam/v2beta1/${collection}/${group}`, { body });
      expect(failure(reply)).toEqual([403, `Permission denied: ${capability} on ${group}`]);
    }
  });
});

describe("what the operations require", () => {
  it("a get needs the LIST capability, a delete or update its own, each on the item", async () => {
    const group = await o.group(emu.rootGroupUid);
    const viewer = await o.builtIn("viewer");
    const provider = await o.identityProvider(group, viewer);
    const invite = (
      await o.call<Json>("POST", `/iam/v2beta1/groupInvites/${group}`, {
        body: { roleUid: viewer, ttl: "600s" },
      })
    ).body.uid as string;
    await o.call("POST", `/iam/v2beta1/accountAssociations/${group}`, {
      body: { name: "acct", amazon: { account: "123456789012" } },
    });
    // A caller holding everything but the new collections' capabilities.
    const others = OWNER.filter(
      (name) => !/^CAP_IAM_(IDENTITY_PROVIDERS|GROUP_INVITES|ACCOUNT_ASSOCIATIONS)_/.test(name),
    );
    const stranger = await o.actor(group, [[group, await o.role(group, others)]]);
    const cases: Array<[string, string, string]> = [
      [
        "GET",
        `/iam/v2beta1/identityProviders/${provider}`,
        `CAP_IAM_IDENTITY_PROVIDERS_LIST on ${provider}`,
      ],
      [
        "DELETE",
        `/iam/v2beta1/identityProviders/${provider}`,
        `CAP_IAM_IDENTITY_PROVIDERS_DELETE on ${provider}`,
      ],
      ["GET", `/iam/v2beta1/groupInvites/${invite}`, `CAP_IAM_GROUP_INVITES_LIST on ${invite}`],
      [
        "DELETE",
        `/iam/v2beta1/groupInvites/${invite}`,
        `CAP_IAM_GROUP_INVITES_DELETE on ${invite}`,
      ],
      [
        "GET",
        `/iam/v2beta1/accountAssociations/${group}`,
        `CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST on ${group}`,
      ],
      [
        "DELETE",
        `/iam/v2beta1/accountAssociations/${group}`,
        `CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE on ${group}`,
      ],
      [
        "PATCH",
        `/iam/v2beta1/accountAssociations/${group}`,
        `CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE on ${group}`,
      ],
      [
        "PATCH",
        `/iam/v2beta1/identityProviders/${provider}`,
        `CAP_IAM_IDENTITY_PROVIDERS_UPDATE on ${provider}`,
      ],
    ];
    for (const [method, path, denied] of cases) {
      const reply = await stranger.call(method, path, {
        body: method === "PATCH" ? { name: "changed" } : undefined,
      });
      expect(failure(reply), `${method} ${path}`).toEqual([403, `Permission denied: ${denied}`]);
    }
    for (const collection of ["identityProviders", "groupInvites", "accountAssociations"]) {
      const listed = await stranger.call<Json>(
        "GET",
        `/iam/v2beta1/${collection}?uidp.descendants_of=${emu.rootGroupUid}`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body[collection]).toEqual([]);
      const all = await o.call<Json>(
        "GET",
        `/iam/v2beta1/${collection}?uidp.descendants_of=${emu.rootGroupUid}`,
      );
      expect((all.body[collection] as Json[]).map((item) => item.uid)).toContain(
        collection === "accountAssociations"
          ? group
          : collection === "groupInvites"
            ? invite
            : provider,
      );
    }
  });
});
