/**
 * Access control, attacked from inside the organisation: an identity bound in one group
 * can neither see nor change a sibling group (through any verb, any collection, v1 or
 * the registry), and escalation attempts — binding yourself a stronger role, editing
 * your own binding or your own custom role to gain capabilities — are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { IrmClient, isNotFound, isPermissionDenied, type Role } from "../../../sdk/index";

let emu: TestEmulator;
let owner: IrmClient;
/** Groups: two siblings under the root, each with a child. */
const g = { a: "", aChild: "", b: "", bChild: "" };
/** Identity uids and their clients, by name. */
const uids: Record<string, string> = {};
const as: Record<string, IrmClient> = {};
const roles: Record<string, Role> = {};
let bIdentity = "";
let bBinding = "";
let bRepo = "";

async function outcome(
  action: () => Promise<unknown>,
): Promise<"ok" | "denied" | "not found" | string> {
  try {
    await action();
    return "ok";
  } catch (error) {
    if (isPermissionDenied(error)) return "denied";
    if (isNotFound(error)) return "not found";
    return String(error);
  }
}

async function identityWith(name: string, group: string, role: Role): Promise<void> {
  const identity = await owner.iam.identities.create(group, {
    name,
    claimMatch: { issuer: emu.issuer, subject: name },
  });
  await owner.iam.roleBindings.create(group, { identityUid: identity.uid, roleUid: role.uid });
  uids[name] = identity.uid;
  as[name] = new IrmClient({ baseUrl: emu.url, token: await emu.mintToken(identity.uid, 3600) });
}

beforeAll(async () => {
  emu = await startTestEmulator();
  owner = new IrmClient({ baseUrl: emu.url, token: emu.token });
  for (const role of (await owner.iam.roles.list({ pageSize: 200 })).items) roles[role.name] = role;
  g.a = (await owner.iam.groups.create(emu.rootGroupUid, { name: "team a" })).uid;
  g.b = (await owner.iam.groups.create(emu.rootGroupUid, { name: "team b" })).uid;
  g.aChild = (await owner.iam.groups.create(g.a, { name: "a child" })).uid;
  g.bChild = (await owner.iam.groups.create(g.b, { name: "b child" })).uid;
  // A custom role in A that may grant bindings and edit roles, and read groups: nothing else.
  roles.granter = await owner.iam.roles.create(g.a, {
    name: "granter",
    capabilities: [
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_ROLE_BINDINGS_LIST",
      "CAP_IAM_ROLES_UPDATE",
      "CAP_IAM_ROLES_LIST",
      "CAP_IAM_GROUPS_LIST",
      // A binding answers with the identity's name and claims: binding needs to read it.
      "CAP_IAM_IDENTITY_LIST",
    ],
  });

  await identityWith("alice", g.a, roles.editor);
  await identityWith("carol", g.a, roles.viewer);
  await identityWith("dave", g.a, roles.granter);
  await identityWith("erin", g.a, roles.owner);

  const bob = await owner.iam.identities.create(g.b, {
    name: "bob",
    claimMatch: { issuer: emu.issuer, subject: "bob" },
  });
  bIdentity = bob.uid;
  bBinding = (
    await owner.iam.roleBindings.create(g.b, { identityUid: bob.uid, roleUid: roles.viewer.uid })
  ).uid;
  bRepo = (await emu.seed({ repos: [{ parentUid: g.b, name: "b-private", public: false }] }))
    .repos[0];
});

afterAll(async () => {
  await Promise.all(Object.values(as).map((client) => client.close()));
  await owner?.close();
  await emu?.close();
});

