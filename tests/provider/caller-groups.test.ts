/**
 * The groups above the caller's own identity need no GET in a create's check: the
 * identity a token acts as lives in a group, so the root organisation a program names
 * from its configuration (and any group above the caller) is known to exist. Any other
 * parent is still read, and one that does not exist still fails the check.
 */
import { UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { callerIdentity } from "../../provider/handlers/object-handler";
import * as runtime from "../../provider/runtime";
import { type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

let emu: ProviderFixture;

useProviderFixture({
  async onStart(fixture) {
    emu = fixture;
  },
});

const paths = async () => (await emu.requests()).map((r) => `${r.method} ${r.path}`);

/** A JWT whose `sub` is `sub`, unsigned: only the provider reads it here. */
const tokenOf = (sub: string) =>
  new UnsecuredJWT({ sub }).setExpirationTime("1h").setIssuedAt().encode();

describe("the caller's groups in a create's check", () => {
  it("a group under the root the token's identity lives in is checked with no request", async () => {
    // The emulator's token acts as an identity of the root organisation.
    expect(callerIdentity({ token: emu.token })).toMatch(new RegExp(`^${emu.rootGroupUid}/`));
    await emu.configureRuntime();
    await emu.clearRequests();
    const result = await runtime.group.check({}, { parentUid: emu.rootGroupUid, name: "team" });
    expect(result.failures ?? []).toEqual([]);
    expect(await paths()).toEqual([]);
  });

  it("a group the caller does not live in is still read, and a missing one still fails", async () => {
    await emu.configureRuntime();
    const other = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "other" });
    await emu.clearRequests();
    const result = await runtime.group.check({}, { parentUid: other.uid, name: "team" });
    expect(result.failures ?? []).toEqual([]);
    expect(await paths()).toEqual([`GET /iam/v2beta1/groups/${other.uid}`]);

    const missing = `${emu.rootGroupUid}/0123456789abcdef`;
    await emu.clearRequests();
    const failed = await runtime.group.check({}, { parentUid: missing, name: "orphan" });
    expect(failed.failures).toEqual([
      {
        property: "parentUid",
        reason: `no group ${missing} exists (or this token may not see it); nothing was created`,
      },
    ]);
    expect(await paths()).toEqual([`GET /iam/v2beta1/groups/${missing}`]);
  });

  it("a token whose subject is flat (a person's account) tells nothing: the root is read", async () => {
    await emu.configureRuntime({ "irm:token": tokenOf("f".repeat(40)) });
    await emu.clearRequests();
    await runtime.group.check({}, { parentUid: emu.rootGroupUid, name: "team" });
    expect(await paths()).toEqual([`GET /iam/v2beta1/groups/${emu.rootGroupUid}`]);
  });

  it("the caller is the token's subject, else the identity a workload assumes", () => {
    const root = "a".repeat(40);
    const identity = `${root}/0123456789abcdef`;
    expect(callerIdentity({ token: tokenOf(identity) })).toBe(identity);
    expect(callerIdentity({ identity })).toBe(identity);
    // A static token wins over the identity setting, as it does for the requests.
    expect(callerIdentity({ token: tokenOf("b".repeat(40)), identity })).toBeUndefined();
    expect(callerIdentity({ token: "not a jwt" })).toBeUndefined();
    expect(callerIdentity({ token: tokenOf("../etc") })).toBeUndefined();
    expect(callerIdentity({})).toBeUndefined();
  });
});
