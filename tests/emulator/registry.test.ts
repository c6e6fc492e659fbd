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
          catalogTier: "CATALOG_TIER_BASE",
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
      catalogTier: "CATALOG_TIER_BASE",
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
    expect(
      (await api("POST", `/iam/v2beta1/groups/${team}`, { body: { name: "xyz" } })).status,
    ).toBe(403);
  });

  it("writes HEAD does not publish stay UNIMPLEMENTED (no UpdateTag, no PUT)", async () => {
    const tags = await owner<{ tags: Json[] }>("GET", "/registry/v2beta1/tags?page_size=1");
    const tagUid = tags.body.tags[0].uid as string;
    const patched = await owner<Json>("PATCH", `/registry/v2beta1/tags/${tagUid}`, {
      body: { deprecated: true },
    });
    expect(patched.status).toBe(501);
    expect(patched.body.code).toBe(12);
    const put = await owner<Json>("PUT", `/registry/v2beta1/repos/${emu.rootGroupUid}`, {
      body: { name: "xyz" },
    });
    expect(put.status).toBe(501);
  });
});

describe("advisories", () => {
  it("have the official shape, filter by the official filters, and need CAP_ADVISORIES_LIST", async () => {
    const seeded = await emu.seed({
      advisories: [
        {
          advisoryId: "CGA-2099-0042",
          artifactName: "libfoo",
          componentName: "libfoo-core",
          aliases: ["CVE-2099-0042"],
          events: [{ reviewState: "REVIEW_STATE_APPROVED", fixed: { fixedVersion: "1.2.3-r0" } }],
          severities: [{ type: "TYPE_CVSS_V4", score: "4.2" }],
        },
      ],
    });
    const all = await owner<{ advisories: Json[] }>("GET", "/vulnerabilities/v2beta1/advisories");
    for (const advisory of all.body.advisories) {
      expect(advisory).not.toHaveProperty("packageName");
      expect(advisory).not.toHaveProperty("severity");
      expect(advisory.uid).toMatch(/^[0-9a-f]{40}$/);
    }
    // ListAdvisoriesRequest has no name: ignored.
    const byName = await owner<{ advisories: Json[] }>(
      "GET",
      "/vulnerabilities/v2beta1/advisories?name=CGA-2099-0042",
    );
    expect(byName.body.advisories).toHaveLength(all.body.advisories.length);
    const byId = await owner<{ advisories: Json[]; totalCount: string }>(
      "GET",
      "/vulnerabilities/v2beta1/advisories?advisoryIds=CGA-2099-0042",
    );
    expect(byId.body.advisories.map((a) => a.uid)).toEqual(seeded.advisories);
    expect(byId.body.totalCount).toBe("1");
    const got = await owner<Json>(
      "GET",
      `/vulnerabilities/v2beta1/advisories/${seeded.advisories[0]}`,
    );
    expect(got.body).toMatchObject({
      advisoryId: "CGA-2099-0042",
      artifactName: "libfoo",
      componentName: "libfoo-core",
      aliases: ["CVE-2099-0042"],
      severities: [{ type: "TYPE_CVSS_V4", score: "4.2" }],
    });
    const [event] = got.body.events as Json[];
    expect(event).toMatchObject({
      author: "",
      reviewState: "REVIEW_STATE_APPROVED",
      fixed: { fixedVersion: "1.2.3-r0" },
    });
    expect(event.uid).toMatch(/^[0-9a-f]{40}$/);
    expect((await anonymous("GET", "/vulnerabilities/v2beta1/advisories")).status).toBe(401);
  });

  it("a caller without CAP_ADVISORIES_LIST anywhere is refused", async () => {
    const api = caller(emu.url, emu.token);
    const team = (
      await api<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
        body: { name: "no advisories" },
      })
    ).body.uid as string;
    const identity = (
      await api<Json>("POST", `/iam/v2beta1/identities/${team}`, {
        body: { name: "reader", claimMatch: { issuer: emu.issuer, subject: "reader" } },
      })
    ).body.uid as string;
    const role = (
      await api<Json>("POST", `/iam/v2beta1/roles/${team}`, {
        body: { name: "groups only", capabilities: ["CAP_IAM_GROUPS_LIST"] },
      })
    ).body.uid as string;
    await api("POST", `/iam/v2beta1/roleBindings/${team}`, {
      body: { identityUid: identity, roleUid: role },
    });
    const reader = caller(emu.url, await emu.mintToken(identity));
    const listed = await reader<Json>("GET", "/vulnerabilities/v2beta1/advisories");
    expect(listed.status).toBe(403);
    expect(listed.body.message).toBe("Permission denied: CAP_ADVISORIES_LIST on advisories");
  });

  it("seed entries are validated against the official enums", async () => {
    const bad = await fetch(`${emu.url}/emulator/seed`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        advisories: [
          { advisoryId: "X", artifactName: "a", severities: [{ type: "CRITICAL", score: "9" }] },
        ],
      }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).message).toMatch(
      /^Invalid argument: advisories\[0\]\.severities\[0\]\.type: must be one of TYPE_UNSPECIFIED/,
    );
  });
});

describe("advisories: the component's location (corrections 18)", () => {
  it("every advisory carries one, a seed without one the apk database's; the list filters by it", async () => {
    const all = await owner<{ advisories: Json[] }>("GET", "/vulnerabilities/v2beta1/advisories");
    for (const advisory of all.body.advisories) {
      expect(advisory.componentLocation, String(advisory.advisoryId)).toMatch(/^\/./);
    }
    const seeded = await emu.seed({
      advisories: [
        { advisoryId: "CGA-2099-0100", artifactName: "curl", componentLocation: "/usr/bin/curl" },
        { advisoryId: "CGA-2099-0101", artifactName: "curl" },
      ],
    });
    const [located, unsaid] = await Promise.all(
      seeded.advisories.map(
        async (uid) =>
          (await owner<Json>("GET", `/vulnerabilities/v2beta1/advisories/${uid}`)).body,
      ),
    );
    expect(located.componentLocation).toBe("/usr/bin/curl");
    expect(unsaid.componentLocation).toBe("/lib/apk/db/installed");
    const filtered = await owner<{ advisories: Json[] }>(
      "GET",
      `/vulnerabilities/v2beta1/advisories?component_locations=${enc("/usr/bin/curl")}`,
    );
    expect(filtered.body.advisories.map((a) => a.uid)).toEqual([seeded.advisories[0]]);
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
    // v2 shows the same limits, as numbers too (map<string, int32>).
    expect(v2.body.resourceLimits).toEqual(limits);
  });

  it("GET /registry/v1/repos answers items with id, and public ones without a token", async () => {
    const reply = await owner<{ items: Json[] }>("GET", "/registry/v1/repos");
    expect(reply.body.items.length).toBeGreaterThan(0);
    expect(reply.body.items[0]).toHaveProperty("id");
    expect(reply.body.items[0]).not.toHaveProperty("uid");
    // The v1 `Repo` message: `createTime`, the README, the v1 tier names.
    expect(Object.keys(reply.body.items[0]).sort()).toEqual(
      ["aliases", "catalogTier", "createTime", "description", "id", "name", "readme"].sort(),
    );
    expect(["UNKNOWN", "APPLICATION", "BASE"]).toContain(reply.body.items[0].catalogTier);
    const anon = await anonymous<{ items: Json[] }>("GET", "/registry/v1/repos");
    expect(anon.status).toBe(200);
    expect(anon.body.items.length).toBeLessThan(reply.body.items.length);
    expect((await anonymous("GET", "/iam/v1/groups")).status).toBe(401);
  });
});