describe("an identity bound in group A cannot see group B", () => {
  it.each(["alice", "carol", "dave", "erin"])(
    "%s: every read of B is denied or empty",
    async (name) => {
      const client = as[name];
      expect(await outcome(() => client.iam.groups.get(g.b))).toBe("denied");
      expect(await outcome(() => client.iam.groups.get(g.bChild))).toBe("denied");
      expect(await outcome(() => client.iam.identities.get(bIdentity))).toBe("denied");
      expect(await outcome(() => client.iam.roleBindings.get(bBinding))).toBe("denied");
      expect(await outcome(() => client.registry.repos.get(bRepo))).toBe("denied");
      // PERMISSION_DENIED before NOT_FOUND: probing B for uids reveals nothing.
      expect(await outcome(() => client.iam.groups.get(`${g.b}/0000000000000000`))).toBe("denied");

      const everything = [
        ...(await client.iam.groups.list({ descendantsOf: emu.rootGroupUid, pageSize: 200 })).items,
        ...(await client.iam.identities.list({ descendantsOf: emu.rootGroupUid, pageSize: 200 }))
          .items,
        ...(await client.iam.roleBindings.list({ descendantsOf: emu.rootGroupUid, pageSize: 200 }))
          .items,
        ...(await client.registry.repos.list({ descendantsOf: emu.rootGroupUid, pageSize: 200 }))
          .items,
        ...(await client.v1.groups.list()).items.map((item) => ({ uid: item.id })),
      ];
      const fromB = everything.filter((o) => o.uid === g.b || o.uid.startsWith(`${g.b}/`));
      expect(fromB).toEqual([]);
      // Scoped lists of B itself show nothing either (empty, or refused).
      for (const list of [
        () => client.iam.groups.list({ childrenOf: g.b }),
        () => client.iam.identities.list({ descendantsOf: g.b }),
        () => client.iam.roleBindings.list({ childrenOf: g.b }),
      ]) {
        const result = await list().then(
          (page) => page.items.length,
          (error: unknown) => (isPermissionDenied(error) ? 0 : String(error)),
        );
        expect(result).toBe(0);
      }
    },
  );

  it("and sees its own group A", async () => {
    expect((await as.carol.iam.groups.get(g.aChild)).uid).toBe(g.aChild);
  });
});

describe("an identity bound in group A cannot change group B", () => {
  it.each(["alice", "erin"])(
    "%s (editor or owner of A): every write to B is denied",
    async (name) => {
      const client = as[name];
      const attempts: Array<[string, () => Promise<unknown>]> = [
        [
          "rename B",
          () => client.iam.groups.update(g.b, { name: "taken" }, { updateMask: ["name"] }),
        ],
        ["delete B's child", () => client.iam.groups.delete(g.bChild)],
        ["create a group in B", () => client.iam.groups.create(g.b, { name: "planted" })],
        [
          "create an identity in B",
          () =>
            client.iam.identities.create(g.b, {
              name: "planted",
              claimMatch: { issuer: emu.issuer, subject: "planted" },
            }),
        ],
        [
          "retarget B's identity",
          () =>
            client.iam.identities.update(
              bIdentity,
              { claimMatch: { subject: name } },
              { updateMask: ["claimMatch.subject"] },
            ),
        ],
        ["delete B's identity", () => client.iam.identities.delete(bIdentity)],
        ["delete B's binding", () => client.iam.roleBindings.delete(bBinding)],
        [
          "bind itself in B",
          () =>
            client.iam.roleBindings.create(g.b, {
              identityUid: uids[name],
              roleUid: roles.viewer.uid,
            }),
        ],
        [
          "rename the root",
          () => client.iam.groups.update(emu.rootGroupUid, { name: "x" }, { updateMask: ["name"] }),
        ],
        [
          "create a sibling of A",
          () => client.iam.groups.create(emu.rootGroupUid, { name: "sibling" }),
        ],
      ];
      for (const [what, attempt] of attempts) {
        expect(`${what}: ${await outcome(attempt)}`).toBe(`${what}: denied`);
      }
      // And nothing of B changed.
      expect((await owner.iam.groups.get(g.b)).name).toBe("team b");
      expect((await owner.iam.identities.get(bIdentity)).claimMatch?.subject).toBe("bob");
      expect((await owner.iam.groups.list({ childrenOf: g.b })).totalCount).toBe(1);
    },
  );
});

