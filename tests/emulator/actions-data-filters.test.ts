/**
 * What the IAM addendum asks of the emulator across its new collections: colon actions
 * answer UNIMPLEMENTED, faults apply to the new paths, the new collections survive a
 * restart on `--data` with client secrets and invite codes only as SHA-256 digests, a
 * data file of an earlier version loads with today's built-in roles, and the list
 * filters the project adds (role bindings by identity and role, advisories by severity).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretDigest, secretMatches } from "../../emulator/collections/secrets";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { caller, reasonOf } from "../support/emulator-http";
import { failure, type Json, type Org, org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

useTestOrg((started) => {
  ({ emu, o } = started);
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** Whether `text` holds a salted digest of `secret` (never the bare SHA-256 of it). */
const holdsDigestOf = (text: string, secret: string) =>
  !text.includes(sha256(secret)) &&
  [...text.matchAll(/sha256-salted:[A-Za-z0-9_-]{22}:[0-9a-f]{64}/g)].some((m) =>
    secretMatches(m[0], secret),
  );

describe("colon actions (addendum 1)", () => {
  it.each([
    ["GET", "/iam/v2beta1/identityProviders/{group}/0123456789abcdef:generateScimToken"],
    ["POST", "/iam/v2beta1/identityProviders/{group}/0123456789abcdef:unknownAction"],
    ["GET", "/iam/v2beta1/accountAssociations/{group}:checkAccountAssociation"],
    ["POST", "/iam/v2beta1/identities:lookupIdentity"],
    ["POST", "/iam/v2beta1/identities:updateIdentityMetadata"],
    ["DELETE", "/iam/v2beta1/unknownThings/x:y"],
  ])("%s %s is UNIMPLEMENTED (code 12, HTTP 501)", async (method, template) => {
    const target = template.replace("{group}", emu.rootGroupUid);
    const reply = await o.call<Json>(method, target, {
      body: method === "GET" || method === "DELETE" ? undefined : {},
    });
    expect(reply.status).toBe(501);
    expect(reply.body.code).toBe(12);
    expect(reply.body.message).toBe(`Unimplemented: ${method} is not supported on ${target}`);
    expect(reasonOf(reply.body)).toBe("UNIMPLEMENTED");
  });

  it("a colon outside the last segment, or outside /iam/v2beta1/, is not an action", async () => {
    const notIam = await o.call("POST", "/registry/v2beta1/repos:batch", { body: {} });
    expect(notIam.status).toBe(404);
  });
});

describe("fault injection applies to the new paths", () => {
  it.each(["identityProviders", "groupInvites", "accountAssociations"])(
    "%s: an injected 503 answers once, then the request goes through",
    async (collection) => {
      const listPath = `/iam/v2beta1/${collection}`;
      await emu.fault({ match: { method: "GET", path: listPath }, status: 503, count: 1 });
      try {
        expect((await o.call("GET", listPath)).status).toBe(503);
        expect((await o.call("GET", listPath)).status).toBe(200);
      } finally {
        await emu.clearFaults();
      }
    },
  );
});

