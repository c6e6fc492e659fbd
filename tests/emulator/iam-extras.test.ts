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
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { caller, reasonOf } from "../support/emulator-http";
import { failure, type Json, type Org, org } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

beforeAll(async () => {
  emu = await startTestEmulator();
  o = org(emu);
});
afterAll(() => emu.close());

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("colon actions (addendum 1)", () => {
  it.each([
    ["POST", "/iam/v2beta1/identityProviders/{group}/0123456789abcdef:generateScimToken"],
    ["POST", "/iam/v2beta1/identityProviders/{group}/0123456789abcdef:setScimEnabled"],
    ["GET", "/iam/v2beta1/accountAssociations/{group}:checkAccountAssociation"],
    ["POST", "/iam/v2beta1/identities:lookupIdentity"],
    ["POST", "/iam/v2beta1/identities:updateIdentityMetadata"],
    ["POST", "/iam/v2beta1/roleBindings:batchCreate"],
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
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "irm-iam-extras-"));
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
      expect(running).toContain(sha256(secret));
      expect(running).toContain(sha256(invite.code as string));
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
    expect(saved).toContain(sha256(rotated));
    expect(saved).not.toContain(sha256(secret));
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
    const oldEditor = [
      "CAP_IAM_GROUPS_CREATE",
      "CAP_IAM_GROUPS_LIST",
      "CAP_IAM_ROLES_LIST",
      "CAP_IAM_ROLE_BINDINGS_LIST",
    ];
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
      expect(editor.description).toBe("Read everything; change everything but access grants");
      expect(editor.capabilities).toContain("CAP_IAM_IDENTITY_PROVIDERS_LIST");
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

describe("list filters the project adds (docs/emulator.md)", () => {
  it("role bindings by identity_uid (alias identityUid) and role_uid (alias roleUid), exact match", async () => {
    const group = await o.group(emu.rootGroupUid);
    const alice = await o.identity(group);
    const bob = await o.identity(group);
    const viewer = await o.builtIn("viewer");
    const editor = await o.builtIn("editor");
    const aliceViewer = await o.bind(group, alice, viewer);
    const aliceEditor = await o.bind(group, alice, editor);
    const bobViewer = await o.bind(group, bob, viewer);
    const uids = async (query: string) =>
      (
        (await o.call<Json>("GET", `/iam/v2beta1/roleBindings?uidp.children_of=${group}&${query}`))
          .body.roleBindings as Json[]
      )
        .map((binding) => binding.uid)
        .sort();
    expect(await uids(`identity_uid=${alice}`)).toEqual([aliceViewer, aliceEditor].sort());
    expect(await uids(`identityUid=${alice}`)).toEqual([aliceViewer, aliceEditor].sort());
    expect(await uids(`role_uid=${viewer}`)).toEqual([aliceViewer, bobViewer].sort());
    expect(await uids(`roleUid=${viewer}`)).toEqual([aliceViewer, bobViewer].sort());
    expect(await uids(`identity_uid=${bob}&role_uid=${viewer}`)).toEqual([bobViewer]);
    expect(await uids(`identity_uid=${alice.slice(0, -1)}`)).toEqual([]);
    // Bound to the page token.
    const first = await o.call<Json>(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${group}&role_uid=${viewer}&page_size=1`,
    );
    const token = first.body.nextPageToken as string;
    expect(token).not.toBe("");
    const same = await o.call<Json>(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${group}&roleUid=${viewer}&page_size=1&page_token=${token}`,
    );
    expect(same.status).toBe(200);
    const moved = await o.call(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${group}&role_uid=${editor}&page_size=1&page_token=${token}`,
    );
    expect(failure(moved)[1]).toMatch(/^Invalid argument: page_token: belongs to another query/);
  });

  it("advisories by severity, exact match, bound to the page token", async () => {
    const list = async (query: string) =>
      (await o.call<Json>("GET", `/vulnerabilities/v2beta1/advisories?${query}`)).body;
    const all = (await list("")).advisories as Json[];
    const severities = [...new Set(all.map((advisory) => advisory.severity as string))];
    expect(severities.length).toBeGreaterThan(1);
    for (const severity of severities) {
      const matched = (await list(`severity=${severity}`)).advisories as Json[];
      expect(matched.map((a) => a.uid)).toEqual(
        all.filter((a) => a.severity === severity).map((a) => a.uid),
      );
    }
    expect((await list(`severity=${severities[0].toLowerCase()}`)).advisories).toEqual([]);
    const packageName = all[0].packageName as string;
    const byPackage = all.filter((a) => a.packageName === packageName).map((a) => a.uid);
    for (const name of ["package_name", "packageName"]) {
      const matched = (await list(`${name}=${packageName}`)).advisories as Json[];
      expect(matched.map((a) => a.uid)).toEqual(byPackage);
    }
    const first = await list("page_size=1");
    const moved = await o.call(
      "GET",
      `/vulnerabilities/v2beta1/advisories?page_size=1&severity=${severities[0]}&page_token=${first.nextPageToken}`,
    );
    expect(failure(moved)[1]).toMatch(/^Invalid argument: page_token: belongs to another query/);
  });
});
