/**
 * Chainguard Libraries request groups (`libraries.v2beta1.RequestGroupsService` at HEAD):
 * a draft made from a pinned input and checked against the seeded artifacts, its items,
 * removal and restore, submit, rename, delete (a tombstone), coverage refresh, the
 * requested libraries aggregated over submitted groups, the capabilities, and the saved
 * state.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";
import { acrossRestart } from "../support/restart";

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
        versions: [{ version: "2.32.3", createTime: "2026-02-01T00:00:00Z" }],
      },
    ],
  });
});

const path = (suffix = "") => `/libraries/v2beta1/requestGroups${suffix}`;
const REQUIREMENTS = "# pinned\nrequests==2.32.3\nPyYAML==6.0.1\nnot a requirement\n";

async function draft(parent: string, body: Json = {}): Promise<Json> {
  const reply = await o.call<Json>("POST", path(`/${parent}`), {
    body: {
      content: REQUIREMENTS,
      format: "INPUT_FORMAT_REQUIREMENTS_TXT",
      filename: "requirements.txt",
      ...body,
    },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function items(uid: unknown, query = ""): Promise<Json[]> {
  const reply = await o.call<Json>("GET", path(`/${uid}/items${query}`));
  expect(reply.status, reply.text).toBe(200);
  return reply.body.requestGroupItems as Json[];
}

describe("create and items", () => {
  it("parses the input into a completed draft, each item checked against the artifacts", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await draft(group, { name: "lockfile" });
    expect(made).toMatchObject({
      uid: expect.stringMatching(new RegExp(`^${group}/[0-9a-f]{16}$`)),
      parentId: group,
      name: "lockfile",
      status: "REQUEST_GROUP_STATUS_COMPLETED",
      ecosystem: "ECOSYSTEM_PYTHON",
      source: "REQUEST_SOURCE_API",
      input: {
        filename: "requirements.txt",
        format: "INPUT_FORMAT_REQUIREMENTS_TXT",
        itemCount: 3,
      },
      availabilitySummary: {
        built: 1,
        canBeRequested: 1,
        invalidRequirement: 1,
        blockingSubmit: 1,
      },
    });
    expect(made.submitTime).toBeUndefined();
    const listed = await items(made.uid);
    expect(listed.map((i) => [i.packageName, i.version, i.availability])).toEqual(
      expect.arrayContaining([
        ["requests", "2.32.3", "AVAILABILITY_BUILT"],
        ["pyyaml", "6.0.1", "AVAILABILITY_CAN_BE_REQUESTED"],
        ["", "", "AVAILABILITY_INVALID_REQUIREMENT"],
      ]),
    );
    expect((await o.call<Json>("GET", path(`/${made.uid}`))).body).toEqual(made);
  });

  it("answers the same draft for the same input (idempotent on the content hash)", async () => {
    const group = await o.group(emu.rootGroupUid);
    const first = await draft(group);
    const again = await draft(group);
    expect(again.uid).toBe(first.uid);
  });

  it("takes requirement lines, and a Maven GAV list", async () => {
    const group = await o.group(emu.rootGroupUid);
    const lines = await o.call<Json>("POST", path(`/${group}`), {
      body: { items: ["org.yaml:snakeyaml:2.2"] },
    });
    expect(lines.body).toMatchObject({ ecosystem: "ECOSYSTEM_JAVA" });
    const gav = await o.call<Json>("POST", path(`/${group}`), {
      body: {
        content: "com.google.guava:guava:jar:33.0.0-jre\n",
        format: "INPUT_FORMAT_MAVEN_GAV_LIST",
      },
    });
    expect((await items(gav.body.uid))[0]).toMatchObject({
      packageName: "com.google.guava:guava",
      version: "33.0.0-jre",
    });
  });

  it.each([
    [{}, "content"],
    [{ content: "a==1" }, "format"],
    [{ content: "a==1", items: ["a==1"], format: "INPUT_FORMAT_REQUIREMENTS_TXT" }, "items"],
    [{ content: "a==1", format: "INPUT_FORMAT_CONDA" }, "format"],
    [{ items: ["a==1"], name: "Bad Name!" }, "name"],
    [{ items: ["a==1", "org:b:1"] }, "items"],
  ])("refuses %j naming %s, making nothing", async (body, field) => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call("POST", path(`/${group}`), { body });
    expect(failure(reply)).toEqual([400, expect.stringContaining(`${field}:`)]);
    const listed = await o.call<Json>(
      "GET",
      path(`?parent=${group}&state=REQUEST_GROUP_STATE_ALL`),
    );
    expect(listed.body.requestGroups).toEqual([]);
  });
});

describe("the draft's life", () => {
  it("blocks submit until unrequestable items are removed; restore undoes a removal", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await draft(group, { name: "life" });
    const blocked = await o.call("POST", path(`/${made.uid}:submit`), { body: {} });
    expect(failure(blocked)).toEqual([400, expect.stringContaining("cannot be requested")]);
    const invalid = (await items(made.uid)).find(
      (i) => i.availability === "AVAILABILITY_INVALID_REQUIREMENT",
    );
    const foreign = await o.call("POST", path(`/${made.uid}:removeItems`), {
      body: { itemUids: [invalid?.uid, `${made.uid}0`] },
    });
    expect(failure(foreign)).toEqual([400, expect.stringContaining("itemUids[1]")]);
    const removed = await o.call<Json>("POST", path(`/${made.uid}:removeItems`), {
      body: { itemUids: [invalid?.uid] },
    });
    expect(removed.body).toMatchObject({
      uid: made.uid,
      parentId: group,
      removedCount: 1,
      availabilitySummary: { removed: 1, blockingSubmit: 0 },
    });
    expect((await items(made.uid)).length).toBe(2);
    expect((await items(made.uid, "?include_removed=true")).length).toBe(3);
    const restored = await o.call<Json>("POST", path(`/${made.uid}:restoreItems`), {
      body: { itemUids: [invalid?.uid] },
    });
    expect(restored.body).toMatchObject({ restoredCount: 1 });
    await o.call("POST", path(`/${made.uid}:removeItems`), { body: { itemUids: [invalid?.uid] } });

    const renamed = await o.call<Json>("PATCH", path(`/${made.uid}?update_mask=name`), {
      body: { name: "renamed" },
    });
    expect(renamed.body.name).toBe("renamed");

    expect((await o.call<Json>("GET", path(`?parent=${group}`))).body.requestGroups).toEqual([]);
    const submitted = await o.call<Json>("POST", path(`/${made.uid}:submit`), {
      body: { forCveRemediation: true },
    });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({
      forCveRemediation: true,
      submittedBy: expect.any(String),
      submitTime: expect.any(String),
    });
    expect((await items(made.uid)).map((i) => i.availability).sort()).toEqual([
      "AVAILABILITY_BUILDING",
      "AVAILABILITY_BUILT",
    ]);
    const listed = await o.call<Json>("GET", path(`?parent=${group}`));
    expect((listed.body.requestGroups as Json[]).map((g) => g.uid)).toEqual([made.uid]);
    const again = await o.call("POST", path(`/${made.uid}:submit`), { body: {} });
    expect(failure(again)).toEqual([400, expect.stringContaining("not a draft")]);
    const late = await o.call("POST", path(`/${made.uid}:removeItems`), {
      body: { itemUids: [invalid?.uid] },
    });
    expect(failure(late)[0]).toBe(400);

    const libraries = await o.call<Json>(
      "GET",
      `/libraries/v2beta1/requestedLibraries?parent=${group}`,
    );
    expect(libraries.status, libraries.text).toBe(200);
    expect(
      (libraries.body.requestedLibraries as Json[]).map((l) => [l.name, l.buildStatus]),
    ).toEqual([
      ["pyyaml", "REQUESTED_LIBRARY_BUILD_STATUS_IN_PROGRESS"],
      ["requests", "REQUESTED_LIBRARY_BUILD_STATUS_COMPLETE"],
    ]);
    const versions = await o.call<Json>(
      "GET",
      `/libraries/v2beta1/requestedLibraries:versions?parent=${group}&name=requests&ecosystem=ECOSYSTEM_PYTHON`,
    );
    expect(versions.body.requestedLibraryVersions).toEqual([
      expect.objectContaining({
        version: "2.32.3",
        availability: "AVAILABILITY_BUILT",
        contributingGroups: [{ uid: made.uid, name: "renamed" }],
      }),
    ]);
  });

  it("a delete leaves a CANCELED tombstone; a submitted group needs DELETE_SUBMITTED", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await draft(group, {
      items: ["requests==2.32.3"],
      content: undefined,
      format: undefined,
    });
    expect((await o.call<Json>("DELETE", path(`/${made.uid}`))).body).toEqual({});
    const tombstone = await o.call<Json>("GET", path(`/${made.uid}`));
    expect(tombstone.body.status).toBe("REQUEST_GROUP_STATUS_CANCELED");
    expect(await items(made.uid)).toEqual([]);
    const all = await o.call<Json>("GET", path(`?parent=${group}&state=REQUEST_GROUP_STATE_ALL`));
    expect(all.body.requestGroups).toEqual([]);

    const empty = await o.group(emu.rootGroupUid);
    const gone = await draft(empty, {
      items: ["flask==3.0.0"],
      content: undefined,
      format: undefined,
    });
    const busy = await o.call("DELETE", `/iam/v2beta1/groups/${empty}`);
    expect(failure(busy)[1]).toContain("1 request group");
    await o.call("DELETE", path(`/${gone.uid}`));
    // A tombstone does not keep its group: the group's delete takes it along.
    expect((await o.call("DELETE", `/iam/v2beta1/groups/${empty}`)).status).toBe(200);
    expect(failure(await o.call("GET", path(`/${gone.uid}`)))[0]).toBe(404);

    const sent = await draft(group, {
      items: ["requests==2.32.3"],
      content: undefined,
      format: undefined,
      name: "sent",
    });
    await o.call("POST", path(`/${sent.uid}:submit`), { body: {} });
    const refused = await o.call("DELETE", path(`/${sent.uid}`));
    expect(failure(refused)).toEqual([
      403,
      expect.stringContaining("CAP_LIBRARIES_REQUEST_GROUPS_DELETE_SUBMITTED"),
    ]);
  });
});

describe("capabilities", () => {
  it("each call needs its own capability; RefreshCoverage an internal one no customer holds", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await draft(group);
    const reader = await o.actorWith(group, ["CAP_LIBRARIES_REQUEST_GROUPS_LIST"]);
    expect((await reader.call("GET", path(`/${made.uid}`))).status).toBe(200);
    const create = await reader.call("POST", path(`/${group}`), { body: { items: ["x==1"] } });
    expect(failure(create)).toEqual([
      403,
      expect.stringContaining("CAP_LIBRARIES_REQUEST_GROUPS_CREATE"),
    ]);
    const submit = await reader.call("POST", path(`/${made.uid}:submit`), { body: {} });
    expect(failure(submit)).toEqual([
      403,
      expect.stringContaining("CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT"),
    ]);
    const owner = await o.call("POST", path(`/${made.uid}:refreshCoverage`), { body: {} });
    expect(failure(owner)).toEqual([
      403,
      expect.stringContaining("CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE"),
    ]);
    // Chainguard-internal: no owner holds it, so no owner may grant it to anyone.
    const role = await o.role(group, ["CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE"]);
    const support = await o.identity(group);
    const grant = await o.call("POST", `/iam/v2beta1/roleBindings/${group}`, {
      body: { identityUid: support, roleUid: role },
    });
    expect(failure(grant)).toEqual([
      403,
      expect.stringContaining("CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE"),
    ]);
    const stranger = await o.actorWith(await o.group(emu.rootGroupUid), [
      "CAP_LIBRARIES_REQUEST_GROUPS_LIST",
    ]);
    expect(failure(await stranger.call("GET", path(`/${made.uid}`)))[0]).toBe(403);
  });
});

describe("saved state", () => {
  it("a group and its items survive a restart on the same data file", async () => {
    await acrossRestart(
      async (call, root) => {
        const reply = await call<Json>("POST", path(`/${root}`), {
          body: { items: ["requests==2.32.3"] },
        });
        expect(reply.status, reply.text).toBe(200);
        return reply.body;
      },
      async (call, made) => {
        expect((await call<Json>("GET", path(`/${made.uid}`))).body).toEqual(made);
        const kept = await call<Json>("GET", path(`/${made.uid}/items`));
        expect((kept.body.requestGroupItems as Json[]).length).toBe(1);
      },
    );
  });
});
