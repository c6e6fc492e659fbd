/**
 * Ordering reveals nothing the answer does not show. A binding of a group the caller
 * owns may name an identity of another group, which the answer shows by uid only (name
 * blanked). Ordered by name, such a binding sorted by the identity's real name among
 * the caller's own bindings: with probes of chosen names, bisection recovered the name.
 * Now a list is ordered by the names the caller sees, over HTTP and gRPC, whichever
 * path (scan, order index, page tokens) answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descriptorFilePath } from "../../../emulator/grpc/descriptors";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { type Caller, caller, enc } from "../../support/emulator-http";
import { grpcUnary } from "../../support/grpc-raw";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;
let ownerOfA: Caller;
let tokenOfA = "";
let groupA = "";
/** The real name of the identity of group B bound in A: what must not leak. */
const HIDDEN = "kappa-hidden";
/** The caller's own probes, around the hidden name on both sides. */
const PROBES = ["alpha", "delta", "golf", "india", "juliet", "lima", "oscar", "tango", "zulu"];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  const roles = await owner<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?page_size=200");
  const roleUid = (name: string) => roles.body.roles.find((r) => r.name === name)?.uid as string;
  const group = async (name: string) =>
    (await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, { body: { name } })).body
      .uid as string;
  groupA = await group("group a");
  const groupB = await group("group b");
  const identity = async (who: Caller, parent: string, name: string) =>
    (
      await who<Json>("POST", `/iam/v2beta1/identities/${parent}`, {
        body: { name, claimMatch: { issuer: emu.issuer, subject: name } },
      })
    ).body.uid as string;
  const hidden = await identity(owner, groupB, HIDDEN);
  const erin = await identity(owner, groupA, "erin");
  await owner("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
    body: { identityUid: erin, roleUid: roleUid("owner") },
  });
  // Made by the root owner: a binding in A of an identity A's owner cannot read.
  await owner("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
    body: { identityUid: hidden, roleUid: roleUid("viewer") },
  });
  tokenOfA = await emu.mintToken(erin, 3600);
  ownerOfA = caller(emu.url, tokenOfA);
  for (const name of PROBES) {
    const uid = await identity(ownerOfA, groupA, name);
    const bound = await ownerOfA("POST", `/iam/v2beta1/roleBindings/${groupA}`, {
      body: { identityUid: uid, roleUid: roleUid("viewer") },
    });
    expect(bound.status).toBe(200);
  }
});

afterAll(async () => {
  await emu?.close();
});

const namesOf = (bindings: Json[]) => bindings.map((b) => (b.identity as Json).name as string);
const sorted = (names: string[], descending: boolean) =>
  [...names].sort((a, b) => (a === b ? 0 : a < b !== descending ? -1 : 1));

describe("ordering by a name the caller cannot read", () => {
  for (const direction of ["asc", "desc"]) {
    it(`HTTP, order_by=name ${direction}: one page, ordered by the names as answered`, async () => {
      const reply = await ownerOfA<{ roleBindings: Json[] }>(
        "GET",
        `/iam/v2beta1/roleBindings?uidp.children_of=${groupA}&order_by=${enc(`name ${direction}`)}`,
      );
      expect(reply.status).toBe(200);
      const names = namesOf(reply.body.roleBindings);
      expect(names).toContain("");
      expect(names).not.toContain(HIDDEN);
      expect(names).toEqual(sorted(names, direction === "desc"));
    });

    it(`HTTP, order_by=name ${direction}, a page at a time: each caller's order across page tokens`, async () => {
      /** Every page of the list as `who` reads it (small pages: the order index answers). */
      const walk = async (who: Caller) => {
        const names: string[] = [];
        let token = "";
        do {
          const reply = await who<{ roleBindings: Json[]; nextPageToken: string }>(
            "GET",
            `/iam/v2beta1/roleBindings?uidp.children_of=${groupA}&page_size=1&order_by=${enc(`name ${direction}`)}${token ? `&page_token=${enc(token)}` : ""}`,
          );
          expect(reply.status).toBe(200);
          names.push(...namesOf(reply.body.roleBindings));
          token = reply.body.nextPageToken;
        } while (token);
        expect(names).toHaveLength(PROBES.length + 2);
        return names;
      };
      // The organisation's owner first, who reads every name: an order kept for one
      // caller must not answer another.
      const full = await walk(owner);
      expect(full).toContain(HIDDEN);
      expect(full).toEqual(sorted(full, direction === "desc"));
      const names = await walk(ownerOfA);
      expect(names).not.toContain(HIDDEN);
      expect(names).toEqual(sorted(names, direction === "desc"));
      expect(await walk(owner)).toEqual(full);
    });
  }

  const built = descriptorFilePath() !== undefined || Boolean(process.env.CI);
  it.runIf(built)(
    "gRPC ListRoleBindings, order_by=name: ordered by the names as answered",
    async () => {
      const reply = await grpcUnary(
        emu.url,
        "/chainguard.platform.iam.v2beta1.RoleBindingsService/ListRoleBindings",
        { uidp: { children_of: groupA }, order_by: "name asc" },
        tokenOfA,
      );
      expect(reply.code).toBe(0);
      const items = (reply.output?.role_bindings ?? []) as Json[];
      const names = items.map((b) => (b.identity as Json).name as string);
      expect(names).toHaveLength(PROBES.length + 2);
      expect(names).toEqual(sorted(names, false));
    },
  );
});
