/**
 * The SDK's v1 registry writes (`client.v1.repos`, `client.v1.tags`), the calls the
 * platform's tools make: one request each, bad input refused before any request, and
 * every answer checked for shape.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  AlreadyExistsError,
  BadResponseError,
  IrmClient,
  NotFoundError,
  OutcomeUnknownError,
} from "../../sdk";
import { rejection, useFakeApi } from "../support/fake-api";
import { clientFor, closeClients, requestLines } from "../support/sdk-helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(() => emu.clearRequests());

const DIGEST = `sha256:${"c".repeat(64)}`;
const DIGEST_2 = `sha256:${"d".repeat(64)}`;

describe("v1 registry writes on the emulator", () => {
  it("repos: create with a README, update whole, delete; one request each", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "sdk-v1" });
    await emu.clearRequests();
    const made = await client.v1.repos.create(group.uid, {
      name: "tools",
      catalogTier: "BASE",
      aliases: ["kit"],
      readme: "# Tools",
    });
    expect(made).toMatchObject({ name: "tools", catalogTier: "BASE", readme: "# Tools" });
    await expect(
      client.v1.repos.create(group.uid, { name: "tools" }, { preventExisting: true }),
    ).rejects.toBeInstanceOf(AlreadyExistsError);
    const updated = await client.v1.repos.update(made.id, { name: "tools", description: "d" });
    expect(updated).toMatchObject({ id: made.id, description: "d", aliases: [], readme: "" });
    await client.v1.repos.delete(made.id);
    expect(await rejection(client.registry.repos.get(made.id))).toBeInstanceOf(NotFoundError);
    expect(await requestLines(emu)).toEqual([
      `POST /registry/v1/repos/${group.uid} -> 200`,
      `POST /registry/v1/repos/${group.uid}?prevent_existing=true -> 409`,
      `PUT /registry/v1/repos/${made.id} -> 200`,
      `DELETE /registry/v1/repos/${made.id} -> 200`,
      `GET /registry/v2beta1/repos/${made.id} -> 404`,
    ]);
  });

  it("tags: create, list, update whole, delete; one request each", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "sdk-v1-tags" });
    const repo = await client.registry.repos.create(group.uid, { name: "app" });
    await emu.clearRequests();
    const tag = await client.v1.tags.create(repo.uid, { name: "latest", digest: DIGEST });
    expect(tag).toMatchObject({ name: "latest", digest: DIGEST, deprecated: false, bundles: [] });
    expect((await client.v1.tags.list({ childrenOf: repo.uid })).items).toEqual([tag]);
    const moved = await client.v1.tags.update(tag.id, {
      name: "latest",
      digest: DIGEST_2,
      deprecated: true,
    });
    expect(moved).toMatchObject({ id: tag.id, digest: DIGEST_2, deprecated: true });
    await client.v1.tags.delete(tag.id);
    expect((await client.v1.tags.list({ id: tag.id })).items).toEqual([]);
    expect(await requestLines(emu)).toEqual([
      `POST /registry/v1/tags/${repo.uid} -> 200`,
      `GET /registry/v1/tags?uidp.children_of=${encodeURIComponent(repo.uid)} -> 200`,
      `PUT /registry/v1/tags/${tag.id} -> 200`,
      `DELETE /registry/v1/tags/${tag.id} -> 200`,
      `GET /registry/v1/tags?id=${encodeURIComponent(tag.id)} -> 200`,
    ]);
  });

  it("bad input names the field and sends nothing", async () => {
    const { client } = clientFor(emu);
    const parent = emu.rootGroupUid;
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => client.v1.repos.create(parent, { name: "" }), "repo.name"],
      [
        () => client.v1.repos.create(parent, { name: "x", catalogTier: "GOLD" as "BASE" }),
        "repo.catalogTier",
      ],
      [
        () => client.v1.repos.create(parent, { name: "x", aliases: [1] as unknown as string[] }),
        "repo.aliases",
      ],
      [() => client.v1.repos.create("", { name: "x" }), "parentId"],
      [() => client.v1.tags.create(parent, { name: "v1", digest: "" }), "tag.digest"],
      [() => client.v1.tags.update("a/../b", { name: "v1", digest: DIGEST }), "id"],
    ];
    for (const [call, field] of cases) {
      const error = await rejection(call());
      expect(String(error.message), field).toContain(field);
    }
    expect(await requestLines(emu)).toEqual([]);
  });
});

describe("v1 registry answers checked for shape", () => {
  let answer: unknown = {};
  const api = useFakeApi((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  });
  const client = () =>
    new IrmClient({ baseUrl: api.url, token: "t", env: {}, retry: { retries: 0 } });
  const group = "a".repeat(40);
  const repo = `${group}/${"b".repeat(16)}`;

  it("a created repo or tag not directly under its parent is an OutcomeUnknownError", async () => {
    answer = { id: `${"d".repeat(40)}/${"b".repeat(16)}`, name: "x" };
    expect(await rejection(client().v1.repos.create(group, { name: "x" }))).toBeInstanceOf(
      OutcomeUnknownError,
    );
    answer = { id: `${repo}/${"e".repeat(16)}/${"f".repeat(16)}`, name: "v1", digest: DIGEST };
    expect(
      await rejection(client().v1.tags.create(repo, { name: "v1", digest: DIGEST })),
    ).toBeInstanceOf(OutcomeUnknownError);
  });

  it("an answer of the wrong shape or size is a BadResponseError naming the field", async () => {
    const cases: Array<[unknown, () => Promise<unknown>, string]> = [
      [
        { id: repo, name: "x", catalogTier: "GOLD" },
        () => client().v1.repos.update(repo, { name: "x" }),
        "repo.catalogTier",
      ],
      [
        { id: repo, name: "x", aliases: "kit" },
        () => client().v1.repos.update(repo, { name: "x" }),
        "repo.aliases",
      ],
      [
        { id: repo, name: "x", readme: "x".repeat(1_048_577) },
        () => client().v1.repos.update(repo, { name: "x" }),
        "repo.readme",
      ],
      [
        { id: `${group}/${"c".repeat(16)}`, name: "x" },
        () => client().v1.repos.update(repo, { name: "x" }),
        "repo.id",
      ],
      [{ items: [{ id: 7, name: "v1" }] }, () => client().v1.tags.list(), "list.items[0].id"],
      [{ items: {} }, () => client().v1.tags.list(), "list.items"],
      [
        { items: Array.from({ length: 10_001 }, () => ({ id: repo, name: "v1" })) },
        () => client().v1.tags.list(),
        "list.items: more than 10000 items",
      ],
      [
        { id: repo, name: "x", aliases: Array.from({ length: 10_001 }, () => "a") },
        () => client().v1.repos.update(repo, { name: "x" }),
        "repo.aliases: more than 10000 items",
      ],
      [{ items: [7] }, () => client().v1.groups.list(), "list.items[0]"],
      [
        { items: Array.from({ length: 10_001 }, () => ({})) },
        () => client().v1.groups.list(),
        "list.items: more than 10000 items",
      ],
      [
        { id: `${repo}/${"e".repeat(16)}`, name: "v1", bundles: [3] },
        () => client().v1.tags.update(`${repo}/${"e".repeat(16)}`, { name: "v1", digest: DIGEST }),
        "tag.bundles",
      ],
    ];
    for (const [bad, call, field] of cases) {
      answer = bad;
      const error = await rejection(call());
      expect(error, field).toBeInstanceOf(BadResponseError);
      expect(error.message, field).toContain(field);
    }
  });
});