describe("--data", () => {
  let directory: string;
  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "irm-data-files-"));
  });
  afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

  const fileContents = (file: string) =>
    [file, `${file}.journal`]
      .filter((name) => fs.existsSync(name))
      .map((name) => fs.readFileSync(name, "utf8"))
      .join("\n");

  it("providers, invites and associations survive a restart; secrets and codes only as SHA-256 digests", async () => {
    const dataFile = path.join(directory, "state.json");
    const secret = "the-client-secret-77e1";
    const rotated = "the-rotated-secret-91aa";
    const first = await startTestEmulator({ dataFile });
    let provider: Json;
    let invite: Json;
    let association: Json;
    let group: string;
    try {
      const oo = org(first);
      group = await oo.group(first.rootGroupUid);
      const viewer = await oo.builtIn("viewer");
      const ingester = await oo.identity(group, {
        name: "svc",
        servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
      });
      provider = (
        await oo.call<Json>("POST", `/iam/v2beta1/identityProviders/${group}`, {
          body: {
            name: "sso",
            defaultRole: viewer,
            oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: secret },
          },
        })
      ).body;
      invite = (
        await oo.call<Json>("POST", `/iam/v2beta1/groupInvites/${group}`, {
          body: { roleUid: viewer, ttl: "86400s", email: "a@b.example" },
        })
      ).body;
      association = (
        await oo.call<Json>("POST", `/iam/v2beta1/accountAssociations/${group}`, {
          body: { name: "acct", chainguard: { serviceBindings: { INGESTER: ingester } } },
        })
      ).body;
      expect(invite.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // While running, the journal holds the changes: no secret or code there either.
      const running = fileContents(dataFile);
      expect(holdsDigestOf(running, secret)).toBe(true);
      expect(holdsDigestOf(running, invite.code as string)).toBe(true);
      expect(running).not.toContain(secret);
      expect(running).not.toContain(invite.code as string);
      const rotatedReply = await oo.call(
        "PATCH",
        `/iam/v2beta1/identityProviders/${provider.uid}`,
        {
          body: { oidc: { clientSecret: rotated } },
        },
      );
      expect(rotatedReply.status).toBe(200);
      provider = (await oo.call<Json>("GET", `/iam/v2beta1/identityProviders/${provider.uid}`))
        .body;
      const log = JSON.stringify(await first.requests());
      for (const value of [secret, rotated, invite.code as string])
        expect(log).not.toContain(value);
    } finally {
      await first.close();
    }
    const saved = fileContents(dataFile);
    expect(holdsDigestOf(saved, rotated)).toBe(true);
    expect(holdsDigestOf(saved, secret)).toBe(false);
    for (const value of [secret, rotated, invite.code as string])
      expect(saved).not.toContain(value);

    const second = await startTestEmulator({ dataFile });
    try {
      const call = caller(second.url, second.token);
      const { code: _code, ...inviteWithoutCode } = invite;
      expect(
        (await call<Json>("GET", `/iam/v2beta1/identityProviders/${provider.uid}`)).body,
      ).toEqual(provider);
      expect((await call<Json>("GET", `/iam/v2beta1/groupInvites/${invite.uid}`)).body).toEqual(
        inviteWithoutCode,
      );
      expect((await call<Json>("GET", `/iam/v2beta1/accountAssociations/${group}`)).body).toEqual(
        association,
      );
      // The rotated secret is still there: PKCE can stay off.
      const pkceOff = await call("PATCH", `/iam/v2beta1/identityProviders/${provider.uid}`, {
        body: { oidc: { pkceEnabled: false } },
      });
      expect(pkceOff.status).toBe(200);
      const blocked = await call("DELETE", `/iam/v2beta1/groups/${group}`);
      expect(failure(blocked)[1]).toBe(
        `Precondition failed: group ${group} is not empty: it still has 1 identity, 1 identity provider, 1 group invite, 1 account association`,
      );
    } finally {
      await second.close();
    }
  });

  it("a data file of an earlier version (no new collections, the old built-in roles) loads with today's roles", async () => {
    const dataFile = path.join(directory, "old.json");
    const first = await startTestEmulator({ dataFile });
    await first.close();
    const saved = JSON.parse(fs.readFileSync(dataFile, "utf8")) as Json;
    delete saved.identityProviders;
    delete saved.groupInvites;
    delete saved.accountAssociations;
    const oldEditor = ["groups.create", "groups.get", "groups.list", "roles.list"];
    for (const role of saved.roles as Json[]) {
      if (role.name === "editor") {
        role.capabilities = oldEditor;
        role.description = "Read everything; change everything but roles and role bindings";
      }
    }
    fs.writeFileSync(dataFile, JSON.stringify(saved));
    const second = await startTestEmulator({ dataFile });
    try {
      const call = caller(second.url, second.token);
      const editor = (await call<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?name=editor")).body
        .roles[0];
      expect(editor.description).toBe("Changes state, but grants no roles or permissions");
      expect(editor.capabilities).toContain("CAP_IAM_IDENTITY_PROVIDERS_LIST");
      expect(editor.capabilities).not.toContain("CAP_IAM_GROUPS_CREATE");
      expect(editor.capabilities).not.toContain("CAP_IAM_IDENTITY_PROVIDERS_CREATE");
      for (const collection of ["identityProviders", "groupInvites", "accountAssociations"]) {
        const listed = await call<Json>("GET", `/iam/v2beta1/${collection}`);
        expect(listed.body[collection]).toEqual([]);
      }
      const created = await call(
        "POST",
        `/iam/v2beta1/accountAssociations/${second.rootGroupUid}`,
        {
          body: { name: "acct", amazon: { account: "123456789012" } },
        },
      );
      expect(created.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe("--data files of the previous version", () => {
  let directory: string;
  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "irm-previous-"));
  });
  afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));
  const previous = async (name: string, edit: (saved: Json) => void): Promise<string> => {
    const dataFile = path.join(directory, name);
    const first = await startTestEmulator({ dataFile });
    await first.close();
    const saved = JSON.parse(fs.readFileSync(dataFile, "utf8")) as Json;
    edit(saved);
    fs.writeFileSync(dataFile, JSON.stringify(saved));
    return dataFile;
  };
  const flatRole = "ab".repeat(20);

  it("old capability names, flat custom role uids, tiers and advisories are migrated on load", async () => {
    let bindingUid = "";
    const dataFile = await previous("previous.json", (saved) => {
      const root = saved.rootGroupUid as string;
      const stamp = {
        createTime: "2026-01-01T00:00:00.000Z",
        updateTime: "2026-01-01T00:00:00.000Z",
      };
      (saved.roles as Json[]).push({
        uid: flatRole,
        name: "deployer",
        description: "",
        capabilities: ["repos.list", "groups.get", "groups.list"],
        parentUid: root,
        ...stamp,
      });
      bindingUid = `${root}/${"1".repeat(16)}`;
      (saved.roleBindings as Json[]).push({
        uid: bindingUid,
        identityUid: saved.platformUserUid,
        roleUid: flatRole,
        ...stamp,
      });
      for (const repo of saved.repos as Json[]) repo.catalogTier = "PREMIUM";
      saved.advisories = [
        {
          uid: "cd".repeat(20),
          advisoryId: "CVE-2025-0001",
          aliases: [],
          packageName: "zlib",
          severity: "HIGH",
          ...stamp,
        },
      ];
    });
    const seen: string[] = [];
    for (let start = 0; start < 2; start++) {
      const emulator = await startTestEmulator({ dataFile });
      try {
        const call = caller(emulator.url, emulator.token);
        const binding = (await call<Json>("GET", `/iam/v2beta1/roleBindings/${bindingUid}`)).body;
        const roleUid = (binding.role as Json).uid as string;
        expect(roleUid).toMatch(new RegExp(`^${emulator.rootGroupUid}/[0-9a-f]{16}$`));
        seen.push(roleUid);
        const role = await call<Json>("GET", `/iam/v2beta1/roles/${roleUid}`);
        expect(role.body).toMatchObject({
          name: "deployer",
          capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
        });
        expect(role.body).not.toHaveProperty("parentUid");
        expect((await call("GET", `/iam/v2beta1/roles/${flatRole}`)).status).toBe(404);
        const repos = (await call<Json>("GET", "/registry/v2beta1/repos")).body.repos as Json[];
        for (const repo of repos) expect(repo.catalogTier).toBe("CATALOG_TIER_UNSPECIFIED");
        const advisory = (
          await call<Json>("GET", `/vulnerabilities/v2beta1/advisories/${"cd".repeat(20)}`)
        ).body;
        expect(advisory).toMatchObject({ artifactName: "zlib", componentName: "zlib", events: [] });
        expect(advisory).not.toHaveProperty("packageName");
        expect(advisory).not.toHaveProperty("severity");
      } finally {
        await emulator.close();
      }
    }
    // The same uid after a second start (the migrated file was stored).
    expect(seen[1]).toBe(seen[0]);
  });

  it("a file holding a capability of neither form is refused, naming the role", async () => {
    const dataFile = await previous("unknown-capability.json", (saved) => {
      (saved.roles as Json[]).push({
        uid: flatRole,
        name: "odd",
        description: "",
        capabilities: ["groups.fly"],
        parentUid: saved.rootGroupUid,
        createTime: "2026-01-01T00:00:00.000Z",
        updateTime: "2026-01-01T00:00:00.000Z",
      });
    });
    await expect(startTestEmulator({ dataFile })).rejects.toThrow(
      `role ${flatRole} holds the unknown capability "groups.fly"`,
    );
  });
});

