/**
 * Escalation by taking over an identity: an editor of a group may change identities of
 * that group, but changing how one authenticates (its `claimMatch`, by any mask form)
 * hands its role bindings to whoever the new claims admit. So it needs every capability
 * those bindings grant, on each binding's group, like granting them would; and deleting
 * then re-creating an identity never restores its bindings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;
/** An editor of group A, and nothing else. */
let editor: Caller;
let groupA = "";
let groupB = "";
let ownerRole = "";
let viewerRole = "";
let editorRole = "";

async function roleUid(name: string): Promise<string> {
  const reply = await owner<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=${enc(name)}`);
  return reply.body.roles[0].uid as string;
}

/** What the built-in viewer holds, as the API answers it. */
async function viewerCapabilities(): Promise<string[]> {
  const reply = await owner<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=viewer`);
  return reply.body.roles[0].capabilities as string[];
}

async function identityIn(group: string, name: string): Promise<Json> {
  const reply = await owner<Json>("POST", `/iam/v2beta1/identities/${group}`, {
    body: { name, claimMatch: { issuer: emu.issuer, subject: name } },
  });
  expect(reply.status).toBe(200);
  return reply.body;
}

async function bind(group: string, identityUid: string, role: string): Promise<string> {
  const reply = await owner<Json>("POST", `/iam/v2beta1/roleBindings/${group}`, {
    body: { identityUid, roleUid: role },
  });
  expect(reply.status).toBe(200);
  return reply.body.uid as string;
}

/** Exchanges an OIDC token of the test issuer for `subject` to act as `identityUid`. */
async function exchange(subject: string, identityUid: string) {
  const oidc = await emu.oidcToken(subject);
  return caller(emu.url, oidc)<Json>(
    "GET",
    `/sts/exchange?aud=${enc(emu.url)}&identity=${enc(identityUid)}`,
  );
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  ownerRole = await roleUid("owner");
  viewerRole = await roleUid("viewer");
  // The published editor set changes no identity: the attacker holds a custom role that
  // manages groups and identities (what an "editor" of identities would hold), no more.
  const custom = await owner<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
    body: {
      name: "identity-editor",
      capabilities: [
        ...(await viewerCapabilities()),
        "CAP_IAM_GROUPS_LIST",
        "CAP_IAM_GROUPS_CREATE",
        "CAP_IAM_GROUPS_UPDATE",
        "CAP_IAM_GROUPS_DELETE",
        "CAP_IAM_IDENTITY_LIST",
        "CAP_IAM_IDENTITY_CREATE",
        "CAP_IAM_IDENTITY_UPDATE",
        "CAP_IAM_IDENTITY_DELETE",
      ],
    },
  });
  expect(custom.status).toBe(200);
  editorRole = custom.body.uid as string;
  groupA = (
    await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "group-a" },
    })
  ).body.uid as string;
  groupB = (
    await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "group-b" },
    })
  ).body.uid as string;
  const ed = await identityIn(groupA, "ed-the-editor");
  await bind(groupA, ed.uid as string, editorRole);
  editor = caller(emu.url, await emu.mintToken(ed.uid as string, 3600));
});

afterAll(async () => {
  await emu?.close();
});

