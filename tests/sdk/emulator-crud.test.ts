/**
 * Every verb of every collection, and each error class, against the emulator;
 * request counts come from the emulator's request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  AlreadyExistsError,
  InternalError,
  InvalidArgumentError,
  type IrmError,
  isBuiltInRoleUid,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  ResourceNotEmptyError,
  roleGroupUid,
  UnauthenticatedError,
  UnavailableError,
} from "../../sdk";
import { clientFor, closeClients, failure, requestLines } from "../support/sdk-helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
});

const ISSUER_SUBJECT = (subject: string) => ({ issuer: emu.issuer, subject });

describe("groups", () => {
  it("create, get, list, update (with and without mask), delete, delete again", async () => {
    const { client } = clientFor(emu);
    const root = emu.rootGroupUid;
    const created = await client.iam.groups.create(root, {
      name: "crud team",
      description: "first",
    });
    expect(created).toMatchObject({ name: "crud team", description: "first", verified: false });
    expect(created.uid.startsWith(`${root}/`)).toBe(true);

    expect(await client.iam.groups.get(created.uid)).toEqual(created);
    const page = await client.iam.groups.list({ childrenOf: root, name: "crud team" });
    expect(page.items.map((g) => g.uid)).toEqual([created.uid]);
    expect(page.totalCount).toBe(1);

    const described = await client.iam.groups.update(created.uid, { description: "second" });
    expect(described).toMatchObject({ name: "crud team", description: "second" });

    const masked = await client.iam.groups.update(
      created.uid,
      { name: "ignored name", description: "third" },
      { updateMask: ["description"] },
    );
    expect(masked).toMatchObject({ name: "crud team", description: "third" });

    await client.iam.groups.delete(created.uid);
    const again = await failure(client.iam.groups.delete(created.uid));
    expect(again).toBeInstanceOf(NotFoundError);

    expect(await requestLines(emu)).toEqual([
      `POST /iam/v2beta1/groups/${root} -> 200`,
      `GET /iam/v2beta1/groups/${created.uid} -> 200`,
      `GET /iam/v2beta1/groups?uidp.children_of=${root.replace(/\//g, "%2F")}&name=crud%20team -> 200`,
      `PATCH /iam/v2beta1/groups/${created.uid} -> 200`,
      `PATCH /iam/v2beta1/groups/${created.uid}?updateMask=description -> 200`,
      `DELETE /iam/v2beta1/groups/${created.uid} -> 200`,
      `DELETE /iam/v2beta1/groups/${created.uid} -> 404`,
    ]);
  });

  it("turns int64 counters (strings on the wire) into numbers", async () => {
    const { client } = clientFor(emu);
    const root = await client.iam.groups.get(emu.rootGroupUid);
    const limits = Object.values(root.resourceLimits);
    expect(limits.length).toBeGreaterThan(0);
    expect(limits.every((value) => typeof value === "number" && Number.isInteger(value))).toBe(
      true,
    );
    const page = await client.iam.groups.list();
    expect(typeof page.totalCount).toBe("number");
  });

  it("sends a several-field mask comma-separated and changes only those fields", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, {
      name: "mask a",
      description: "a",
    });
    const updated = await client.iam.groups.update(
      group.uid,
      { name: "mask b", description: "b" },
      { updateMask: ["name", "description"] },
    );
    expect(updated).toMatchObject({ name: "mask b", description: "b" });
    const log = await emu.requests();
    expect(log.at(-1)?.query).toBe("updateMask=name,description");
  });
});

describe("identities", () => {
  it("create, get, list, update claimMatch.subject by mask, delete", async () => {
    const { client } = clientFor(emu);
    const root = emu.rootGroupUid;
    const identity = await client.iam.identities.create(root, {
      name: "ci deployer",
      claimMatch: ISSUER_SUBJECT("repo:org/app:ref:refs/heads/main"),
    });
    expect(identity.claimMatch).toEqual(ISSUER_SUBJECT("repo:org/app:ref:refs/heads/main"));
    expect(await client.iam.identities.get(identity.uid)).toEqual(identity);
    const listed = await client.iam.identities.list({ descendantsOf: root, name: "ci deployer" });
    expect(listed.items.map((i) => i.uid)).toEqual([identity.uid]);

    const updated = await client.iam.identities.update(
      identity.uid,
      { name: "not applied", claimMatch: { subject: "repo:org/app:environment:prod" } },
      { updateMask: ["claim_match.subject"] },
    );
    expect(updated.name).toBe("ci deployer");
    expect(updated.claimMatch).toEqual(ISSUER_SUBJECT("repo:org/app:environment:prod"));

    await client.iam.identities.delete(identity.uid);
    expect(await failure(client.iam.identities.get(identity.uid))).toBeInstanceOf(NotFoundError);
  });
});

describe("roles", () => {
  it("lists built-in roles by name and refuses to change them", async () => {
    const { client } = clientFor(emu);
    const viewer = (await client.iam.roles.list({ name: "viewer" })).items;
    expect(viewer).toHaveLength(1);
    expect(isBuiltInRoleUid(viewer[0].uid)).toBe(true);
    expect(roleGroupUid(viewer[0].uid)).toBeUndefined();
    expect(await client.iam.roles.get(viewer[0].uid)).toEqual(viewer[0]);
    const refused = await failure(client.iam.roles.update(viewer[0].uid, { description: "mine" }));
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect((refused as IrmError).codeName).toBe("PERMISSION_DENIED");
  });

  it("create, update, delete a custom role", async () => {
    const { client } = clientFor(emu);
    const role = await client.iam.roles.create(emu.rootGroupUid, {
      name: "puller",
      capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"],
    });
    // A custom role is a child of its group.
    expect(role.uid).toMatch(new RegExp(`^${emu.rootGroupUid}/[0-9a-f]{16}$`));
    expect(roleGroupUid(role.uid)).toBe(emu.rootGroupUid);
    expect(isBuiltInRoleUid(role.uid)).toBe(false);
    expect([...role.capabilities].sort()).toEqual(["CAP_REPO_LIST", "CAP_TAG_LIST"]);
    const ofGroup = await client.iam.roles.list({ childrenOf: emu.rootGroupUid });
    expect(ofGroup.items.map((r) => r.uid)).toEqual([role.uid]);
    const updated = await client.iam.roles.update(
      role.uid,
      { capabilities: ["CAP_REPO_LIST"] },
      { updateMask: ["capabilities"] },
    );
    expect(updated.capabilities).toEqual(["CAP_REPO_LIST"]);
    await client.iam.roles.delete(role.uid);
    expect(await failure(client.iam.roles.get(role.uid))).toBeInstanceOf(NotFoundError);
  });
});

describe("role bindings", () => {
  it("create (hydrated), get, list, update, delete; a duplicate already exists", async () => {
    const { client } = clientFor(emu);
    const root = emu.rootGroupUid;
    const group = await client.iam.groups.create(root, { name: "binding team" });
    const identity = await client.iam.identities.create(root, {
      name: "binder",
      claimMatch: ISSUER_SUBJECT("binder"),
    });
    const viewer = (await client.iam.roles.list({ name: "viewer" })).items[0];
    const editor = (await client.iam.roles.list({ name: "editor" })).items[0];

    const binding = await client.iam.roleBindings.create(group.uid, {
      identityUid: identity.uid,
      roleUid: viewer.uid,
    });
    expect(binding.identity).toMatchObject({
      uid: identity.uid,
      name: "binder",
      subject: "binder",
    });
    expect(binding.group).toMatchObject({ uid: group.uid, name: "binding team" });
    expect(binding.role).toMatchObject({ uid: viewer.uid, name: "viewer" });

    const duplicate = await failure(
      client.iam.roleBindings.create(group.uid, { identityUid: identity.uid, roleUid: viewer.uid }),
    );
    expect(duplicate).toBeInstanceOf(AlreadyExistsError);

    expect(await client.iam.roleBindings.get(binding.uid)).toEqual(binding);
    const listed = await client.iam.roleBindings.list({ childrenOf: group.uid });
    expect(listed.items.map((b) => b.uid)).toEqual([binding.uid]);

    const moved = await client.iam.roleBindings.update(
      binding.uid,
      { roleUid: editor.uid },
      { updateMask: ["role_uid"] },
    );
    expect(moved.role.name).toBe("editor");
    expect(moved.group.uid).toBe(group.uid);

    await client.iam.roleBindings.delete(binding.uid);
    expect(await failure(client.iam.roleBindings.get(binding.uid))).toBeInstanceOf(NotFoundError);
    // Deleting a binding that is gone resolves: the API declares this delete idempotent.
    await expect(client.iam.roleBindings.delete(binding.uid)).resolves.toBeUndefined();
  });
});

describe("registry and advisories", () => {
  it("lists and gets repos, tags and advisories", async () => {
    const { client } = clientFor(emu);
    const seeded = await emu.seed({
      repos: [
        {
          parentUid: emu.rootGroupUid,
          name: "sdk-repo",
          public: true,
          tags: [{ name: "v1" }, { name: "v2", deprecated: true }],
        },
      ],
      advisories: [
        {
          advisoryId: "CGA-sdk4-2424-2424",
          artifactName: "sdk-pkg",
          aliases: ["CVE-2026-4242"],
          severities: [{ type: "TYPE_CVSS_V3", score: "7.5" }],
        },
      ],
    });
    const [repoUid] = seeded.repos;
    const repo = await client.registry.repos.get(repoUid);
    expect(repo).toMatchObject({ uid: repoUid, name: "sdk-repo" });
    const repos = await client.registry.repos.list({
      descendantsOf: emu.rootGroupUid,
      name: "sdk-repo",
    });
    expect(repos.items.map((r) => r.uid)).toEqual([repoUid]);

    const tags = await client.registry.tags.list({ childrenOf: repoUid, orderBy: "name" });
    expect(tags.items.map((t) => t.name)).toEqual(["v1", "v2"]);
    expect(await client.registry.tags.get(tags.items[1].uid)).toMatchObject({
      name: "v2",
      deprecated: true,
    });

    const advisories = await client.vulnerabilities.advisories.list({
      artifactNames: ["sdk-pkg"],
    });
    expect(advisories.items.map((a) => a.advisoryId)).toEqual(["CGA-sdk4-2424-2424"]);
    expect(advisories.items[0]).toMatchObject({
      artifactName: "sdk-pkg",
      componentName: "sdk-pkg",
      aliases: ["CVE-2026-4242"],
      severities: [{ type: "TYPE_CVSS_V3", score: "7.5" }],
    });
    const byId = await client.vulnerabilities.advisories.list({
      advisoryIds: ["CGA-sdk4-2424-2424"],
    });
    expect(byId.items).toEqual(advisories.items);
    expect(await client.vulnerabilities.advisories.get(seeded.advisories[0])).toEqual(
      advisories.items[0],
    );
  });

  it("reads public repos without a token, and only those", async () => {
    const seeded = await emu.seed({
      repos: [
        { parentUid: emu.rootGroupUid, name: "anon-public", public: true },
        { parentUid: emu.rootGroupUid, name: "anon-private", public: false },
      ],
    });
    const anonymous = clientFor(emu, {
      tokenSource: { description: "none", refreshable: false, getToken: async () => undefined },
    }).client;
    const visible = (await anonymous.registry.repos.list().all()).map((repo) => repo.uid);
    expect(visible).toContain(seeded.repos[0]);
    expect(visible).not.toContain(seeded.repos[1]);
    const log = await emu.requests();
    expect(log.every((entry) => entry.status === 200)).toBe(true);
  });
});

describe("v1 listings", () => {
  it("lists groups and repos in the v1 shape", async () => {
    const { client } = clientFor(emu);
    const groups = await client.v1.groups.list();
    expect(groups.items.some((g) => g.id === emu.rootGroupUid)).toBe(true);
    expect(groups.items[0]).not.toHaveProperty("uid");
    const repos = await client.v1.repos.list();
    expect(repos.items.length).toBeGreaterThan(0);
    expect(await requestLines(emu)).toEqual([
      "GET /iam/v1/groups -> 200",
      "GET /registry/v1/repos -> 200",
    ]);
  });
});

describe("error classes from real answers", () => {
  it("INVALID_ARGUMENT with the field violation on name", async () => {
    const { client } = clientFor(emu);
    const error = await failure(client.iam.groups.create(emu.rootGroupUid, { name: "" }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ code: 3, status: 400, reason: "INVALID_ARGUMENT" });
    expect((error as IrmError).domain).not.toBe("");
    expect((error as IrmError).fieldViolations).toEqual([
      expect.objectContaining({
        field: "name",
        description: expect.stringContaining("^[a-z0-9 ._-]{1,}$"),
      }),
    ]);
  });

  it("FAILED_PRECONDITION RESOURCE_NOT_EMPTY for a group with children", async () => {
    const { client } = clientFor(emu);
    const parent = await client.iam.groups.create(emu.rootGroupUid, { name: "non empty" });
    await client.iam.groups.create(parent.uid, { name: "child" });
    const error = await failure(client.iam.groups.delete(parent.uid));
    expect(error).toBeInstanceOf(ResourceNotEmptyError);
    expect(error).toMatchObject({ code: 9, status: 400, reason: "FAILED_PRECONDITION" });
    expect((error as IrmError).preconditionViolations[0].type).toBe("RESOURCE_NOT_EMPTY");
  });

  it("NOT_FOUND, PERMISSION_DENIED and UNAUTHENTICATED", async () => {
    const { client } = clientFor(emu);
    const missing = await failure(client.iam.groups.get(`${emu.rootGroupUid}/0000000000000000`));
    expect(missing).toBeInstanceOf(NotFoundError);

    const platformUser = (await client.iam.identities.list({ name: "platform-user" })).items[0];
    const viewerToken = await emu.mintToken(platformUser.uid);
    const viewer = clientFor(emu, { token: viewerToken }).client;
    const denied = await failure(viewer.iam.groups.create(emu.rootGroupUid, { name: "nope" }));
    expect(denied).toBeInstanceOf(PermissionDeniedError);

    const stranger = clientFor(emu, { token: "not-a-real-token-at-all" }).client;
    const unauthenticated = await failure(stranger.iam.groups.list());
    expect(unauthenticated).toBeInstanceOf(UnauthenticatedError);
    expect(String(unauthenticated)).not.toContain("not-a-real-token-at-all");
  });

  it("RESOURCE_EXHAUSTED, UNAVAILABLE and INTERNAL once retries are spent", async () => {
    const { client } = clientFor(emu, { retry: { retries: 0 } });
    await emu.fault({ match: { path: "/iam/v2beta1/roles" }, status: 429, retryAfter: 2 });
    const limited = await failure(client.iam.roles.list());
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(2000);

    await emu.fault({ match: { path: "/iam/v2beta1/roles" }, status: 503 });
    expect(await failure(client.iam.roles.list())).toBeInstanceOf(UnavailableError);

    await emu.fault({ match: { path: "/iam/v2beta1/roles" }, status: 500 });
    const internal = await failure(clientFor(emu).client.iam.roles.list());
    expect(internal).toBeInstanceOf(InternalError);
    expect(await requestLines(emu)).toEqual([
      "GET /iam/v2beta1/roles -> 429",
      "GET /iam/v2beta1/roles -> 503",
      "GET /iam/v2beta1/roles -> 500",
    ]);
  });
});

describe("connection reuse", () => {
  it("sequential calls share one keep-alive connection", async () => {
    const connections = async () =>
      (await (await fetch(`${emu.url}/emulator/connections`)).json()) as { opened: number };
    const { client } = clientFor(emu);
    await client.iam.roles.list(); // opens the client's connection
    const before = (await connections()).opened;
    for (let index = 0; index < 10; index++) await client.iam.roles.list();
    // Only the control request above may have opened one (fetch's own pool).
    expect((await connections()).opened - before).toBeLessThanOrEqual(1);
  });
});
