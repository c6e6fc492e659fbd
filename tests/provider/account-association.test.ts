/**
 * `AccountAssociation`: provider methods called directly against the emulator (request
 * counts from its log). A group has at most one association, addressed by the group's
 * uid; blocks are replaced whole and a dropped block is named in the mask.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import type {
  AccountAssociationInputs,
  AccountAssociationOutputs,
} from "../../provider/handlers/account-association";
import * as runtime from "../../provider/runtime";
import { reasonsByPlace } from "../support/check-failures";
import { maskOf, type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

const TENANT = "0f8fad5b-d9cb-469f-a165-70867728950e";
const CLIENT = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

let emu: ProviderFixture;
/** A group of its own per test: a group has at most one association. */
const { freshGroup } = useProviderFixture({
  groupPrefix: "accounts",
  onStart(fixture) {
    emu = fixture;
  },
});

async function checked(news: Record<string, unknown>): Promise<AccountAssociationInputs> {
  const result = await runtime.assoc.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs as AccountAssociationInputs;
}

async function created(news: Record<string, unknown>) {
  const inputs = await checked(news);
  // The check read the group (it must exist); the create's own requests are counted.
  await emu.clearRequests();
  const result = await runtime.assoc.create(inputs);
  return { id: result.id, outs: result.outs as AccountAssociationOutputs };
}

describe("AccountAssociation check", () => {
  it("names each bad field and its rule before any request", async () => {
    const groupUid = emu.rootGroupUid;
    const result = await runtime.assoc.check(
      {},
      {
        groupUid,
        name: "prod accounts",
        amazon: { account: "12345" },
        google: { projectId: "9project", projectNumber: "" },
        azure: { tenantId: "tenant", clientIds: { web: "x" } },
        github: {
          appInstallations: {
            abc: { installations: [{ installationId: 1 }] },
            "123": {
              installations: [
                { installationId: -4 },
                { installationId: "7" },
                { installationId: 7 },
              ],
            },
          },
        },
        chainguard: { serviceBindings: { FOO: `${"a".repeat(40)}/0123456789abcdef` } },
        adoptUid: `${groupUid}/0123456789abcdef`,
      },
    );
    // Each failure by the place it names (nested ones on their top-level input).
    const byProperty = reasonsByPlace(result.failures);
    expect(Object.keys(byProperty).sort()).toEqual([
      "adoptUid",
      "amazon.account",
      "azure.clientIds.web",
      "azure.tenantId",
      "chainguard.serviceBindings.FOO",
      "github.appInstallations.123.installations[0].installationId",
      "github.appInstallations.123.installations[2].installationId",
      "github.appInstallations.abc",
      "google.projectId",
      "google.projectNumber",
    ]);
    expect(byProperty["amazon.account"]).toMatch(/12 digits/);
    expect(byProperty["github.appInstallations.123.installations[2].installationId"]).toMatch(
      /listed twice/,
    );
    expect(byProperty.adoptUid).toMatch(/must equal groupUid/);
    expect(await emu.requests()).toEqual([]);
  });

  it("requires at least one block; a service binding must name an identity of the group", async () => {
    const none = await runtime.assoc.check({}, { groupUid: emu.rootGroupUid, name: "empty" });
    expect(none.failures).toEqual([
      {
        property: "amazon",
        reason: "at least one of amazon, google, azure, github, chainguard is required",
      },
    ]);
    const elsewhere = await runtime.assoc.check(
      {},
      {
        groupUid: `${emu.rootGroupUid}/00000000000000aa`,
        name: "x",
        chainguard: { serviceBindings: { INGESTER: `${emu.rootGroupUid}/00000000000000bb` } },
      },
    );
    expect(elsewhere.failures).toEqual([
      {
        property: "chainguard",
        reason: expect.stringMatching(
          /^chainguard\.serviceBindings\.INGESTER: .*identity directly in groupUid/,
        ),
      },
    ]);
    const preview = await runtime.assoc.check(
      {},
      { groupUid: UNKNOWN_VALUE, name: UNKNOWN_VALUE, github: UNKNOWN_VALUE },
    );
    expect(preview.failures).toEqual([]);
  });
});