describe("changing how an identity authenticates needs what its bindings grant", () => {
  const forms: Array<[string, string, Json]> = [
    ["mask claimMatch", "?updateMask=claimMatch", { claimMatch: { issuer: "", subject: "" } }],
    ["mask claimMatch.issuer", "?updateMask=claimMatch.issuer", { claimMatch: { issuer: "" } }],
    ["mask claimMatch.subject", "?updateMask=claimMatch.subject", { claimMatch: { subject: "" } }],
    ["mask *", `?updateMask=${enc("*")}`, { name: "", claimMatch: { issuer: "", subject: "" } }],
    ["no mask, body with claimMatch", "", { claimMatch: { subject: "" } }],
    [
      "mask claim_match.subject",
      "?updateMask=claim_match.subject",
      { claimMatch: { subject: "" } },
    ],
  ];

  it.each(forms)(
    "%s: an editor of A cannot retarget an identity of A bound to owner of the root",
    async (_form, query, shape) => {
      const target = await identityIn(groupA, "root-admin");
      await bind(emu.rootGroupUid, target.uid as string, ownerRole);
      // Fill the shape: the attacker's subject, its own issuer (the test issuer).
      const body = JSON.parse(JSON.stringify(shape)) as Json;
      if (body.name === "") body.name = "root-admin";
      const claimMatch = body.claimMatch as Json;
      if ("issuer" in claimMatch) claimMatch.issuer = `${emu.issuer}/`;
      if ("subject" in claimMatch) claimMatch.subject = "mallory";
      const reply = await editor<Json>("PATCH", `/iam/v2beta1/identities/${target.uid}${query}`, {
        body,
      });
      expect(reply.status).toBe(403);
      expect(reasonOf(reply.body)).toBe("PERMISSION_DENIED");
      // Names a capability the editor lacks on the root (where the binding grants it).
      expect(reply.body.message).toMatch(
        new RegExp(
          `^Permission denied: CAP_[A-Z_]+ on ${emu.rootGroupUid} \\(identity ${target.uid} `,
        ),
      );
      // Nothing changed, and the attacker's OIDC token does not become the identity.
      const after = await owner<Json>("GET", `/iam/v2beta1/identities/${target.uid}`);
      expect(after.body.claimMatch).toEqual({ issuer: emu.issuer, subject: "root-admin" });
      expect(after.body.updateTime).toBe(target.updateTime);
      expect((await exchange("mallory", target.uid as string)).status).toBe(403);
    },
  );

  it("the owner of the root may retarget it; the editor may rename it (not an authentication change)", async () => {
    const target = await identityIn(groupA, "root-admin-2");
    await bind(emu.rootGroupUid, target.uid as string, ownerRole);
    const renamed = await editor<Json>(
      "PATCH",
      `/iam/v2beta1/identities/${target.uid}?updateMask=name`,
      { body: { name: "renamed" } },
    );
    expect(renamed.status).toBe(200);
    const moved = await owner<Json>(
      "PATCH",
      `/iam/v2beta1/identities/${target.uid}?updateMask=claimMatch.subject`,
      { body: { claimMatch: { subject: "new-subject" } } },
    );
    expect(moved.status).toBe(200);
    expect((await exchange("new-subject", target.uid as string)).status).toBe(200);
  });

  it("restating the current claimMatch changes nothing, so it is not refused", async () => {
    const target = await identityIn(groupA, "root-admin-3");
    await bind(emu.rootGroupUid, target.uid as string, ownerRole);
    const same = await editor<Json>("PATCH", `/iam/v2beta1/identities/${target.uid}`, {
      body: { claimMatch: { issuer: emu.issuer, subject: "root-admin-3" } },
    });
    expect(same.status).toBe(200);
    expect(same.body.updateTime).toBe(target.updateTime);
  });

  it("an editor may retarget identities whose bindings grant no more than it holds", async () => {
    const free = await identityIn(groupA, "unbound");
    const weak = await identityIn(groupA, "viewer-of-a");
    await bind(groupA, weak.uid as string, viewerRole);
    for (const identity of [free, weak]) {
      const reply = await editor<Json>(
        "PATCH",
        `/iam/v2beta1/identities/${identity.uid}?updateMask=claimMatch.subject`,
        { body: { claimMatch: { subject: "someone-else" } } },
      );
      expect(reply.status).toBe(200);
      expect((reply.body.claimMatch as Json).subject).toBe("someone-else");
    }
  });

  it("a binding in a group the caller cannot see is required too, and not named", async () => {
    const target = await identityIn(groupA, "viewer-of-b");
    await bind(groupB, target.uid as string, viewerRole);
    const reply = await editor<Json>(
      "PATCH",
      `/iam/v2beta1/identities/${target.uid}?updateMask=claimMatch.subject`,
      { body: { claimMatch: { subject: "mallory" } } },
    );
    expect(reply.status).toBe(403);
    expect(String(reply.body.message)).toMatch(
      new RegExp(`^Permission denied: CAP_[A-Z_]+_LIST on ${target.uid} `),
    );
    expect(reply.text.includes(groupB)).toBe(false);
  });
});

describe("deleting and re-creating an identity does not restore its bindings", () => {
  it("an editor cannot delete a bound identity, and a look-alike it creates holds nothing", async () => {
    const target = await identityIn(groupA, "root-admin-4");
    await bind(emu.rootGroupUid, target.uid as string, ownerRole);
    const deleted = await editor<Json>("DELETE", `/iam/v2beta1/identities/${target.uid}`);
    expect(deleted.status).toBe(400);
    expect(reasonOf(deleted.body)).toBe("FAILED_PRECONDITION");
    // The same name and claims, under a fresh uid: none of the original's bindings.
    const twin = await editor<Json>("POST", `/iam/v2beta1/identities/${groupA}`, {
      body: { name: "root-admin-4", claimMatch: { issuer: emu.issuer, subject: "mallory" } },
    });
    expect(twin.status).toBe(200);
    expect(twin.body.uid).not.toBe(target.uid);
    const bindings = await owner<{ totalCount: string }>(
      "GET",
      `/iam/v2beta1/roleBindings?identity=${enc(twin.body.uid as string)}&uidp.descendants_of=${emu.rootGroupUid}`,
    );
    expect(bindings.body.totalCount).toBe("0");
    // The editor cannot bind the look-alike to the owner role it lacks.
    const rebind = await editor<Json>("POST", `/iam/v2beta1/roleBindings/${emu.rootGroupUid}`, {
      body: { identityUid: twin.body.uid, roleUid: ownerRole },
    });
    expect(rebind.status).toBe(403);
    // And the look-alike's exchanged token has no power at the root.
    const exchanged = await exchange("mallory", twin.body.uid as string);
    expect(exchanged.status).toBe(200);
    const asTwin = caller(emu.url, exchanged.body.token as string);
    const attempt = await asTwin("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "planted" },
    });
    expect(attempt.status).toBe(403);
  });
});
