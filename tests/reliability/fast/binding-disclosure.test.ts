/**
 * Disclosure through role bindings: a binding answers with the hydrated identity (name,
 * issuer, subject) and role. So binding needs read access to what it names, a refusal
 * looks the same for a real uid and a missing one, and a binding someone stronger made
 * shows its reader only what that reader could Get.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { type Caller, caller, enc, type Reply, reasonOf } from "../../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;
/** Owner of group A only. */
let ownerOfA: Caller;
let groupA = "";
let groupB = "";
let viewerRole = "";
/** An identity of sibling group B, with a subject worth hiding. */
let hidden: Json;
const HIDDEN_SUBJECT = "repo:acme/secret-infra:ref:refs/heads/main";
/** A custom role of B. */
let roleOfB = "";
/** A binding of A's owner, to PATCH. */
let bindingInA = "";

/** The answer with the uid it names replaced, to compare a real uid's with a missing one's. */
function shape(reply: Reply<Json>, uid: string): string {
  return `${reply.status} ${JSON.stringify(reply.body).split(uid).join("<uid>")}`;
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  const roles = await owner<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?page_size=200");
  const byName = (name: string) =>
    roles.body.roles.find((role) => role.name === name)?.uid as string;
  viewerRole = byName("viewer");
  groupA = (
    await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "group a" },
    })
  ).body.uid as string;
  groupB = (
    await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "group b" },
    })
  ).body.uid as string;
  hidden = (
    await owner<Json>("POST", `/iam/v2beta1/identities/${groupB}`, {
      body: {
        name: "b-deployer",
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: HIDDEN_SUBJECT,
        },
      },
    })
  ).body;
  roleOfB = (
    await owner<Json>("POST", `/iam/v2beta1/roles/${groupB}`, {
      body: { name: "b-secret-role", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    })
  ).body.uid as string;
  const erin = (
    await owner<Json>("POST", `/iam/v2beta1/identities/${groupA}`, {
      body: { name: "erin", claimMatch: { issuer: emu.issuer, subject: "erin" } },
    })
  ).body.uid as string;
  const ownerRole = byName("owner");
  bindingInA = (
    await owner<Json>("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
      body: { identityUid: erin, roleUid: ownerRole },
    })
  ).body.uid as string;
  ownerOfA = caller(emu.url, await emu.mintToken(erin, 3600));
});

afterAll(async () => {
  await emu?.close();
});

describe("binding needs read access to what it names", () => {
  it("an owner of A cannot bind an identity of B; a real uid and a missing one answer alike", async () => {
    const missing = `${groupB}/0000000000000000`;
    const real = await ownerOfA<Json>("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
      body: { identityUid: hidden.uid, roleUid: viewerRole },
    });
    const absent = await ownerOfA<Json>("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
      body: { identityUid: missing, roleUid: viewerRole },
    });
    expect(real.status).toBe(403);
    expect(reasonOf(real.body)).toBe("PERMISSION_DENIED");
    expect(real.body.message).toBe(`Permission denied: CAP_IAM_IDENTITY_LIST on ${hidden.uid}`);
    expect(shape(absent, missing)).toBe(shape(real, hidden.uid as string));
    expect(real.text.includes(HIDDEN_SUBJECT)).toBe(false);
    expect(real.text.includes("b-deployer")).toBe(false);
  });

  it("nor move its own binding onto an identity of B (PATCH identityUid)", async () => {
    const missing = `${groupB}/0000000000000000`;
    const patch = (identityUid: string) =>
      ownerOfA<Json>("PATCH", `/iam/v2beta1/roleBindings/${bindingInA}?updateMask=identityUid`, {
        body: { identityUid },
      });
    const real = await patch(hidden.uid as string);
    const absent = await patch(missing);
    expect(real.status).toBe(403);
    expect(shape(absent, missing)).toBe(shape(real, hidden.uid as string));
    expect(real.text.includes(HIDDEN_SUBJECT)).toBe(false);
  });

  it("a custom role of B answers exactly as a missing role, at create and at PATCH", async () => {
    const missing = "0".repeat(40);
    const create = (roleUid: string) =>
      ownerOfA<Json>("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
        body: { identityUid: hidden.uid, roleUid },
      });
    const erinsOwn = await ownerOfA<Json>("GET", `/iam/v2beta1/roleBindings/${bindingInA}`);
    const patch = (roleUid: string) =>
      ownerOfA<Json>("PATCH", `/iam/v2beta1/roleBindings/${bindingInA}?updateMask=roleUid`, {
        body: { roleUid },
      });
    // With an identity erin can read, only the role decides.
    const own = (erinsOwn.body.identity as Json).uid as string;
    const createWith = (roleUid: string) =>
      ownerOfA<Json>("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
        body: { identityUid: own, roleUid },
      });
    const real = await createWith(roleOfB);
    expect(real.status).toBe(404);
    expect(shape(await createWith(missing), missing)).toBe(shape(real, roleOfB));
    expect(real.text.includes("b-secret-role")).toBe(false);
    expect(shape(await patch(missing), missing)).toBe(shape(await patch(roleOfB), roleOfB));
    // The identity check comes first: B's identity with B's role is still identities.get.
    expect((await create(roleOfB)).body.message).toBe(
      `Permission denied: CAP_IAM_IDENTITY_LIST on ${hidden.uid}`,
    );
    // And a Get of B's role from A is no different from a missing role either.
    const got = await ownerOfA<Json>("GET", `/iam/v2beta1/roles/${roleOfB}`);
    const gotMissing = await ownerOfA<Json>("GET", `/iam/v2beta1/roles/${missing}`);
    expect(shape(gotMissing, missing)).toBe(shape(got, roleOfB));
    // A custom role's uid holds its group's: the answer echoes the uid given, nothing more.
    expect(got.text.replaceAll(roleOfB, "").includes(groupB)).toBe(false);
  });
});

describe("a binding made by someone stronger shows its reader only what the reader may read", () => {
  it("the root owner binds B's identity in A: A's owner sees its uid, not its name or claims", async () => {
    const made = await owner<Json>("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
      body: { identityUid: hidden.uid, roleUid: viewerRole },
    });
    expect(made.status).toBe(200);
    expect(made.body.identity).toMatchObject({ name: "b-deployer", subject: HIDDEN_SUBJECT });
    const got = await ownerOfA<Json>("GET", `/iam/v2beta1/roleBindings/${made.body.uid}`);
    expect(got.status).toBe(200);
    expect(got.body.identity).toEqual({
      uid: hidden.uid,
      name: "",
      description: "",
      subject: "",
      issuer: "",
    });
    expect((got.body.role as Json).name).toBe("viewer");
    const listed = await ownerOfA<{ roleBindings: Json[] }>(
      "GET",
      `/iam/v2beta1/roleBindings?uidp.children_of=${enc(groupA)}&page_size=200`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.roleBindings.map((binding) => binding.uid)).toContain(made.body.uid);
    expect(listed.text.includes(HIDDEN_SUBJECT)).toBe(false);
    expect(listed.text.includes("b-deployer")).toBe(false);
    expect(got.text.includes("token.actions.githubusercontent.com")).toBe(false);
  });
});
