/**
 * HEAD's `SecurityAdvisoryService` (`/advisory/v2beta1/...`): documents and vulnerability
 * metadata seeded through `/emulator/seed` and read without a token, resolved
 * vulnerabilities by day for images seeded on tags, with the capabilities each repo needs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { caller } from "../support/emulator-http";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let repo: string;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  await emu.seed({
    documents: [
      {
        id: "openssl",
        advisories: [
          {
            id: "CGA-aaaa-bbbb-cccc",
            aliases: ["CVE-2026-1111", "GHSA-xxxx"],
            packageNamespace: "wolfi",
            events: [{ timestamp: "2026-01-02T00:00:00Z", fixed: { fixedVersion: "3.5.1-r0" } }],
          },
          { id: "CGA-dddd-eeee-ffff", aliases: ["CVE-2026-2222"], packageNamespace: "wolfi" },
        ],
      },
      { id: "curl", advisories: [{ id: "CGA-1111-2222-3333", aliases: ["CVE-2026-3333"] }] },
    ],
    vulnerabilityMetadata: [
      {
        id: "CVE-2026-1111",
        summary: "overflow",
        references: [{ type: "TYPE_ADVISORY", url: "https://example.test/a" }],
        severities: [{ type: "TYPE_CVSS_V3", score: "9.8" }],
      },
      { id: "CVE-2026-2222", summary: "leak" },
      { id: "CVE-2026-3333", summary: "race" },
    ],
  });
  [repo] = (
    await emu.seed({
      repos: [
        {
          parentUid: emu.rootGroupUid,
          name: "resolved-image",
          tags: [
            {
              name: "latest",
              resolvedVulns: [
                {
                  date: "2026-03-02",
                  id: "CGA-aaaa-bbbb-cccc",
                  aliases: ["CVE-2026-1111"],
                  cvssSeverities: [{ type: "TYPE_CVSS_V3", score: "9.8" }],
                },
              ],
            },
            { name: "1.0", resolvedVulns: [{ date: "2026-03-01", id: "CGA-dddd-eeee-ffff" }] },
          ],
        },
      ],
    })
  ).repos;
});

const anonymous = () => caller(emu.url, null);

describe("documents", () => {
  it("answers the seeded documents without a token, by package and by CVE", async () => {
    const all = await anonymous()<Json>("GET", "/advisory/v2beta1/documents");
    expect(all.status, all.text).toBe(200);
    expect((all.body.documents as Json[]).map((d) => d.id)).toEqual(["curl", "openssl"]);
    const one = await anonymous()<Json>("GET", "/advisory/v2beta1/documents?id=openssl");
    expect(one.body.documents).toEqual([
      {
        id: "openssl",
        advisories: [
          {
            id: "CGA-aaaa-bbbb-cccc",
            events: [{ timestamp: "2026-01-02T00:00:00Z", fixed: { fixedVersion: "3.5.1-r0" } }],
            aliases: ["CVE-2026-1111", "GHSA-xxxx"],
            packageNamespace: "wolfi",
          },
          {
            id: "CGA-dddd-eeee-ffff",
            events: [],
            aliases: ["CVE-2026-2222"],
            packageNamespace: "wolfi",
          },
        ],
      },
    ]);
    const byCve = await anonymous()<Json>(
      "GET",
      "/advisory/v2beta1/documents?cves=CVE-2026-2222&cves=CVE-2026-3333",
    );
    expect(byCve.body.documents).toEqual([
      expect.objectContaining({ id: "curl" }),
      expect.objectContaining({
        id: "openssl",
        advisories: [expect.objectContaining({ id: "CGA-dddd-eeee-ffff" })],
      }),
    ]);
    const none = await anonymous()<Json>("GET", "/advisory/v2beta1/documents?id=zlib");
    expect(none.body).toEqual({ documents: [] });
  });

  it("a bad seed is refused naming the field, and seeds nothing", async () => {
    const reply = await fetch(`${emu.url}/emulator/seed`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        documents: [
          { id: "zlib", advisories: [{ id: "CGA-x", events: [{ timestamp: "yesterday" }] }] },
        ],
      }),
    });
    expect(reply.status).toBe(400);
    expect(await reply.text()).toContain("documents[0].advisories[0].events[0].timestamp");
    const none = await anonymous()<Json>("GET", "/advisory/v2beta1/documents?id=zlib");
    expect(none.body).toEqual({ documents: [] });
  });
});

describe("vulnerability metadata", () => {
  it("answers the metadata of id and ids, paged by id", async () => {
    const one = await anonymous()<Json>("GET", "/advisory/v2beta1/metadata?id=CVE-2026-1111");
    expect(one.status, one.text).toBe(200);
    expect(one.body.vulnerabilityMetadata).toEqual([
      {
        id: "CVE-2026-1111",
        summary: "overflow",
        details: "",
        references: [{ type: "TYPE_ADVISORY", url: "https://example.test/a" }],
        severities: [{ type: "TYPE_CVSS_V3", score: "9.8" }],
      },
    ]);
    const page = await anonymous()<Json>(
      "GET",
      "/advisory/v2beta1/metadata?ids=CVE-2026-3333&ids=CVE-2026-2222&ids=CVE-2026-1111&page_size=2",
    );
    expect((page.body.vulnerabilityMetadata as Json[]).map((m) => m.id)).toEqual([
      "CVE-2026-1111",
      "CVE-2026-2222",
    ]);
    expect(page.body.totalCount).toBe("3");
    const next = await anonymous()<Json>(
      "GET",
      `/advisory/v2beta1/metadata?ids=CVE-2026-3333&ids=CVE-2026-2222&ids=CVE-2026-1111&page_size=2&page_token=${page.body.nextPageToken}`,
    );
    expect((next.body.vulnerabilityMetadata as Json[]).map((m) => m.id)).toEqual(["CVE-2026-3333"]);
    const unknown = await anonymous()<Json>("GET", "/advisory/v2beta1/metadata?id=CVE-1999-0001");
    expect(unknown.body.vulnerabilityMetadata).toEqual([]);
  });

  it("refuses more than 1000 ids", async () => {
    const query = Array.from({ length: 1001 }, (_, i) => `ids=${i}`).join("&");
    const reply = await anonymous()("GET", `/advisory/v2beta1/metadata?${query}`);
    expect(failure(reply)).toEqual([400, expect.stringContaining("ids")]);
  });
});

describe("resolved vulnerabilities", () => {
  const path = (query: string) => `/advisory/v2beta1/images/resolvedVulns?${query}`;
  const range = "start_time=2026-03-01T00:00:00Z&end_time=2026-03-03T00:00:00Z";

  it("answers one report a day, with the vulnerabilities resolved that day on the tags", async () => {
    const reply = await o.call<Json>("GET", path(`image_refs.repo=resolved-image&${range}`));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.resolvedVulnsReports).toEqual([
      { date: "2026-03-01T00:00:00.000Z", resolvedVulns: [] },
      {
        date: "2026-03-02T00:00:00.000Z",
        resolvedVulns: [
          {
            id: "CGA-aaaa-bbbb-cccc",
            aliases: ["CVE-2026-1111"],
            cvssSeverities: [{ type: "TYPE_CVSS_V3", score: "9.8" }],
          },
        ],
      },
      { date: "2026-03-03T00:00:00.000Z", resolvedVulns: [] },
    ]);
    const tagged = await o.call<Json>(
      "GET",
      path(`image_refs.repo=${repo}&image_refs.tags=1.0&${range}`),
    );
    const days = tagged.body.resolvedVulnsReports as Array<{ resolvedVulns: Json[] }>;
    expect(days[0].resolvedVulns.map((v) => v.id)).toEqual(["CGA-dddd-eeee-ffff"]);
    expect(days[1].resolvedVulns).toEqual([]);
  });

  it.each([
    [range, "image_refs"],
    ["image_refs.repo=resolved-image&end_time=2026-03-03T00:00:00Z", "start_time"],
    [
      "image_refs.repo=resolved-image&start_time=2026-03-03T00:00:00Z&end_time=2026-03-01T00:00:00Z",
      "end_time",
    ],
    [
      "image_refs.repo=resolved-image&start_time=2020-01-01T00:00:00Z&end_time=2026-03-01T00:00:00Z",
      "end_time",
    ],
  ])("refuses %s naming %s", async (query, field) => {
    const reply = await o.call("GET", path(query));
    expect(failure(reply)).toEqual([400, expect.stringContaining(`${field}:`)]);
  });

  it("needs a token, and the four capabilities on the repo", async () => {
    const query = `image_refs.repo=resolved-image&${range}`;
    expect((await anonymous()("GET", path(query))).status).toBe(401);
    const partial = await o.actorWith(emu.rootGroupUid, ["CAP_REPO_LIST", "CAP_TAG_LIST"]);
    const empty = await partial.call<Json>("GET", path(query));
    expect(empty.status).toBe(200);
    expect(
      (empty.body.resolvedVulnsReports as Array<{ resolvedVulns: Json[] }>).every(
        (d) => d.resolvedVulns.length === 0,
      ),
    ).toBe(true);
    const full = await o.actorWith(emu.rootGroupUid, [
      "CAP_APK_LIST",
      "CAP_REPO_LIST",
      "CAP_MANIFEST_METADATA_LIST",
      "CAP_TAG_LIST",
    ]);
    const seen = await full.call<Json>("GET", path(query));
    expect(
      (seen.body.resolvedVulnsReports as Array<{ resolvedVulns: Json[] }>)[1].resolvedVulns,
    ).toHaveLength(1);
  });
});