describe("list filters of the definitions", () => {
  it("role bindings by identity, group and role, exact match; the old names filter nothing", async () => {
    const group = await o.group(emu.rootGroupUid);
    const child = await o.group(group);
    const alice = await o.identity(group);
    const bob = await o.identity(group);
    const viewer = await o.builtIn("viewer");
    const editor = await o.builtIn("editor");
    const aliceViewer = await o.bind(group, alice, viewer);
    const aliceEditor = await o.bind(group, alice, editor);
    const bobViewer = await o.bind(group, bob, viewer);
    const bobInChild = await o.bind(child, bob, viewer);
    const uids = async (query: string) =>
      (
        (
          await o.call<Json>(
            "GET",
            `/iam/v2beta1/roleBindings?uidp.descendants_of=${group}&${query}`,
          )
        ).body.roleBindings as Json[]
      )
        .map((binding) => binding.uid)
        .sort();
    expect(await uids(`identity=${alice}`)).toEqual([aliceViewer, aliceEditor].sort());
    expect(await uids(`role=${viewer}`)).toEqual([aliceViewer, bobViewer, bobInChild].sort());
    expect(await uids(`identity=${bob}&role=${viewer}`)).toEqual([bobViewer, bobInChild].sort());
    expect(await uids(`group=${child}`)).toEqual([bobInChild]);
    expect(await uids(`group=${group}&identity=${bob}`)).toEqual([bobViewer]);
    expect(await uids(`identity=${alice.slice(0, -1)}`)).toEqual([]);
    // Not fields of the request: ignored, as the platform's gateway ignores them.
    const all = await uids("");
    expect(all).toHaveLength(4);
    expect(await uids(`identity_uid=${alice}&role_uid=${editor}`)).toEqual(all);
    // Bound to the page token.
    const first = await o.call<Json>(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${group}&role=${viewer}&page_size=1`,
    );
    const token = first.body.nextPageToken as string;
    expect(token).not.toBe("");
    const same = await o.call<Json>(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${group}&role=${viewer}&page_size=1&page_token=${token}`,
    );
    expect(same.status).toBe(200);
    const moved = await o.call(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${group}&role=${editor}&page_size=1&page_token=${token}`,
    );
    expect(failure(moved)[1]).toMatch(/^Invalid argument: page_token: belongs to another query/);
  });

  it("deleting a missing role binding answers {}, after the capability check", async () => {
    const group = await o.group(emu.rootGroupUid);
    const binding = await o.bind(group, await o.identity(group), await o.builtIn("viewer"));
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await o.call<Json>("DELETE", `/iam/v2beta1/roleBindings/${binding}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({});
    }
    const missing = `${group}/${"0".repeat(16)}`;
    expect((await o.call<Json>("DELETE", `/iam/v2beta1/roleBindings/${missing}`)).body).toEqual({});
    const stranger = await o.actor(group, []);
    expect(failure(await stranger.call("DELETE", `/iam/v2beta1/roleBindings/${missing}`))).toEqual([
      403,
      `Permission denied: CAP_IAM_ROLE_BINDINGS_DELETE on ${missing}`,
    ]);
  });

  it("advisories: the official shape and filters, bound to the page token", async () => {
    const list = async (query: string) =>
      (await o.call<Json>("GET", `/vulnerabilities/v2beta1/advisories?${query}`)).body;
    const all = (await list("")).advisories as Json[];
    expect(all.length).toBe(3);
    for (const advisory of all) {
      expect(Object.keys(advisory).sort()).toEqual(
        [
          "uid",
          "advisoryId",
          "createTime",
          "updateTime",
          "author",
          "artifactName",
          "artifactType",
          "artifactArchitecture",
          "componentName",
          "componentLocation",
          "componentType",
          "aliases",
          "events",
          "severities",
        ].sort(),
      );
    }
    const ids = (items: unknown) => (items as Json[]).map((a) => a.advisoryId).sort();
    expect(ids((await list("component_names=openssl")).advisories)).toEqual([
      "CVE-2026-0001",
      "CVE-2026-0003",
    ]);
    expect(ids((await list("componentNames=openssl&artifact_names=zlib")).advisories)).toEqual([]);
    expect(ids((await list("artifact_names=openssl&artifact_names=zlib")).advisories)).toEqual([
      "CVE-2026-0001",
      "CVE-2026-0002",
    ]);
    expect(ids((await list("aliases=GHSA-0001")).advisories)).toEqual(["CVE-2026-0001"]);
    expect(ids((await list("advisory_ids=CVE-2026-0002")).advisories)).toEqual(["CVE-2026-0002"]);
    expect(ids((await list("query=PYTHON")).advisories)).toEqual(["CVE-2026-0003"]);
    expect(ids((await list("event_types=EVENT_TYPE_FILTER_FIXED")).advisories)).toEqual([
      "CVE-2026-0001",
      "CVE-2026-0003",
    ]);
    expect(ids((await list("latest_event_type=EVENT_TYPE_FILTER_DETECTION")).advisories)).toEqual([
      "CVE-2026-0002",
    ]);
    expect(
      failure(await o.call("GET", "/vulnerabilities/v2beta1/advisories?event_types=FIXED")),
    ).toEqual([
      400,
      expect.stringMatching(/^Invalid argument: event_types: "FIXED" is not one of /),
    ]);
    // Not fields of the request: ignored.
    expect(ids((await list("package_name=zlib&severity=HIGH")).advisories)).toEqual(ids(all));
    const first = await list("page_size=1");
    const moved = await o.call(
      "GET",
      `/vulnerabilities/v2beta1/advisories?page_size=1&component_names=zlib&page_token=${first.nextPageToken}`,
    );
    expect(failure(moved)[1]).toMatch(/^Invalid argument: page_token: belongs to another query/);
  });
});

describe("secret digests are salted; older unsalted data stays readable", () => {
  it("the same secret twice gives two digests, each matching it and no other", () => {
    const first = secretDigest("s3cret");
    const second = secretDigest("s3cret");
    expect(first).not.toBe(second);
    expect(first).not.toContain(sha256("s3cret"));
    for (const digest of [first, second]) {
      expect(secretMatches(digest, "s3cret")).toBe(true);
      expect(secretMatches(digest, "s3cret ")).toBe(false);
    }
    expect(secretMatches(sha256("s3cret"), "s3cret")).toBe(true);
    expect(secretMatches(sha256("s3cret"), "other")).toBe(false);
    expect(secretMatches("garbage", "s3cret")).toBe(false);
  });
});
