/**
 * `CreateGroup`'s parent as the definitions at HEAD allow it (corrections 16): a uid, a
 * uid suffix or the name of a group the caller can see; an empty parent creates a root
 * organisation, whose creator becomes its owner and exchanges a token for it next.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { caller, enc } from "../support/emulator-http";
import { failure, type Json, type Org, uniqueName, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

useTestOrg((started) => {
  ({ emu, o } = started);
});

const GROUPS = "/iam/v2beta1/groups";
const lastSegment = (uid: string) => uid.slice(uid.lastIndexOf("/") + 1);

describe("a new group's parent", () => {
  let team: string;
  let teamName: string;
  beforeAll(async () => {
    teamName = uniqueName("team");
    team = await o.group(emu.rootGroupUid, teamName);
  });

  const createUnder = (parent: string, call = o.call) =>
    call<Json>("POST", `${GROUPS}/${parent}`, { body: { name: uniqueName("child") } });

  it("a uid suffix names the group whose uid ends with it", async () => {
    const reply = await createUnder(lastSegment(team));
    expect(reply.status, reply.text).toBe(200);
    expect(String(reply.body.uid).startsWith(`${team}/`)).toBe(true);
  });

  it("a group's name names it, the name as the path segment (encoded)", async () => {
    const reply = await createUnder(enc(teamName));
    expect(reply.status, reply.text).toBe(200);
    expect(String(reply.body.uid).startsWith(`${team}/`)).toBe(true);
  });

  it("a name of several groups is INVALID_ARGUMENT naming parent; nothing is created", async () => {
    const twice = uniqueName("twin");
    const a = await o.group(emu.rootGroupUid, twice);
    const b = await o.group(emu.rootGroupUid, twice);
    const reply = await createUnder(enc(twice));
    expect(failure(reply)).toEqual([
      400,
      `Invalid argument: parent: ${JSON.stringify(twice)} is the name of 2 groups; give the group's uid`,
    ]);
    for (const uid of [a, b]) {
      const children = await o.call<Json>("GET", `${GROUPS}?uidp.children_of=${uid}`);
      expect(children.body.groups).toEqual([]);
    }
  });

  it("no match is NOT_FOUND naming parent", async () => {
    const reply = await createUnder("nothing-by-this-name");
    expect(reply.status).toBe(404);
    expect(String(reply.body.message)).toMatch(/^Not found: parent: /);
  });

  it("a group the caller cannot see is not found by name or suffix", async () => {
    const home = await o.group(emu.rootGroupUid);
    const { call } = await o.actorWith(home, ["CAP_IAM_GROUPS_CREATE", "CAP_IAM_GROUPS_LIST"]);
    expect((await createUnder(enc(teamName), call)).status).toBe(404);
    expect((await createUnder(lastSegment(team), call)).status).toBe(404);
    expect((await createUnder(lastSegment(home), call)).status).toBe(200);
  });
});

describe("a root organisation (empty parent)", () => {
  /** An identity of the test issuer's subject `subject`, without any binding. */
  async function person(subject: string): Promise<string> {
    return o.identity(emu.rootGroupUid, {
      name: uniqueName("person"),
      claimMatch: { issuer: emu.issuer, subject },
    });
  }

  it("any authenticated caller may create one and becomes its owner", async () => {
    const identity = await person("alice");
    const alice = caller(emu.url, await emu.mintToken(identity));
    const created = await alice<Json>("POST", GROUPS, { body: { name: "alice-org" } });
    expect(created.status, created.text).toBe(200);
    const org = created.body.uid as string;
    expect(org).toMatch(/^[0-9a-f]{40}$/);
    expect(created.body).toMatchObject({ name: "alice-org", description: "", verified: false });
    const bindings = await alice<Json>("GET", `/iam/v2beta1/roleBindings?group=${org}`);
    expect(bindings.status, bindings.text).toBe(200);
    const owner = (await o.builtIn("owner")) as string;
    expect(bindings.body.roleBindings).toEqual([
      expect.objectContaining({
        identity: expect.objectContaining({ uid: identity }),
        role: expect.objectContaining({ uid: owner, name: "owner" }),
      }),
    ]);
    // The owner works in it at once, and sees nothing of the organisation it came from.
    expect((await alice("POST", `${GROUPS}/${org}`, { body: { name: "team" } })).status).toBe(200);
    expect((await alice("GET", `${GROUPS}/${emu.rootGroupUid}`)).status).toBe(403);
  });

  it("the owner's token exchange then works for the new organisation", async () => {
    const identity = await person("bob");
    const bob = caller(emu.url, await emu.mintToken(identity));
    const org = (await bob<Json>("POST", GROUPS, { body: { name: "bob-org" } })).body.uid as string;
    const oidc = await emu.oidcToken("bob", { audience: emu.url });
    const exchanged = await caller(emu.url, oidc)<Json>(
      "GET",
      `/sts/exchange?aud=${enc(emu.url)}&identity=${enc(identity)}&scopes=${enc(org)}`,
    );
    expect(exchanged.status, exchanged.text).toBe(200);
    const token = caller(emu.url, exchanged.body.token as string);
    expect((await token<Json>("GET", `${GROUPS}/${org}`)).body.name).toBe("bob-org");
    expect((await token("POST", `${GROUPS}/${org}`, { body: { name: "team" } })).status).toBe(200);
  });

  it("names follow the rules; an anonymous caller is refused; nothing is created", async () => {
    const before = (await o.call<Json>("GET", `${GROUPS}?page_size=200`)).body.groups as Json[];
    expect(failure(await o.call("POST", GROUPS, { body: { name: "ab" } }))).toEqual([
      400,
      "Invalid argument: name: must be 3 to 63 characters",
    ]);
    const anonymous = await caller(emu.url, null)("POST", GROUPS, { body: { name: "nobody" } });
    expect(anonymous.status).toBe(401);
    const after = (await o.call<Json>("GET", `${GROUPS}?page_size=200`)).body.groups as Json[];
    expect(after.length).toBe(before.length);
  });
});
