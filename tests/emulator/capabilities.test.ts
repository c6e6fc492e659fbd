/**
 * The capability names (addendum 2.1), the refined built-in roles (2.2) and what the new
 * operations require (2.3), over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, org } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

beforeAll(async () => {
  emu = await startTestEmulator();
  o = org(emu);
});
afterAll(() => emu.close());

const COLLECTIONS = [
  "groups",
  "identities",
  "roles",
  "roleBindings",
  "identityProviders",
  "accountAssociations",
  "groupInvites",
  "repos",
  "tags",
  "advisories",
];
const VERBS = ["list", "get", "create", "update", "delete"];
/** The 49 names, written out from the addendum's rule (every pair less groupInvites.update). */
const ALL = COLLECTIONS.flatMap((c) => VERBS.map((v) => `${c}.${v}`))
  .filter((name) => name !== "groupInvites.update")
  .sort();
const READS = ALL.filter((name) => name.endsWith(".list") || name.endsWith(".get"));
const GRANTING = [
  "roles",
  "roleBindings",
  "identityProviders",
  "groupInvites",
  "accountAssociations",
];

async function builtInRole(name: string): Promise<Json> {
  const uid = await o.builtIn(name);
  return (await o.call<Json>("GET", `/iam/v2beta1/roles/${uid}`)).body;
}

describe("capability names (2.1)", () => {
  it("there are 49, and a custom role may hold each of them", async () => {
    expect(ALL).toHaveLength(49);
    const uid = await o.role(emu.rootGroupUid, ALL);
    const role = (await o.call<Json>("GET", `/iam/v2beta1/roles/${uid}`)).body;
    expect(role.capabilities).toEqual(ALL);
  });

  it.each([
    "groupInvites.update",
    "role_bindings.create",
    "identity.list",
    "repo.list",
    "identity_providers.create",
    "identityProviders.scim.manage",
    "advisories.approve",
  ])("%s is refused, never translated", async (name) => {
    const reply = await o.call("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
      body: { name: "bad caps", capabilities: [name] },
    });
    expect(failure(reply)).toEqual([
      400,
      `Invalid argument: capabilities: unknown capability "${name}" (expected <collection>.<verb>)`,
    ]);
  });
});

describe("built-in roles (2.2)", () => {
  it("owner holds all 49", async () => {
    expect((await builtInRole("owner")).capabilities).toEqual(ALL);
  });

  it("editor reads everything and writes everything but access grants", async () => {
    const editor = await builtInRole("editor");
    const expected = ALL.filter(
      (name) => READS.includes(name) || !GRANTING.includes(name.split(".")[0]),
    );
    expect(editor.capabilities).toEqual(expected);
    expect(editor.description).toBe("Read everything; change everything but access grants");
    for (const collection of GRANTING) {
      for (const verb of ["create", "update", "delete"]) {
        expect(editor.capabilities).not.toContain(`${collection}.${verb}`);
      }
    }
    expect(editor.capabilities).toContain("advisories.delete");
  });

  it("viewer holds the 20 list and get names; registry.pull is unchanged", async () => {
    expect((await builtInRole("viewer")).capabilities).toEqual(READS);
    expect(READS).toHaveLength(20);
    expect((await builtInRole("registry.pull")).capabilities).toEqual([
      "repos.get",
      "repos.list",
      "tags.get",
      "tags.list",
    ]);
  });

  it("an editor creates groups and identities but no provider, invite, association, role or binding", async () => {
    const group = await o.group(emu.rootGroupUid);
    const editor = await o.actor(group, [[group, await o.builtIn("editor")]]);
    const viewer = await o.builtIn("viewer");
    expect(
      (
        await editor.call("POST", `/iam/v2beta1/groups/${group}`, {
          body: { name: "made by editor" },
        })
      ).status,
    ).toBe(200);
    const refused: Array<[string, unknown, string]> = [
      ["roles", { name: "r", capabilities: ["groups.get"] }, "roles.create"],
      ["roleBindings", { identityUid: editor.identityUid, roleUid: viewer }, "roleBindings.create"],
      [
        "identityProviders",
        {
          name: "sso",
          defaultRole: viewer,
          oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
        },
        "identityProviders.create",
      ],
      ["groupInvites", { roleUid: viewer, ttl: "60s" }, "groupInvites.create"],
      [
        "accountAssociations",
        { name: "acct", amazon: { account: "123456789012" } },
        "accountAssociations.create",
      ],
    ];
    for (const [collection, body, capability] of refused) {
      const reply = await editor.call("POST", `/iam/v2beta1/${collection}/${group}`, { body });
      expect(failure(reply)).toEqual([403, `Permission denied: ${capability} on ${group}`]);
    }
  });
});

describe("what the new operations require (2.3)", () => {
  it("each list, get and delete needs its own capability on the item", async () => {
    const group = await o.group(emu.rootGroupUid);
    const viewer = await o.builtIn("viewer");
    const provider = (
      await o.call<Json>("POST", `/iam/v2beta1/identityProviders/${group}`, {
        body: {
          name: "sso",
          defaultRole: viewer,
          oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
        },
      })
    ).body.uid as string;
    const invite = (
      await o.call<Json>("POST", `/iam/v2beta1/groupInvites/${group}`, {
        body: { roleUid: viewer, ttl: "600s" },
      })
    ).body.uid as string;
    await o.call("POST", `/iam/v2beta1/accountAssociations/${group}`, {
      body: { name: "acct", amazon: { account: "123456789012" } },
    });
    // A caller holding everything but the new collections' capabilities.
    const others = ALL.filter(
      (name) =>
        !["identityProviders", "groupInvites", "accountAssociations"].includes(name.split(".")[0]),
    );
    const stranger = await o.actor(group, [[group, await o.role(group, others)]]);
    const cases: Array<[string, string, string]> = [
      ["GET", `/iam/v2beta1/identityProviders/${provider}`, `identityProviders.get on ${provider}`],
      [
        "DELETE",
        `/iam/v2beta1/identityProviders/${provider}`,
        `identityProviders.delete on ${provider}`,
      ],
      ["GET", `/iam/v2beta1/groupInvites/${invite}`, `groupInvites.get on ${invite}`],
      ["DELETE", `/iam/v2beta1/groupInvites/${invite}`, `groupInvites.delete on ${invite}`],
      ["GET", `/iam/v2beta1/accountAssociations/${group}`, `accountAssociations.get on ${group}`],
      [
        "DELETE",
        `/iam/v2beta1/accountAssociations/${group}`,
        `accountAssociations.delete on ${group}`,
      ],
      [
        "PATCH",
        `/iam/v2beta1/accountAssociations/${group}`,
        `accountAssociations.update on ${group}`,
      ],
      [
        "PATCH",
        `/iam/v2beta1/identityProviders/${provider}`,
        `identityProviders.update on ${provider}`,
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
