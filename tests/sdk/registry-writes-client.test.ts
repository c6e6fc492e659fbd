/**
 * The SDK's registry writes: repos (create, update with a mask, delete), their README,
 * tags (create, delete), one request each, and answers checked for shape.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  AlreadyExistsError,
  BadResponseError,
  InvalidArgumentError,
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

describe("repos", () => {
  it("create, update with a mask, README, delete: one request each", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "sdk-registry" });
    await emu.clearRequests();
    const repo = await client.registry.repos.create(group.uid, {
      name: "api",
      catalogTier: "CATALOG_TIER_APPLICATION",
      aliases: ["backend"],
    });
    expect(repo).toMatchObject({ name: "api", aliases: ["backend"], description: "" });
    const updated = await client.registry.repos.update(
      repo.uid,
      { description: "the API" },
      { updateMask: ["description"] },
    );
    expect(updated).toMatchObject({ uid: repo.uid, description: "the API" });
    expect(await client.registry.repos.getReadme(repo.uid)).toEqual({
      uid: repo.uid,
      content: "",
    });
    expect(await client.registry.repos.updateReadme(repo.uid, "# API")).toEqual({
      uid: repo.uid,
      content: "# API",
    });
    await client.registry.repos.delete(repo.uid);
    expect(await requestLines(emu)).toEqual([
      `POST /registry/v2beta1/repos/${group.uid} -> 200`,
      `PATCH /registry/v2beta1/repos/${repo.uid}?updateMask=description -> 200`,
      `GET /registry/v2beta1/repos/${repo.uid}/readme -> 200`,
      `PATCH /registry/v2beta1/repos/${repo.uid}/readme?updateMask=content -> 200`,
      `DELETE /registry/v2beta1/repos/${repo.uid} -> 200`,
    ]);
    expect(await rejection(client.registry.repos.get(repo.uid))).toBeInstanceOf(NotFoundError);
  });

  it("surfaces the service's refusals as typed errors", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "sdk-registry-2" });
    await client.registry.repos.create(group.uid, { name: "dup" });
    expect(
      await rejection(client.registry.repos.create(group.uid, { name: "dup" })),
    ).toBeInstanceOf(AlreadyExistsError);
    const bad = await rejection(client.registry.repos.create(group.uid, { name: "Not OK" }));
    expect(bad).toBeInstanceOf(InvalidArgumentError);
    expect((bad as InvalidArgumentError).fieldViolations[0]?.field).toBe("name");
  });
});

describe("tags", () => {
  it("create under a repo, move by name, delete", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "sdk-tags" });
    const repo = await client.registry.repos.create(group.uid, { name: "img" });
    const tag = await client.registry.tags.create(repo.uid, { name: "latest", digest: DIGEST });
    expect(tag).toMatchObject({ name: "latest", digest: DIGEST, deprecated: false });
    const moved = await client.registry.tags.create(repo.uid, {
      name: "latest",
      digest: DIGEST,
      deprecated: true,
    });
    expect(moved).toMatchObject({ uid: tag.uid, deprecated: true });
    await client.registry.tags.delete(tag.uid);
    expect(await rejection(client.registry.tags.get(tag.uid))).toBeInstanceOf(NotFoundError);
  });
});

describe("answers checked for shape", () => {
  let answer: unknown = {};
  const api = useFakeApi((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  });
  const client = () =>
    new IrmClient({ baseUrl: api.url, token: "t", env: {}, retry: { retries: 0 } });
  const uid = `${"a".repeat(40)}/${"b".repeat(16)}`;

  it("a README of another repo, of the wrong type or too long is a BadResponseError", async () => {
    for (const bad of [
      { uid: `${"a".repeat(40)}/${"c".repeat(16)}`, content: "" },
      { uid, content: 7 },
      { uid, content: "x".repeat(1_048_577) },
      { content: "" },
    ]) {
      answer = bad;
      const error = await rejection(client().registry.repos.getReadme(uid));
      expect(error, JSON.stringify(bad).slice(0, 80)).toBeInstanceOf(BadResponseError);
      expect(error.message).toContain("repoReadme.");
    }
  });

  it("a created repo or tag not under its parent is an OutcomeUnknownError", async () => {
    answer = {
      uid: `${"d".repeat(40)}/${"b".repeat(16)}`,
      name: "x",
      createTime: "2026-01-01T00:00:00Z",
    };
    expect(
      await rejection(client().registry.repos.create("a".repeat(40), { name: "x" })),
    ).toBeInstanceOf(OutcomeUnknownError);
    expect(
      await rejection(client().registry.tags.create(uid, { name: "v1", digest: DIGEST })),
    ).toBeInstanceOf(OutcomeUnknownError);
  });
});
