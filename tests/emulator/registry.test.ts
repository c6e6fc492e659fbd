/** Registry repos and tags, advisories, public reads without a token, and the v1 shapes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc } from "../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;
let anonymous: Caller;

beforeAll(async () => {
  emu = await startTestEmulator();
  owner = caller(emu.url, emu.token);
  anonymous = caller(emu.url, null);
});
afterAll(() => emu.close());

describe("repos and tags", () => {
  it("seeded repos have the public shape; some are public", async () => {
    // The repos seeded at start, directly under the root: other tests add their own below.
    const seededAtStart = `/registry/v2beta1/repos?uidp.children_of=${enc(emu.rootGroupUid)}`;
    const reply = await owner<{ repos: Json[]; totalCount: string }>("GET", seededAtStart);
    expect(reply.status).toBe(200);
    expect(reply.body.repos.length).toBeGreaterThanOrEqual(2);
    for (const repo of reply.body.repos) {
      expect(Object.keys(repo).sort()).toEqual(
        ["aliases", "catalogTier", "createTime", "description", "name", "uid", "updateTime"].sort(),
      );
      expect(repo.uid).toMatch(new RegExp(`^${emu.rootGroupUid}/[0-9a-f]{16}$`));
    }
    const publicOnly = await anonymous<{ repos: Json[] }>("GET", seededAtStart);
    expect(publicOnly.status).toBe(200);
    expect(publicOnly.body.repos.length).toBeGreaterThan(0);
    expect(publicOnly.body.repos.length).toBeLessThan(reply.body.repos.length);
  });

  it("seeded repos are listed by scope and name, with their tags under them", async () => {
    const [team] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "reg-team" }] }))
      .groups;
    const seeded = await emu.seed({
      repos: [
        {
          parentUid: team,
          name: "shop",
          description: "web shop",
          catalogTier: "PREMIUM",
          aliases: ["store"],
          tags: [
            { name: "v1", digest: `sha256:${"a".repeat(64)}`, deprecated: true },
            { name: "v2" },
          ],
        },
      ],
    });
    const [repoUid] = seeded.repos;
    const repos = await owner<{ repos: Json[] }>(
      "GET",
      `/registry/v2beta1/repos?uidp.children_of=${enc(team)}&name=shop`,
    );
    expect(repos.body.repos).toHaveLength(1);
    expect(repos.body.repos[0]).toMatchObject({
      uid: repoUid,
      name: "shop",
      description: "web shop",
      catalogTier: "PREMIUM",
      aliases: ["store"],
    });
    const tags = await owner<{ tags: Json[] }>(
      "GET",
      `/registry/v2beta1/tags?uidp.children_of=${enc(repoUid)}&order_by=name`,
    );
    expect(tags.body.tags.map((t) => t.name)).toEqual(["v1", "v2"]);
    const [v1] = tags.body.tags;
    expect(Object.keys(v1).sort()).toEqual([
      "createTime",
      "deprecated",
      "digest",
      "name",
      "uid",
      "updateTime",
    ]);
    expect(v1).toMatchObject({ digest: `sha256:${"a".repeat(64)}`, deprecated: true });
    expect(v1.uid).toMatch(new RegExp(`^${repoUid}/[0-9a-f]{16}$`));
    const got = await owner("GET", `/registry/v2beta1/tags/${v1.uid}`);
    expect(got.body).toEqual(v1);
    expect((await owner("GET", `/registry/v2beta1/repos/${repoUid}`)).status).toBe(200);
  });

  it("private repos need a token with repos.get; a presented token is always checked", async () => {
    const [repoUid] = (
      await emu.seed({ repos: [{ parentUid: emu.rootGroupUid, name: "secret", public: false }] })
    ).repos;
    const [publicUid] = (
      await emu.seed({ repos: [{ parentUid: emu.rootGroupUid, name: "open", public: true }] })
    ).repos;
    expect((await anonymous("GET", `/registry/v2beta1/repos/${repoUid}`)).status).toBe(401);
    expect((await anonymous("GET", `/registry/v2beta1/repos/${publicUid}`)).status).toBe(200);
    expect((await owner("GET", `/registry/v2beta1/repos/${repoUid}`)).status).toBe(200);
    const bad = caller(emu.url, "bad.token.value");
    expect((await bad("GET", `/registry/v2beta1/repos/${publicUid}`)).status).toBe(401);
    expect((await bad("GET", "/registry/v2beta1/repos")).status).toBe(401);
  });

  it("registry.pull on a group lets its holder list private repos there", async () => {
    const [team] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "pullers" }] }))
      .groups;
    const [privateRepo] = (await emu.seed({ repos: [{ parentUid: team, name: "inner" }] })).repos;
    const puller = (
      await owner<Json>("POST", `/iam/v2beta1/identities/${team}`, {
        body: { name: "puller", claimMatch: { issuer: emu.issuer, subject: "puller" } },
      })
    ).body.uid as string;
    const role = (await owner<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?name=registry.pull"))
      .body.roles[0];
    await owner("POST", `/iam/v2beta1/roleBindings/${team}`, {
      body: { identityUid: puller, roleUid: role.uid },
    });
    const api = caller(emu.url, await emu.mintToken(puller));
    const repos = await api<{ repos: Json[] }>("GET", "/registry/v2beta1/repos?page_size=200");
    const uids = repos.body.repos.map((r) => r.uid);
    expect(uids).toContain(privateRepo);
    const privateElsewhere = (
      await owner<{ repos: Json[] }>("GET", "/registry/v2beta1/repos?name=internal-api")
    ).body.repos[0].uid;
    expect(uids).not.toContain(privateElsewhere);
    expect((await api("GET", "/iam/v2beta1/groups")).status).toBe(200);
    expect((await api("POST", `/iam/v2beta1/groups/${team}`, { body: { name: "x" } })).status).toBe(
      403,
    );
  });

  it("repos are read-only", async () => {
    const reply = await owner<Json>("POST", `/registry/v2beta1/repos/${emu.rootGroupUid}`, {
      body: { name: "x" },
    });
    expect(reply.status).toBe(501);
    expect(reply.body.code).toBe(12);
  });
});

describe("advisories", () => {
  it("have the public shape, filter by name (advisoryId) and packageName, and need a token", async () => {
    const seeded = await emu.seed({
      advisories: [
        {
          advisoryId: "CVE-2099-0042",
          packageName: "libfoo",
          severity: "LOW",
          aliases: ["GHSA-x"],
        },
      ],
    });
    const all = await owner<{ advisories: Json[] }>("GET", "/vulnerabilities/v2beta1/advisories");
    for (const advisory of all.body.advisories) {
      expect(Object.keys(advisory).sort()).toEqual(
        [
          "advisoryId",
          "aliases",
          "createTime",
          "packageName",
          "severity",
          "uid",
          "updateTime",
        ].sort(),
      );
      expect(advisory.uid).toMatch(/^[0-9a-f]{40}$/);
    }
    const byId = await owner<{ advisories: Json[] }>(
      "GET",
      "/vulnerabilities/v2beta1/advisories?name=CVE-2099-0042",
    );
    expect(byId.body.advisories.map((a) => a.uid)).toEqual(seeded.advisories);
    const byPackage = await owner<{ advisories: Json[]; totalCount: string }>(
      "GET",
      "/vulnerabilities/v2beta1/advisories?packageName=libfoo",
    );
    expect(byPackage.body.totalCount).toBe("1");
    const got = await owner<Json>(
      "GET",
      `/vulnerabilities/v2beta1/advisories/${seeded.advisories[0]}`,
    );
    expect(got.body).toMatchObject({
      advisoryId: "CVE-2099-0042",
      severity: "LOW",
      aliases: ["GHSA-x"],
    });
    expect((await anonymous("GET", "/vulnerabilities/v2beta1/advisories")).status).toBe(401);
  });
});

describe("v1 paths", () => {
  it("GET /iam/v1/groups answers items with id and integer resourceLimits", async () => {
    const reply = await owner<{ items: Json[] }>("GET", "/iam/v1/groups");
    expect(reply.status).toBe(200);
    const root = reply.body.items.find((item) => item.id === emu.rootGroupUid) as Json;
    expect(Object.keys(root).sort()).toEqual([
      "description",
      "id",
      "name",
      "resourceLimits",
      "verified",
    ]);
    const limits = root.resourceLimits as Record<string, unknown>;
    for (const key of ["clusters", "idps", "repositories"])
      expect(Number.isInteger(limits[key])).toBe(true);
    const v2 = await owner<Json>("GET", `/iam/v2beta1/groups/${emu.rootGroupUid}`);
    // v2 shows the same limits as int64 strings.
    expect(v2.body.resourceLimits).toEqual(
      Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, String(v)])),
    );
  });

  it("GET /registry/v1/repos answers items with id, and public ones without a token", async () => {
    const reply = await owner<{ items: Json[] }>("GET", "/registry/v1/repos");
    expect(reply.body.items.length).toBeGreaterThan(0);
    expect(reply.body.items[0]).toHaveProperty("id");
    expect(reply.body.items[0]).not.toHaveProperty("uid");
    expect(reply.body.items[0]).toHaveProperty("createdAt");
    const anon = await anonymous<{ items: Json[] }>("GET", "/registry/v1/repos");
    expect(anon.status).toBe(200);
    expect(anon.body.items.length).toBeLessThan(reply.body.items.length);
    expect((await anonymous("GET", "/iam/v1/groups")).status).toBe(401);
  });
});
