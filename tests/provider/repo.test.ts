/**
 * `Repo`: provider methods called directly against the emulator (request counts from its
 * log). A repo and its README are two API objects: a create is one POST (and one PATCH
 * of the README when declared), an update one PATCH with exactly the changed fields
 * (and the README's PATCH only when it changed), a read their two GETs.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import type { RepoInputs, RepoOutputs } from "../../provider/handlers/repo";
import * as runtime from "../../provider/runtime";
import { reasonsByPlace } from "../support/check-failures";
import { maskOf, type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

let emu: ProviderFixture;
const { freshGroup } = useProviderFixture({
  groupPrefix: "repos",
  onStart(fixture) {
    emu = fixture;
  },
});

async function checked(news: Record<string, unknown>): Promise<RepoInputs> {
  const result = await runtime.repo.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs as RepoInputs;
}

const lines = async () => (await emu.requests()).map((r) => `${r.method} ${r.path}`);

describe("Repo check", () => {
  it("names each bad field and its rule before any request", async () => {
    const result = await runtime.repo.check(
      {},
      {
        parentUid: "not-a-uid",
        name: "Web App",
        catalogTier: "CATALOG_TIER_GOLD",
        aliases: ["ok", "NOT OK", 3],
        readme: 42,
      },
    );
    // Each failure by the place it names (nested ones on their top-level input).
    const byProperty = reasonsByPlace(result.failures);
    expect(Object.keys(byProperty).sort()).toEqual([
      "aliases[1]",
      "aliases[2]",
      "catalogTier",
      "name",
      "parentUid",
      "readme",
    ]);
    expect(byProperty.catalogTier).toMatch(/CATALOG_TIER_FIPS/);
    expect(await emu.requests()).toEqual([]);
  });

  it("fills the defaults, and lets unknown values of a preview pass", async () => {
    const inputs = await checked({ parentUid: emu.rootGroupUid, name: "web" });
    expect(inputs).toMatchObject({
      description: "",
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      aliases: [],
      readme: "",
    });
    const preview = await runtime.repo.check(
      {},
      { parentUid: UNKNOWN_VALUE, name: UNKNOWN_VALUE, readme: UNKNOWN_VALUE },
    );
    expect(preview.failures).toEqual([]);
  });
});

describe("Repo lifecycle", () => {
  it("create with a README (POST + PATCH), one masked PATCH per change, refresh, delete", async () => {
    const parentUid = await freshGroup();
    const declared = {
      parentUid,
      name: "web",
      catalogTier: "CATALOG_TIER_APPLICATION",
      aliases: ["site"],
      readme: "# Web",
    };
    const inputs = await checked(declared);
    await emu.clearRequests();
    const made = await runtime.repo.create(inputs);
    const outs = made.outs as RepoOutputs;
    expect(outs).toMatchObject({ ...declared, description: "", uid: made.id });
    expect(await lines()).toEqual([
      `POST /registry/v2beta1/repos/${parentUid}`,
      `PATCH /registry/v2beta1/repos/${made.id}/readme`,
    ]);

    // The same inputs: no change, no request.
    await emu.clearRequests();
    expect(await runtime.repo.diff(made.id, outs, await checked(declared))).toEqual({
      changes: false,
    });

    // A setting changed: one PATCH of the repo, masked to it.
    const tiered = await checked({ ...declared, catalogTier: "CATALOG_TIER_BASE" });
    expect(await runtime.repo.diff(made.id, outs, tiered)).toMatchObject({ changes: true });
    const updated = await runtime.repo.update(made.id, outs, tiered);
    let log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /registry/v2beta1/repos/${made.id}`,
    ]);
    expect(maskOf(log[0])).toEqual(["catalog_tier"]);
    const afterTier = updated.outs as RepoOutputs;
    expect(afterTier).toMatchObject({ catalogTier: "CATALOG_TIER_BASE", readme: "# Web" });

    // Only the README changed: one PATCH of the README, none of the repo.
    await emu.clearRequests();
    const rewritten = await checked({
      ...declared,
      catalogTier: "CATALOG_TIER_BASE",
      readme: "# New",
    });
    const readmeOnly = await runtime.repo.update(made.id, afterTier, rewritten);
    log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PATCH /registry/v2beta1/repos/${made.id}/readme`,
    ]);
    expect(maskOf(log[0])).toEqual(["content"]);
    const afterReadme = readmeOnly.outs as RepoOutputs;
    expect(afterReadme).toMatchObject({ readme: "# New", updateTime: afterTier.updateTime });

    // A refresh reads both and finds the state as it is.
    await emu.clearRequests();
    const refreshed = await runtime.repo.read(made.id, afterReadme);
    expect(refreshed.props).toMatchObject(afterReadme);
    expect(await runtime.repo.diff(made.id, refreshed.props!, rewritten)).toEqual({
      changes: false,
    });
    expect(await lines()).toEqual([
      `GET /registry/v2beta1/repos/${made.id}`,
      `GET /registry/v2beta1/repos/${made.id}/readme`,
    ]);

    // A README changed by hand shows as drift, and is put back.
    await emu.client.registry.repos.updateReadme(made.id, "by hand");
    const drifted = await runtime.repo.read(made.id, afterReadme);
    expect((drifted.props as RepoOutputs).readme).toBe("by hand");
    expect(await runtime.repo.diff(made.id, drifted.props!, rewritten)).toMatchObject({
      changes: true,
    });

    // Another group replaces it.
    expect(
      await runtime.repo.diff(made.id, afterReadme, { ...rewritten, parentUid: emu.rootGroupUid }),
    ).toMatchObject({ changes: true, replaces: ["parentUid"] });

    await emu.clearRequests();
    await runtime.repo.delete(made.id, afterReadme);
    expect(await lines()).toEqual([`DELETE /registry/v2beta1/repos/${made.id}`]);
    const gone = await runtime.repo.read(made.id, afterReadme);
    expect(gone.id).toBe("");
  });

  it("a create without a README is one POST", async () => {
    const parentUid = await freshGroup();
    const inputs = await checked({ parentUid, name: "api" });
    await emu.clearRequests();
    const made = await runtime.repo.create(inputs);
    expect(await lines()).toEqual([`POST /registry/v2beta1/repos/${parentUid}`]);
    expect((made.outs as RepoOutputs).readme).toBe("");
  });

  it("a README the service refuses leaves no repo behind", async () => {
    const parentUid = await freshGroup();
    const inputs = await checked({ parentUid, name: "half", readme: "# Half" });
    await emu.fault({ match: { method: "PATCH", pathRegex: "/readme$" }, status: 403 });
    await expect(runtime.repo.create(inputs)).rejects.toThrow();
    const left = await emu.client.registry.repos.list({ childrenOf: parentUid });
    expect(left.items).toEqual([]);
  });

  it("adopts an existing repo, setting only what differs", async () => {
    const parentUid = await freshGroup();
    const existing = await emu.client.registry.repos.create(parentUid, { name: "old" });
    const inputs = await checked({
      parentUid,
      name: "old",
      readme: "# Old",
      adoptUid: existing.uid,
    });
    await emu.clearRequests();
    const adopted = await runtime.repo.create(inputs);
    expect(adopted.id).toBe(existing.uid);
    expect(await lines()).toEqual([
      `GET /registry/v2beta1/repos/${existing.uid}`,
      `GET /registry/v2beta1/repos/${existing.uid}/readme`,
      `PATCH /registry/v2beta1/repos/${existing.uid}/readme`,
    ]);
  });
});
