/** Lookups against the emulator: one request for a single lookup, fewest pages for a listing. */
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  getAdvisories,
  getAdvisoriesOutput,
  getGroup,
  getGroupOutput,
  getIdentity,
  getIdentityOutput,
  getIdentityProvider,
  getIdentityProviderOutput,
  getRepo,
  getRepoOutput,
  getRepos,
  getRole,
  getRoleOutput,
  getRoles,
  getRolesOutput,
  getSubscriptions,
  getSubscriptionsOutput,
  getTag,
  getTagOutput,
  getTags,
  LookupError,
  type LookupOptions,
} from "../../provider/lookups";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";

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
    const capabilities = ["CAP_REPO_LIST" as const];
    const inA = await emu.client.iam.roles.create(teamA.uid, { name: "deployer", capabilities });
    const inB = await emu.client.iam.roles.create(teamB.uid, { name: "deployer", capabilities });
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

/** The value an Output resolves to. */
function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

/** The error a lookup fails with. */
function failureOf(lookup: Promise<unknown>): Promise<Error | undefined> {
  return lookup.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
}

describe("getRoles", () => {
  it("with parentUid lists only that group's custom roles, scoped on the server", async () => {
    const team = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "roles scope" });
    const mine = await emu.client.iam.roles.create(team.uid, {
      name: "auditor",
      capabilities: ["CAP_REPO_LIST"],
    });
    await emu.clearRequests();
    const roles = await getRoles({ parentUid: team.uid }, opts);
    expect(roles.map((r) => r.uid)).toEqual([mine.uid]);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.children_of")).toBe(team.uid);
    const viaOutput = await resolved(
      getRolesOutput({ parentUid: Promise.resolve(team.uid) }, opts),
    );
    expect(viaOutput.map((r) => r.uid)).toEqual([mine.uid]);
  });

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
  /** A group whose only repository is "shared" (the lookup team's first page holds 200 of 251). */
  let otherUid: string;

  beforeAll(async () => {
    const team = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "lookup team" });
    teamUid = team.uid;
    await emu.seed({
      generate: { kind: "repos", count: 250, parentUid: teamUid, namePrefix: "svc" },
    });
    // Two repositories of the same name in different groups make a lookup ambiguous.
    const other = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "other team" });
    otherUid = other.uid;
    await emu.seed({
      repos: [
        { parentUid: teamUid, name: "shared" },
        { parentUid: other.uid, name: "shared" },
      ],
    });
  });

  it("getGroup finds a group by uid in one GET, and says so when there is none", async () => {
    const group = await getGroup({ uid: teamUid }, opts);
    expect(group).toMatchObject({ uid: teamUid, name: "lookup team" });
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /iam/v2beta1/groups/${teamUid}`,
    ]);
    const missing = `${emu.rootGroupUid}/${"f".repeat(16)}`;
    await expect(getGroup({ uid: missing }, opts)).rejects.toThrow(
      `getGroup: group ${missing}: found none`,
    );
    expect((await resolved(getGroupOutput({ uid: Promise.resolve(teamUid) }, opts))).uid).toBe(
      teamUid,
    );
  });

  it("getGroup by a misspelt name names the nearest groups under that parent, and getRepo the nearest repositories", async () => {
    await expect(
      getGroup({ name: "lookup taem", parentUid: emu.rootGroupUid }, opts),
    ).rejects.toThrow(
      new RegExp(
        `^getGroup: group named "lookup taem" under ${emu.rootGroupUid}: found none; nearest: "lookup team"$`,
      ),
    );
    // The hint comes from the first page of the scope: here a scope of one repository.
    await expect(getRepo({ name: "shraed", groupUid: otherUid }, opts)).rejects.toThrow(
      /: found none; nearest: "shared"$/,
    );
  });

  it("getGroup takes either a uid or a name and parent, before any request", async () => {
    await emu.clearRequests();
    await expect(
      getGroup({ uid: teamUid, name: "lookup team", parentUid: emu.rootGroupUid }, opts),
    ).rejects.toThrow("getGroup: uid: give either uid, or name and parentUid, not both");
    await expect(getGroup({ name: "lookup team" }, opts)).rejects.toThrow(
      "getGroup: parentUid: is required (give either uid, or name and parentUid)",
    );
    await expect(getGroup({ uid: "nope" }, opts)).rejects.toThrow(
      "getGroup: uid: must be a group uid",
    );
    expect(await emu.requests()).toEqual([]);
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

describe("getSubscriptions", () => {
  it("lists the subscriptions of a group and below in one request; refuses a bad uid before any", async () => {
    const [team] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "hooks" }] }))
      .groups;
    const made = await emu.client.events.subscriptions.create(team, {
      sink: "https://hooks.example.com/lookup",
    });
    await emu.clearRequests();
    expect(await getSubscriptions({ groupUid: team }, opts)).toEqual([made]);
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /events/v2beta1/subscriptions"]);
    expect(queryOf(0, log).get("uidp.descendants_of")).toBe(team);
    await emu.clearRequests();
    await expect(getSubscriptions({ groupUid: "not-a-uid" }, opts)).rejects.toThrow(/groupUid/);
    expect(await emu.requests()).toEqual([]);
    const output = getSubscriptionsOutput({ groupUid: pulumi.output(team) }, opts);
    expect(await new Promise((resolve) => output.apply(resolve))).toEqual([made]);
  });
});

describe("getIdentity", () => {
  let teamA: string;
  let teamB: string;
  let deployer: string;
  const subject = "repo:acme/app:ref:refs/heads/main";

  beforeAll(async () => {
    teamA = (await emu.client.iam.groups.create(emu.rootGroupUid, { name: "identities a" })).uid;
    teamB = (await emu.client.iam.groups.create(emu.rootGroupUid, { name: "identities b" })).uid;
    deployer = (
      await emu.client.iam.identities.create(teamA, {
        name: "deployer",
        claimMatch: { issuer: emu.issuer, subject },
      })
    ).uid;
    // Same issuer, a pattern that would match the subject: never a match for an exact lookup.
    await emu.client.iam.identities.create(teamA, {
      name: "any branch",
      claimMatch: { issuer: emu.issuer, subjectPattern: "repo:acme/app:.*" },
    });
    // The same issuer and subject in another group.
    await emu.client.iam.identities.create(teamB, {
      name: "twin",
      claimMatch: { issuer: emu.issuer, subject },
    });
  });

  it("finds an identity by uid in one GET", async () => {
    await emu.clearRequests();
    const identity = await getIdentity({ uid: deployer }, opts);
    expect(identity).toMatchObject({ uid: deployer, name: "deployer" });
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET"]);
    expect((await resolved(getIdentityOutput({ uid: Promise.resolve(deployer) }, opts))).uid).toBe(
      deployer,
    );
  });

  it("finds one by exact issuer and subject within a group, in one page", async () => {
    await emu.clearRequests();
    const identity = await getIdentity({ issuer: emu.issuer, subject, parentUid: teamA }, opts);
    expect(identity.uid).toBe(deployer);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.children_of")).toBe(teamA);
    expect(queryOf(0, log).get("page_size")).toBe("200");
  });

  it("names every match when the issuer and subject are not unique, and says when none", async () => {
    const error = await failureOf(getIdentity({ issuer: emu.issuer, subject }, opts));
    expect(error?.message).toContain(
      `getIdentity: identity with issuer ${JSON.stringify(emu.issuer)} and subject ${JSON.stringify(subject)}: expected exactly one, found 2`,
    );
    expect(error?.message).toContain(deployer);
    await expect(
      getIdentity(
        { issuer: emu.issuer, subject: "repo:acme/app:ref:refs/heads/dev", parentUid: teamA },
        opts,
      ),
    ).rejects.toThrow(/: found none$/);
  });

  it("requires both issuer and subject, or a uid", async () => {
    await emu.clearRequests();
    await expect(getIdentity({ issuer: emu.issuer }, opts)).rejects.toThrow(
      "getIdentity: subject: is required (give either uid, or issuer and subject)",
    );
    await expect(getIdentity({ uid: emu.rootGroupUid }, opts)).rejects.toThrow(
      "getIdentity: uid: must be a child uid",
    );
    expect(await emu.requests()).toEqual([]);
  });
});

describe("getIdentityProvider", () => {
  it("finds a provider by name in its group, or by uid, without its secret", async () => {
    const team = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "sso team" });
    const viewer = await getRole({ name: "viewer" }, opts);
    const created = await emu.client.iam.identityProviders.create(team.uid, {
      name: "corporate sso",
      defaultRole: viewer.uid,
      oidc: {
        issuer: "https://login.example.com",
        clientId: "client-1",
        clientSecret: "never-shown-4c1d",
      },
    });
    await emu.clearRequests();
    const byName = await getIdentityProvider({ name: "corporate sso", parentUid: team.uid }, opts);
    expect(byName.uid).toBe(created.uid);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.children_of")).toBe(team.uid);
    expect(JSON.stringify(byName)).not.toContain("never-shown-4c1d");
    const byUid = await resolved(
      getIdentityProviderOutput({ uid: Promise.resolve(created.uid) }, opts),
    );
    expect(byUid).toEqual(byName);
    await expect(
      getIdentityProvider({ name: "no such sso", parentUid: team.uid }, opts),
    ).rejects.toThrow(
      `getIdentityProvider: identity provider named "no such sso" in group ${team.uid}: found none`,
    );
  });
});

describe("tags and advisories", () => {
  let nginxUid: string;

  beforeAll(async () => {
    nginxUid = (await getRepo({ name: "nginx" }, opts)).uid;
  });

  it("getTags lists a repository's tags in one request, getTag finds one by name", async () => {
    await emu.clearRequests();
    const tags = await getTags({ repoUid: nginxUid }, opts);
    expect(tags.map((t) => t.name).sort()).toEqual(["1.27", "1.27.3", "latest"]);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(queryOf(0, log).get("uidp.children_of")).toBe(nginxUid);

    await emu.clearRequests();
    const latest = await getTag({ repoUid: nginxUid, name: "latest" }, opts);
    expect(latest).toEqual(tags.find((t) => t.name === "latest"));
    expect(queryOf(0, await emu.requests()).get("name")).toBe("latest");
    const viaOutput = await resolved(
      getTagOutput({ repoUid: Promise.resolve(nginxUid), name: "1.27" }, opts),
    );
    expect(viaOutput.name).toBe("1.27");
    await expect(getTag({ repoUid: nginxUid, name: "0.1" }, opts)).rejects.toThrow(
      `getTag: tag named "0.1" of repository ${nginxUid}: found none`,
    );
    await expect(getTags({ repoUid: "" }, opts)).rejects.toThrow("getTags: repoUid: is required");
  });

  it("getAdvisories sends the official filters, under their query keys", async () => {
    const all = await getAdvisories({}, opts);
    expect(all.length).toBeGreaterThan(1);
    expect(await resolved(getAdvisoriesOutput(undefined, opts))).toEqual(all);
    const artifact = all[0].artifactName;
    await emu.clearRequests();
    const ofArtifact = await resolved(
      getAdvisoriesOutput({ artifactNames: Promise.resolve([artifact]) }, opts),
    );
    expect(ofArtifact).toEqual(all.filter((a) => a.artifactName === artifact));
    expect(queryOf(0, await emu.requests()).getAll("artifact_names")).toEqual([artifact]);

    await emu.clearRequests();
    const two = await getAdvisories({ advisoryIds: [all[0].advisoryId, all[1].advisoryId] }, opts);
    expect(two.map((a) => a.uid).sort()).toEqual([all[0].uid, all[1].uid].sort());
    expect(queryOf(0, await emu.requests()).getAll("advisory_ids")).toEqual([
      all[0].advisoryId,
      all[1].advisoryId,
    ]);
  });

  it("getAdvisories names the replacement of a former argument, before any request", async () => {
    await emu.clearRequests();
    const former = [
      [
        { packageName: "openssl" },
        "getAdvisories: packageName: no longer an argument: use artifactNames",
      ],
      [
        { advisoryId: "CVE-1" },
        "getAdvisories: advisoryId: no longer an argument: use advisoryIds",
      ],
      [{ severity: "HIGH" }, "getAdvisories: severity: no longer an argument"],
      [{ artifactNames: "openssl" }, "getAdvisories: artifactNames: must be an array of strings"],
    ] as const;
    for (const [args, message] of former) {
      await expect(getAdvisories(args as never, opts)).rejects.toThrow(message);
    }
    expect(await emu.requests()).toEqual([]);
  });
});

describe("a lookup's failure, as the program prints it", () => {
  /** What `@pulumi/pulumi` prints for an uncaught error: a RunError's message, else util.inspect. */
  const printedByPulumi = (error: unknown) =>
    (error as { __pulumiRunError?: boolean }).__pulumiRunError === true
      ? (error as Error).message
      : inspect(error, { colors: true });

  async function failure(lookup: Promise<unknown>): Promise<unknown> {
    try {
      await lookup;
    } catch (error) {
      return error;
    }
    throw new Error("the lookup succeeded");
  }

  it("a token that is not a JWT is refused before any request, naming the setting", async () => {
    await emu.clearRequests();
    const error = await failure(
      getRole({ name: "viewer" }, { settings: { apiUrl: emu.url, token: "not-a-token" } }),
    );
    expect(printedByPulumi(error)).toBe(
      "settings.token is not an API token (a JWT: three dot-separated base64url parts): get a current API token and pass it as settings.token",
    );
    expect(await emu.requests()).toEqual([]);
  });

  it("a wrong token is one line naming the setting to fix, without the SDK error or a stack", async () => {
    // Well-formed and unexpired: only the API can refuse it.
    const wrong = new UnsecuredJWT({ sub: "not-a-token" }).setExpirationTime("1h").encode();
    const error = await failure(
      getRole({ name: "viewer" }, { settings: { apiUrl: emu.url, token: wrong } }),
    );
    expect(error).toBeInstanceOf(LookupError);
    const text = printedByPulumi(error);
    expect(text).toMatch(/^getRole: the API refused the credentials \(.+\); check irm:token/);
    expect(text).not.toContain("\n");
    expect(inspect(error, { colors: true })).toBe(`LookupError: ${(error as Error).message}`);
    expect(text).not.toContain(wrong);
  });

  it("a misspelt role name is one line naming it and the nearest roles", async () => {
    const error = await failure(getRole({ name: "veiwer" }, opts));
    expect(printedByPulumi(error)).toBe(
      'getRole: role named "veiwer": found none; nearest: "viewer"',
    );
    await emu.clearRequests();
    const editr = await failure(getRole({ name: "editr" }, opts));
    expect(printedByPulumi(editr)).toBe(
      'getRole: role named "editr": found none; nearest: "editor"',
    );
    // The names are listed only once nothing is found: one more request.
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /iam/v2beta1/roles",
      "GET /iam/v2beta1/roles",
    ]);
    // A name near nothing names nothing.
    const unrelated = await failure(getRole({ name: "no such role at all" }, opts));
    expect(printedByPulumi(unrelated)).toBe(
      'getRole: role named "no such role at all": found none',
    );
  });

  it("an unreachable API names irm:apiUrl", async () => {
    const error = await failure(
      getGroup(
        { uid: emu.rootGroupUid },
        { settings: { apiUrl: "http://127.0.0.1:9", token: emu.token } },
      ),
    );
    expect(printedByPulumi(error)).toMatch(/^getGroup: the API did not answer .*check irm:apiUrl/);
  });
});
