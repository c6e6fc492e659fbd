/**
 * The IAM colon actions HEAD publishes beyond the collections' verbs:
 * `roleBindings:batchCreate` (all or none), with the same checks, capabilities and
 * errors as a single create.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;
let editor: string;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
  editor = await o.builtIn("editor");
});

const BATCH = "/iam/v2beta1/roleBindings:batchCreate";
const bindingsOf = async (group: string) =>
  ((await o.call<Json>("GET", `/iam/v2beta1/roleBindings?uidp.children_of=${group}`)).body
    .roleBindings ?? []) as Json[];

describe("roleBindings:batchCreate", () => {
  it("makes every binding in one group, in the order asked, as single creates answer them", async () => {
    const group = await o.group(emu.rootGroupUid);
    const [a, b] = [await o.identity(group), await o.identity(group)];
    const reply = await o.call<Json>("POST", BATCH, {
      body: {
        parent: group,
        requests: [
          { roleBinding: { identityUid: a, roleUid: viewer } },
          { parent: group, roleBinding: { identityUid: b, roleUid: viewer } },
          { roleBinding: { identityUid: a, roleUid: editor } },
        ],
      },
    });
    expect(reply.status, reply.text).toBe(200);
    const made = reply.body.roleBindings as Json[];
    expect(made.map((m) => [(m.identity as Json).uid, (m.role as Json).uid])).toEqual([
      [a, viewer],
      [b, viewer],
      [a, editor],
    ]);
    for (const binding of made) {
      expect(binding.uid).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
      const got = await o.call<Json>("GET", `/iam/v2beta1/roleBindings/${binding.uid}`);
      expect(got.body).toEqual(binding);
    }
  });

  it("a batch roleUid is inherited by the requests that name none", async () => {
    const group = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const reply = await o.call<Json>("POST", BATCH, {
      body: { parent: group, roleUid: editor, requests: [{ roleBinding: { identityUid: who } }] },
    });
    expect(((reply.body.roleBindings as Json[])[0].role as Json).uid).toBe(editor);
  });

  it.each([
    [{ requests: [] }, "requests", "must hold 1 to 25 bindings"],
    [
      { requests: Array.from({ length: 26 }, () => ({ roleBinding: {} })) },
      "requests",
      "must hold 1 to 25 bindings",
    ],
    [
      { requests: [{ roleBinding: { roleUid: "v" } }] },
      "requests[0].roleBinding.identityUid",
      "is required",
    ],
    [
      { requests: [{ roleBinding: { identityUid: "x" } }] },
      "requests[0].roleBinding.roleUid",
      "is required",
    ],
  ])("refuses %j naming the field", async (body, field, rule) => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call("POST", BATCH, { body: { parent: group, ...body } });
    expect(failure(reply)).toEqual([400, `Invalid argument: ${field}: ${rule}`]);
  });

  it("a sub-request naming another parent or role is refused (AIP-233)", async () => {
    const group = await o.group(emu.rootGroupUid);
    const other = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const elsewhere = await o.call("POST", BATCH, {
      body: {
        parent: group,
        requests: [{ parent: other, roleBinding: { identityUid: who, roleUid: viewer } }],
      },
    });
    expect(failure(elsewhere)).toEqual([
      400,
      "Invalid argument: requests[0].parent: must be empty or the batch's parent",
    ]);
    const conflict = await o.call("POST", BATCH, {
      body: {
        parent: group,
        roleUid: viewer,
        requests: [{ roleBinding: { identityUid: who, roleUid: editor } }],
      },
    });
    expect(failure(conflict)).toEqual([
      400,
      "Invalid argument: requests[0].roleBinding.roleUid: differs from the batch's roleUid",
    ]);
  });

  it("all or none: one failing binding leaves the group without any", async () => {
    const group = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const missing = `${group}/0123456789abcdef`;
    const reply = await o.call("POST", BATCH, {
      body: {
        parent: group,
        roleUid: viewer,
        requests: [
          { roleBinding: { identityUid: who } },
          { roleBinding: { identityUid: missing } },
        ],
      },
    });
    expect(failure(reply)).toEqual([404, `Not found: ${missing}`]);
    expect(await bindingsOf(group)).toEqual([]);
    const twice = await o.call("POST", BATCH, {
      body: {
        parent: group,
        roleUid: viewer,
        requests: [{ roleBinding: { identityUid: who } }, { roleBinding: { identityUid: who } }],
      },
    });
    expect(failure(twice)).toEqual([
      400,
      "Invalid argument: requests[1]: binds the same identity and role as requests[0]",
    ]);
    expect(await bindingsOf(group)).toEqual([]);
    await o.bind(group, who, viewer);
    const existing = await o.call("POST", BATCH, {
      body: { parent: group, roleUid: viewer, requests: [{ roleBinding: { identityUid: who } }] },
    });
    expect(existing.status).toBe(409);
  });

  it("needs CAP_IAM_ROLE_BINDINGS_CREATE on the group and every capability of each role", async () => {
    const group = await o.group(emu.rootGroupUid);
    const who = await o.identity(group);
    const body = {
      parent: group,
      roleUid: viewer,
      requests: [{ roleBinding: { identityUid: who } }],
    };
    const reader = await o.actorWith(group, ["CAP_IAM_ROLE_BINDINGS_LIST"]);
    const before = (await bindingsOf(group)).length;
    const refused = await reader.call("POST", BATCH, { body });
    expect(failure(refused)[0]).toBe(403);
    expect(failure(refused)[1]).toContain("CAP_IAM_ROLE_BINDINGS_CREATE");
    const binder = await o.actorWith(group, [
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_IDENTITY_LIST",
    ]);
    const escalation = await binder.call("POST", BATCH, { body });
    expect(failure(escalation)[0]).toBe(403);
    // Only the two actors' own bindings: the batch made none.
    expect((await bindingsOf(group)).length).toBe(before + 1);
  });

  it("is POST only", async () => {
    const reply = await o.call<Json>("GET", BATCH);
    expect(reply.status).toBe(501);
  });
});
