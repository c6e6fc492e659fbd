/**
 * Chainguard Libraries artifacts (`libraries.v2beta1.ArtifactsService` at HEAD): the
 * artifacts seeded through `/emulator/seed`, listed by ecosystem and query, their
 * versions paged, the count per ecosystem, and the unscoped capability they need.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { caller } from "../support/emulator-http";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  await emu.seed({
    artifacts: [
      {
        name: "requests",
        ecosystem: "ECOSYSTEM_PYTHON",
        remediated: true,
        versions: [
          {
            version: "2.31.0",
            description: "old",
            sizeBytes: 100,
            createTime: "2026-01-01T00:00:00Z",
          },
          {
            version: "2.32.3",
            description: "HTTP for humans",
            sizeBytes: 120,
            createTime: "2026-02-01T00:00:00Z",
          },
          { version: "2.32.0", sizeBytes: 110, createTime: "2026-01-15T00:00:00Z" },
        ],
      },
      { name: "torch", ecosystem: "ECOSYSTEM_PYTHON", cudaVersions: ["12.4"] },
      { name: "org.yaml:snakeyaml", ecosystem: "ECOSYSTEM_JAVA", versions: [{ version: "2.2" }] },
    ],
  });
});

const path = (suffix: string) => `/libraries/v2beta1/artifacts${suffix}`;

describe("list and versions", () => {
  it("lists an ecosystem's artifacts by name, with the latest version", async () => {
    const reply = await o.call<Json>("GET", path("?ecosystems=ECOSYSTEM_PYTHON"));
    expect(reply.status, reply.text).toBe(200);
    const listed = reply.body.artifacts as Json[];
    expect(listed.map((a) => a.name)).toEqual(["requests", "torch"]);
    expect(listed[0]).toEqual({
      uid: expect.stringMatching(/^[0-9a-f]{40}$/),
      name: "requests",
      description: "HTTP for humans",
      ecosystem: "ECOSYSTEM_PYTHON",
      latestVersion: "2.32.3",
      versionCount: 3,
      createTime: expect.any(String),
      updateTime: "2026-02-01T00:00:00.000Z",
    });
    expect(reply.body.totalCount).toBe("2");
    const both = await o.call<Json>("GET", path("?ecosystems=1&ecosystems=2&query=YAML"));
    expect((both.body.artifacts as Json[]).map((a) => a.name)).toEqual(["org.yaml:snakeyaml"]);
    const cuda = await o.call<Json>("GET", path("?ecosystems=ECOSYSTEM_PYTHON&cuda_version=12.4"));
    expect((cuda.body.artifacts as Json[]).map((a) => a.name)).toEqual(["torch"]);
    const fixed = await o.call<Json>("GET", path("?ecosystems=ECOSYSTEM_PYTHON&remediated=true"));
    expect((fixed.body.artifacts as Json[]).map((a) => a.name)).toEqual(["requests"]);
  });

  it("pages an artifact's versions, newest version string first", async () => {
    const listed = await o.call<Json>("GET", path("?ecosystems=ECOSYSTEM_PYTHON&query=requests"));
    const uid = (listed.body.artifacts as Json[])[0].uid;
    const first = await o.call<Json>("GET", path(`/${uid}/versions?page_size=2`));
    expect(first.status, first.text).toBe(200);
    expect((first.body.artifactVersions as Json[]).map((v) => v.version)).toEqual([
      "2.32.3",
      "2.32.0",
    ]);
    expect((first.body.artifactVersions as Json[])[0]).toEqual({
      uid: expect.stringMatching(new RegExp(`^${uid}/[0-9a-f]{16}$`)),
      name: "requests",
      version: "2.32.3",
      description: "HTTP for humans",
      createTime: "2026-02-01T00:00:00.000Z",
      updateTime: "2026-02-01T00:00:00.000Z",
      sizeBytes: "120",
    });
    const next = await o.call<Json>(
      "GET",
      path(`/${uid}/versions?page_size=2&page_token=${first.body.nextPageToken}`),
    );
    expect((next.body.artifactVersions as Json[]).map((v) => v.version)).toEqual(["2.31.0"]);
    const missing = await o.call("GET", path(`/${"0".repeat(40)}/versions`));
    expect(failure(missing)[0]).toBe(404);
    const bad = await o.call("GET", path("/not-an-id/versions"));
    expect(failure(bad)).toEqual([400, expect.stringContaining("artifact_id")]);
    const nested = await o.call("GET", path(`/${"a".repeat(40)}/${"0".repeat(16)}/versions`));
    expect(failure(nested)).toEqual([400, expect.stringContaining("artifact_id")]);
  });

  it("counts the artifacts of each ecosystem asked for", async () => {
    const reply = await o.call<Json>(
      "GET",
      path("/count?ecosystems=ECOSYSTEM_JAVA&ecosystems=ECOSYSTEM_PYTHON"),
    );
    expect(reply.body).toEqual({
      counts: [
        { ecosystem: "ECOSYSTEM_JAVA", totalCount: "1" },
        { ecosystem: "ECOSYSTEM_PYTHON", totalCount: "2" },
      ],
    });
  });

  it.each([
    ["", "ecosystems"],
    ["?ecosystems=ECOSYSTEM_UNSPECIFIED", "ecosystems"],
    ["?ecosystems=ECOSYSTEM_RUST", "ecosystems"],
    ["/count", "ecosystems"],
    ["?ecosystems=ECOSYSTEM_JAVA&remediated=maybe", "remediated"],
  ])("refuses %s naming %s", async (suffix, field) => {
    const reply = await o.call("GET", path(suffix));
    expect(failure(reply)).toEqual([400, expect.stringContaining(`${field}:`)]);
  });
});

describe("capabilities", () => {
  it("needs a token and CAP_LIBRARIES_ARTIFACTS_LIST on some group", async () => {
    const query = path("?ecosystems=ECOSYSTEM_JAVA");
    expect((await caller(emu.url, null)("GET", query)).status).toBe(401);
    const other = await o.actorWith(emu.rootGroupUid, ["CAP_REPO_LIST"]);
    const refused = await other.call("GET", query);
    expect(failure(refused)).toEqual([
      403,
      expect.stringContaining("CAP_LIBRARIES_ARTIFACTS_LIST"),
    ]);
    const below = await o.actorWith(await o.group(emu.rootGroupUid), [
      "CAP_LIBRARIES_ARTIFACTS_LIST",
    ]);
    expect((await below.call("GET", query)).status).toBe(200);
  });
});
