/** Lookups against the emulator: one request for a single lookup, fewest pages for a listing. */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  getGroup,
  getRepo,
  getRepoOutput,
  getRepos,
  getRole,
  getRoleOutput,
  getRoles,
  type LookupOptions,
} from "../../provider/lookups";
import { type ProviderFixture, startProviderFixture } from "./fixture";

let emu: ProviderFixture;
let opts: LookupOptions;

beforeAll(async () => {
  emu = await startProviderFixture();
  opts = { settings: { apiUrl: emu.url, token: emu.token } };
});

afterAll(async () => {
  await emu?.close();
});

beforeEach(async () => {
  await emu.clearRequests();
});

function queryOf(index: number, log: Array<{ query: string }>): URLSearchParams {
  return new URLSearchParams(log[index].query);
}

describe("getRole", () => {
  it("finds a role by exact name in one request using the server-side filter", async () => {
    const role = await getRole({ name: "viewer" }, opts);
    expect(role).toMatchObject({ name: "viewer", uid: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /iam/v2beta1/roles"]);
    expect(queryOf(0, log).get("name")).toBe("viewer");
  });

  it("reads its settings from the program's irm: config when no override is given", async () => {
    pulumi.runtime.setAllConfig({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
    const role = await getRole({ name: "owner" });
    expect(role.name).toBe("owner");
    expect((await emu.requests()).map((r) => r.path)).toEqual(["/iam/v2beta1/roles"]);
  });

  it("fails with a message naming what was looked for when nothing matches", async () => {
    await expect(getRole({ name: "no such role" }, opts)).rejects.toThrow(
      'getRole: role named "no such role": found none',
    );
  });

  it("resolves Output arguments", async () => {
    const role = await new Promise((resolve) =>
      getRoleOutput({ name: Promise.resolve("editor") }, opts).apply(resolve),
    );
    expect(role).toMatchObject({ name: "editor" });
  });
});

describe("getRole with parentUid", () => {
  it("a custom role named like another group's role is found within its group, in one request", async () => {
    const teamA = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "role-scope-a" });
    const teamB = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "role-scope-b" });
    const inA = await emu.client.iam.roles.create(teamA.uid, { name: "deployer" });
    const inB = await emu.client.iam.roles.create(teamB.uid, { name: "deployer" });
    await emu.clearRequests();

    const error = await getRole({ name: "deployer" }, opts).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(`${inA.uid} of group ${teamA.uid}`);
    expect(error?.message).toContain(`${inB.uid} of group ${teamB.uid}`);
    expect(error?.message).toContain("pass parentUid");

    await emu.clearRequests();
    const role = await getRole({ name: "deployer", parentUid: teamB.uid }, opts);
    expect(role.uid).toBe(inB.uid);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.children_of")).toBe(teamB.uid);
    const viaOutput = await new Promise<string>((resolve) =>
      getRoleOutput({ name: "deployer", parentUid: Promise.resolve(teamA.uid) }, opts).apply(
        (found) => resolve(found.uid),
      ),
    );
    expect(viaOutput).toBe(inA.uid);
  });

  it("refuses a parentUid that is not a group uid before any request", async () => {
    await expect(getRole({ name: "viewer", parentUid: "not a uid" }, opts)).rejects.toThrow(
      "getRole: parentUid: must be a group uid",
    );
    expect(await emu.requests()).toEqual([]);
  });
});

describe("getRoles", () => {
  it("lists every role in one page of 200", async () => {
    const roles = await getRoles({}, opts);
    expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(["owner", "editor", "viewer"]));
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("page_size")).toBe("200");
  });

  it("filters by name on the server", async () => {
    const roles = await getRoles({ name: "owner" }, opts);
    expect(roles.map((r) => r.name)).toEqual(["owner"]);
    expect(queryOf(0, await emu.requests()).get("name")).toBe("owner");
  });
});

describe("groups and repositories", () => {
  let teamUid: string;

  beforeAll(async () => {
    const team = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "lookup team" });
    teamUid = team.uid;
    await emu.seed({
      generate: { kind: "repos", count: 250, parentUid: teamUid, namePrefix: "svc" },
    });
    // Two repositories of the same name in different groups make a lookup ambiguous.
    const other = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "other team" });
    await emu.seed({
      repos: [
        { parentUid: teamUid, name: "shared" },
        { parentUid: other.uid, name: "shared" },
      ],
    });
  });

  it("getGroup finds a group by name under its parent in one request", async () => {
    const group = await getGroup({ name: "lookup team", parentUid: emu.rootGroupUid }, opts);
    expect(group.uid).toBe(teamUid);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.children_of")).toBe(emu.rootGroupUid);
    expect(queryOf(0, log).get("name")).toBe("lookup team");
  });

  it("getRepo finds one repository, optionally under a group, in one request", async () => {
    const repo = await getRepo({ name: "shared", groupUid: teamUid }, opts);
    expect(repo.uid.startsWith(`${teamUid}/`)).toBe(true);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.descendants_of")).toBe(teamUid);

    const viaOutput = await new Promise((resolve) =>
      getRepoOutput({ name: "shared", groupUid: Promise.resolve(teamUid) }, opts).apply(resolve),
    );
    expect(viaOutput).toEqual(repo);
  });

  it("getRepo names every match when the name is ambiguous", async () => {
    const error = await getRepo({ name: "shared" }, opts).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /getRepo: repository named "shared": expected exactly one, found 2/,
    );
    const uids = (await emu.client.registry.repos.list({ name: "shared" })).items.map((r) => r.uid);
    for (const uid of uids) expect(error?.message).toContain(uid);
  });

  it("getRepos walks 251 repositories in two pages of 200", async () => {
    const repos = await getRepos({ groupUid: teamUid }, opts);
    expect(repos).toHaveLength(251);
    const log = await emu.requests();
    expect(log).toHaveLength(2);
    expect(log.every((r) => new URLSearchParams(r.query).get("page_size") === "200")).toBe(true);
  });
});