describe("escalation attempts are refused", () => {
  it("a viewer cannot bind itself editor or owner, nor write anything", async () => {
    for (const role of [roles.editor, roles.owner, roles.viewer]) {
      expect(
        await outcome(() =>
          as.carol.iam.roleBindings.create(g.a, { identityUid: uids.carol, roleUid: role.uid }),
        ),
      ).toBe("denied");
    }
    expect(await outcome(() => as.carol.iam.groups.create(g.a, { name: "x" }))).toBe("denied");
  });

  it("an editor (no binding capabilities) cannot bind itself owner, nor change its binding", async () => {
    expect(
      await outcome(() =>
        as.alice.iam.roleBindings.create(g.a, {
          identityUid: uids.alice,
          roleUid: roles.owner.uid,
        }),
      ),
    ).toBe("denied");
    const own = (await owner.iam.roleBindings.list({ childrenOf: g.a, pageSize: 200 })).items.find(
      (b) => b.identity.uid === uids.alice,
    )!;
    expect(
      await outcome(() =>
        as.alice.iam.roleBindings.update(
          own.uid,
          { roleUid: roles.owner.uid },
          { updateMask: ["roleUid"] },
        ),
      ),
    ).toBe("denied");
    expect(await outcome(() => as.alice.iam.roleBindings.delete(own.uid))).toBe("denied");
  });

  it("holding roleBindings.create does not let anyone grant capabilities it lacks", async () => {
    for (const role of [roles.owner, roles.editor, roles.viewer]) {
      expect(
        await outcome(() =>
          as.dave.iam.roleBindings.create(g.a, { identityUid: uids.dave, roleUid: role.uid }),
        ),
      ).toBe("denied");
    }
    // It may grant exactly what it holds, to someone else.
    expect(
      await outcome(() =>
        as.dave.iam.roleBindings.create(g.aChild, {
          identityUid: uids.carol,
          roleUid: roles.granter.uid,
        }),
      ),
    ).toBe("ok");
  });

  it("holding roles.update does not let anyone add capabilities it lacks to its own role", async () => {
    const attempt = await outcome(() =>
      as.dave.iam.roles.update(
        roles.granter.uid,
        {
          capabilities: [
            ...roles.granter.capabilities,
            "CAP_IAM_GROUPS_DELETE",
            "CAP_IAM_ROLE_BINDINGS_DELETE",
          ],
        },
        { updateMask: ["capabilities"] },
      ),
    );
    expect(attempt).toBe("denied");
    expect((await owner.iam.roles.get(roles.granter.uid)).capabilities.sort()).toEqual(
      [...roles.granter.capabilities].sort(),
    );
    expect(await outcome(() => as.dave.iam.groups.delete(g.aChild))).toBe("denied");
  });

  it("an owner of A cannot reach above A, nor change a built-in role", async () => {
    expect(
      await outcome(() =>
        as.erin.iam.roleBindings.create(emu.rootGroupUid, {
          identityUid: uids.erin,
          roleUid: roles.owner.uid,
        }),
      ),
    ).toBe("denied");
    expect(
      await outcome(() =>
        as.erin.iam.roles.update(
          roles.viewer.uid,
          { capabilities: ["CAP_IAM_GROUPS_DELETE"] },
          { updateMask: ["capabilities"] },
        ),
      ),
    ).toBe("denied");
    // A custom role of A cannot be bound outside A.
    const mine = await as.erin.iam.roles.create(g.a, {
      name: "mine",
      capabilities: ["CAP_IAM_GROUPS_LIST"],
    });
    const outside = await outcome(() =>
      as.erin.iam.roleBindings.create(g.b, { identityUid: uids.erin, roleUid: mine.uid }),
    );
    expect(outside).not.toBe("ok");
  });

  it("a token of an identity that was deleted stops working at once", async () => {
    const temp = await owner.iam.identities.create(g.a, {
      name: "temp",
      claimMatch: { issuer: emu.issuer, subject: "temp" },
    });
    const binding = await owner.iam.roleBindings.create(g.a, {
      identityUid: temp.uid,
      roleUid: roles.viewer.uid,
    });
    const client = new IrmClient({ baseUrl: emu.url, token: await emu.mintToken(temp.uid, 3600) });
    expect(await outcome(() => client.iam.groups.get(g.a))).toBe("ok");
    await owner.iam.roleBindings.delete(binding.uid);
    expect(await outcome(() => client.iam.groups.get(g.a))).toBe("denied");
    await owner.iam.identities.delete(temp.uid);
    const after = await client.iam.groups.get(g.a).then(
      () => "ok",
      (e: unknown) => (e as { codeName?: string }).codeName,
    );
    expect(after).toBe("UNAUTHENTICATED");
    await client.close();
  });
});