describe("AccountAssociation lifecycle", () => {
  it("create (1 POST), same blocks written otherwise (no change), a block swapped (1 PATCH naming both), refresh, idempotent delete", async () => {
    const groupUid = await freshGroup();
    const ingester = await emu.client.iam.identities.create(groupUid, {
      name: "ingester",
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    await emu.clearRequests();
    const declared = {
      groupUid,
      name: "prod accounts",
      amazon: { account: "123456789012" },
      github: {
        appInstallations: {
          "123456": { installations: [{ installationId: "7890123", name: "acme" }] },
        },
      },
      chainguard: { serviceBindings: { INGESTER: ingester.uid } },
    };
    const association = await created(declared);
    expect(association.id).toBe(groupUid);
    expect(association.outs).toMatchObject({
      uid: groupUid,
      groupUid,
      amazon: { account: "123456789012" },
      github: {
        appInstallations: {
          "123456": { installations: [{ installationId: 7890123, name: "acme" }] },
        },
      },
      chainguard: { serviceBindings: { INGESTER: ingester.uid } },
    });
    expect(association.outs).not.toHaveProperty("google");
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/accountAssociations/${groupUid}`,
    ]);

    await emu.clearRequests();
    const same = await checked({
      ...declared,
      github: {
        appInstallations: {
          "123456": { installations: [{ name: "acme", installationId: 7890123 }] },
        },
      },
    });
    expect(await runtime.assoc.diff(groupUid, association.outs, same)).toEqual({
      changes: false,
    });

    const swapped = await checked({
      ...declared,
      amazon: undefined,
      azure: { tenantId: TENANT, clientIds: { web: CLIENT } },
    });
    expect(await runtime.assoc.diff(groupUid, association.outs, swapped)).toEqual({
      changes: true,
    });
    expect(await emu.requests()).toEqual([]);
    const updated = await runtime.assoc.update(groupUid, association.outs, swapped);
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0]).sort()).toEqual(["amazon", "azure"]);
    expect(updated.outs).not.toHaveProperty("amazon");
    expect(updated.outs).toMatchObject({ azure: { tenantId: TENANT, clientIds: { web: CLIENT } } });

    await emu.clearRequests();
    const refreshed = await runtime.assoc.read(groupUid, updated.outs);
    expect(await runtime.assoc.diff(groupUid, refreshed.props!, swapped)).toEqual({
      changes: false,
    });
    expect(refreshed.inputs).not.toHaveProperty("amazon");
    expect(await emu.requests()).toHaveLength(1);

    const moved = { ...swapped, groupUid: emu.rootGroupUid };
    expect(await runtime.assoc.diff(groupUid, refreshed.props!, moved)).toEqual({
      changes: true,
      replaces: ["groupUid"],
    });

    await emu.clearRequests();
    await runtime.assoc.delete(groupUid, refreshed.props!);
    await runtime.assoc.delete(groupUid, refreshed.props!);
    expect((await emu.requests()).map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
    expect(await runtime.assoc.read(groupUid, refreshed.props)).toEqual({ id: "" });
  });

  it("a group that already has one: the create fails suggesting adoptUid; adopting patches what differs", async () => {
    const groupUid = await freshGroup();
    await emu.client.iam.accountAssociations.create(groupUid, {
      name: "by hand",
      amazon: { account: "123456789012" },
    });
    await emu.clearRequests();
    const declared = {
      groupUid,
      name: "by hand",
      google: { projectId: "acme-prod", projectNumber: "42" },
    };
    const duplicate = runtime.assoc.create(await checked(declared));
    await expect(duplicate).rejects.toThrow(`set adoptUid to ${groupUid}`);

    await emu.clearRequests();
    const adopted = await runtime.assoc.create(await checked({ ...declared, adoptUid: groupUid }));
    expect(adopted.id).toBe(groupUid);
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(maskOf(log[1]).sort()).toEqual(["amazon", "google"]);
    expect(adopted.outs).not.toHaveProperty("amazon");
  });

  it("an identity its group's association binds to a service cannot be deleted: the message names the association", async () => {
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "0" });
    const groupUid = await freshGroup();
    const ingester = await emu.client.iam.identities.create(groupUid, {
      name: "ingester",
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    await created({
      groupUid,
      name: "prod accounts",
      amazon: { account: "123456789012" },
      chainguard: { serviceBindings: { INGESTER: ingester.uid } },
    });
    await emu.clearRequests();
    const failure = runtime.identity.delete(ingester.uid, {
      parentUid: groupUid,
      name: "ingester",
    } as never);
    await expect(failure).rejects.toThrow(
      `Cannot delete identity "ingester" (${ingester.uid}): account association "prod accounts" of its group (INGESTER) still refers to it, which this run did not delete.`,
    );
    expect((await emu.client.iam.identities.get(ingester.uid)).uid).toBe(ingester.uid);
  });

  it("recovers a create whose answer was lost, and creates when it never arrived", async () => {
    const lost = await freshGroup();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/accountAssociations/${lost}` },
      drop: "after",
    });
    const found = await created({
      groupUid: lost,
      name: "lost",
      amazon: { account: "123456789012" },
    });
    expect(found.id).toBe(lost);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "POST 0",
      "GET 200",
    ]);

    const never = await freshGroup();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/accountAssociations/${never}` },
      drop: "before",
    });
    const made = await created({
      groupUid: never,
      name: "never",
      amazon: { account: "123456789012" },
    });
    expect(made.id).toBe(never);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "POST 0",
      "GET 404",
      "POST 200",
    ]);
  });
});
