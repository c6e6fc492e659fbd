/**
 * The images of a repo (`ImagesService` at HEAD): architectures and sizes of a digest,
 * as seeded on a tag (the emulator holds no manifests), followed by a tag created later
 * with the same digest; the capabilities, and NOT_FOUND for an image the repo lacks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { caller } from "../support/emulator-http";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let repo: string;
let bare: string;
const digest = `sha256:${"a".repeat(64)}`;
const unrecorded = `sha256:${"b".repeat(64)}`;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  [repo, bare] = (
    await emu.seed({
      repos: [
        {
          parentUid: emu.rootGroupUid,
          name: "imaged",
          tags: [
            {
              name: "latest",
              digest,
              images: [
                { architecture: "linux/amd64", size: 1000 },
                { architecture: "linux/arm64", size: 900 },
              ],
            },
            { name: "plain", digest: unrecorded },
          ],
        },
        {
          parentUid: emu.rootGroupUid,
          name: "public-imaged",
          public: true,
          tags: [{ name: "v1", digest, images: [{ architecture: "linux/amd64", size: 5 }] }],
        },
      ],
    })
  ).repos;
});

const image = (repoUid: string, d: string, what: string) =>
  `/registry/v2beta1/repos/${repoUid}/digests/${d}/${what}`;

describe("architectures and size", () => {
  it("answers the seeded platforms and each one's size", async () => {
    const arch = await o.call<Json>("GET", image(repo, digest, "architectures"));
    expect(arch.status, arch.text).toBe(200);
    expect(arch.body).toEqual({ architectures: ["linux/amd64", "linux/arm64"] });
    const size = await o.call<Json>(
      "GET",
      `${image(repo, digest, "size")}?architecture=linux/arm64`,
    );
    expect(size.body).toEqual({ size: "900", architecture: "linux/arm64" });
    const first = await o.call<Json>("GET", image(repo, digest, "size"));
    expect(first.body).toEqual({ size: "1000", architecture: "linux/amd64" });
    const other = await o.call("GET", `${image(repo, digest, "size")}?architecture=linux/s390x`);
    expect(failure(other)[0]).toBe(404);
  });

  it("a digest with nothing recorded has no architectures and no size", async () => {
    const arch = await o.call<Json>("GET", image(repo, unrecorded, "architectures"));
    expect(arch.body).toEqual({ architectures: [] });
    expect(failure(await o.call("GET", image(repo, unrecorded, "size")))[0]).toBe(404);
  });

  it("a digest no tag of the repo names is NOT_FOUND; a malformed one INVALID_ARGUMENT", async () => {
    const missing = await o.call("GET", image(repo, `sha256:${"c".repeat(64)}`, "architectures"));
    expect(failure(missing)[0]).toBe(404);
    const bad = await o.call("GET", image(repo, "latest", "architectures"));
    expect(failure(bad)).toEqual([400, expect.stringContaining("digest")]);
  });

  it("a tag created later on the same digest shares its platforms", async () => {
    const [fresh] = (
      await emu.seed({
        repos: [
          {
            parentUid: emu.rootGroupUid,
            name: "moved",
            tags: [{ name: "a", digest, images: [{ architecture: "linux/riscv64", size: 7 }] }],
          },
        ],
      })
    ).repos;
    const made = await o.call<Json>("POST", `/registry/v2beta1/tags/${fresh}`, {
      body: { name: "b", digest },
    });
    expect(made.status, made.text).toBe(200);
    const listed = await o.call<{ tags: Json[] }>(
      "GET",
      `/registry/v2beta1/tags?uidp.children_of=${fresh}`,
    );
    const seeded = listed.body.tags.find((tag) => tag.name === "a");
    expect((await o.call("DELETE", `/registry/v2beta1/tags/${seeded?.uid}`)).status).toBe(200);
    const arch = await o.call<Json>("GET", image(fresh, digest, "architectures"));
    expect(arch.body).toEqual({ architectures: ["linux/riscv64"] });
  });
});

describe("capabilities", () => {
  it("needs CAP_REPO_LIST and CAP_MANIFEST_METADATA_LIST; a public repo is read by anyone", async () => {
    const listOnly = await o.actorWith(emu.rootGroupUid, ["CAP_REPO_LIST"]);
    const refused = await listOnly.call("GET", image(repo, digest, "architectures"));
    expect(failure(refused)).toEqual([403, expect.stringContaining("CAP_MANIFEST_METADATA_LIST")]);
    const both = await o.actorWith(emu.rootGroupUid, [
      "CAP_REPO_LIST",
      "CAP_MANIFEST_METADATA_LIST",
    ]);
    expect((await both.call("GET", image(repo, digest, "architectures"))).status).toBe(200);
    const anonymous = caller(emu.url, null);
    expect((await anonymous("GET", image(bare, digest, "architectures"))).status).toBe(200);
    expect((await anonymous("GET", image(repo, digest, "architectures"))).status).toBe(401);
  });
});

describe("a tag moved by the v1 registry's PUT", () => {
  it("takes the platforms of its new digest, not those of the image it left", async () => {
    const moved = `sha256:${"c".repeat(64)}`;
    const [holder] = (
      await emu.seed({
        repos: [
          {
            parentUid: emu.rootGroupUid,
            name: "moving",
            tags: [{ name: "edge", digest, images: [{ architecture: "linux/amd64", size: 7 }] }],
          },
        ],
      })
    ).repos;
    const listed = await o.call<{ items: Json[] }>(
      "GET",
      `/registry/v1/tags?uidp.children_of=${holder}`,
    );
    const id = String(listed.body.items[0]?.id);
    const put = await o.call("PUT", `/registry/v1/tags/${id}`, {
      body: { id, name: "edge", digest: moved, deprecated: false },
    });
    expect(put.status, put.text).toBe(200);
    const arch = await o.call<Json>("GET", image(holder, moved, "architectures"));
    expect(arch.status, arch.text).toBe(200);
    expect(arch.body).toEqual({ architectures: [] });
  });
});
