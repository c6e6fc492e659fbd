/**
 * Setting each logged request against the resource it was for (the per-resource rows
 * of the operations benchmark), judging it against the floor, and looking for values
 * that must never be written.
 */
import { describe, expect, it } from "vitest";
import {
  attributeRequests,
  collectionOfType,
  judge,
  leaksIn,
  outsideSecrets,
  type StepRef,
  updateMaskOf,
} from "../../bench/lib/attribution";
import type { LogEntry } from "../../harness/emulator";
import type { StateResource } from "../../harness/stack";
import { PROVIDER_RESOURCE_TYPES } from "../../provider/kinds";

const ROOT = "a".repeat(40);
const TEAM = `${ROOT}/1111111111111111`;
const TYPE = (kind: string) => `pulumi-nodejs:dynamic/irm:${kind}`;
const URN = (name: string, kind: string) => `urn:pulumi:dev::operations::${TYPE(kind)}::${name}`;

function resource(name: string, kind: string, id: string, inputs: Record<string, unknown>) {
  return {
    urn: URN(name, kind),
    name,
    type: TYPE(kind),
    id,
    inputs,
    outputs: {},
    protect: false,
    retainOnDelete: false,
    dependencies: [],
  } satisfies StateResource;
}

let seq = 0;
function request(method: string, path: string, query = "", status = 200): LogEntry {
  seq += 1;
  return { seq, method, path, query, status, time: "2026-11-22T18:00:00.000Z" };
}

const team = resource("team", "Group", TEAM, { parentUid: ROOT });
const ci = resource("ci", "Identity", `${TEAM}/2222222222222222`, { parentUid: TEAM });
const signer = resource("signer", "Identity", `${TEAM}/3333333333333333`, { parentUid: TEAM });
const accounts = resource("accounts", "AccountAssociation", TEAM, { groupUid: TEAM });
const oldInvite = resource("invite", "GroupInvite", `${TEAM}/4444444444444444`, { groupUid: TEAM });
const newInvite = { ...oldInvite, id: `${TEAM}/5555555555555555` };
const step = (op: string, r: StateResource): StepRef => ({ op, urn: r.urn });
const names = (entries: LogEntry[] | undefined) =>
  (entries ?? []).map((entry) => `${entry.method} ${entry.seq}`);

describe("which resource a request was for", () => {
  it("maps every type of the package to its collection", () => {
    expect(PROVIDER_RESOURCE_TYPES.map((kind) => collectionOfType(TYPE(kind)))).toEqual([
      "groups",
      "identities",
      "roleBindings",
      "roles",
      "identityProviders",
      "groupInvites",
      "accountAssociations",
      "externalGroupRoleMappings",
      "repos",
      "subscriptions",
    ]);
    expect(collectionOfType("pulumi-nodejs:dynamic/irm-noop:Group")).toBeUndefined();
  });

  it("gives creates under one parent to the created resources in the order of their steps", () => {
    seq = 0;
    const requests = [
      request("POST", `/iam/v2beta1/groups/${ROOT}`),
      request("POST", `/iam/v2beta1/identities/${TEAM}`),
      request("POST", `/iam/v2beta1/identities/${TEAM}`),
      request("POST", `/iam/v2beta1/accountAssociations/${TEAM}`),
      request("GET", "/iam/v2beta1/roles/ffffffffffffffffffffffffffffffffffffffff"),
      request("GET", "/iam/v2beta1/identities", `uidp.children_of=${TEAM}`),
    ];
    const steps = [team, signer, ci, accounts].map((r) => step("create", r));
    const { byName, unattributed } = attributeRequests(
      requests,
      [],
      [team, ci, signer, accounts],
      steps,
    );
    expect(names(byName.get("team"))).toEqual(["POST 1"]);
    // `signer` started first, so the first POST under the team is its own.
    expect(names(byName.get("signer"))).toEqual(["POST 2"]);
    expect(names(byName.get("ci"))).toEqual(["POST 3"]);
    expect(names(byName.get("accounts"))).toEqual(["POST 4"]);
    // A role outside the stack and a listing belong to no resource.
    expect(unattributed.map((entry) => entry.seq)).toEqual([5, 6]);
  });

  it("gives reads, updates and deletes to the resource whose uid the path names, the old half of a replacement included", () => {
    seq = 0;
    const encoded = encodeURIComponent(ci.id);
    const requests = [
      request("PATCH", `/iam/v2beta1/identities/${encoded}`, "updateMask=description"),
      request("POST", `/iam/v2beta1/groupInvites/${TEAM}`),
      request("DELETE", `/iam/v2beta1/groupInvites/${oldInvite.id}`),
      request("PATCH", `/iam/v2beta1/accountAssociations/${TEAM}`, "updateMask=amazon"),
      request("GET", `/iam/v2beta1/groups/${TEAM}`),
      // A POST with no create left to take it is not guessed at: the replacement's two
      // steps made one create.
      request("POST", `/iam/v2beta1/identities/${TEAM}`),
      request("POST", `/iam/v2beta1/groupInvites/${TEAM}`),
    ];
    const { byName, unattributed } = attributeRequests(
      requests,
      [team, ci, accounts, oldInvite],
      [team, ci, accounts, newInvite],
      // The real engine's steps of a replacement: the new half, the marker, the old half.
      [
        step("update", ci),
        step("create-replacement", newInvite),
        step("replace", newInvite),
        step("delete-replaced", oldInvite),
      ],
    );
    expect(names(byName.get("ci"))).toEqual(["PATCH 1"]);
    expect(names(byName.get("invite"))).toEqual(["POST 2", "DELETE 3"]);
    expect(names(byName.get("accounts"))).toEqual(["PATCH 4"]);
    expect(names(byName.get("team"))).toEqual(["GET 5"]);
    expect(unattributed.map((entry) => entry.seq)).toEqual([6, 7]);
  });
});

describe("a resource's requests against its floor", () => {
  it("reads the update mask in either spelling, comma-separated or repeated", () => {
    seq = 0;
    expect(updateMaskOf(request("PATCH", "/x", "updateMask=name%2Cdescription"))).toEqual([
      "description",
      "name",
    ]);
    expect(updateMaskOf(request("PATCH", "/x", "update_mask=b&update_mask=a"))).toEqual(["a", "b"]);
    expect(updateMaskOf(request("PATCH", "/x"))).toEqual([]);
  });

  it("meets the floor only with the same methods and exactly the expected mask", () => {
    seq = 0;
    const patch = (query: string) =>
      request("PATCH", `/iam/v2beta1/roles/${"b".repeat(40)}`, query);
    expect(
      judge([patch("updateMask=name,capabilities")], {
        methods: ["PATCH"],
        mask: ["capabilities", "name"],
      }),
    ).toEqual({ met: true, differences: [] });
    expect(
      judge([patch("updateMask=name,capabilities,description")], {
        methods: ["PATCH"],
        mask: ["capabilities", "name"],
      }),
    ).toEqual({
      met: false,
      differences: ["mask capabilities,description,name where it should be capabilities,name"],
    });
    expect(judge([patch("")], { methods: ["PATCH"], mask: ["name"] }).differences).toEqual([
      "mask (none) where it should be name",
    ]);
    const replaced = [request("POST", "/p"), request("DELETE", "/d")];
    expect(judge(replaced, { methods: ["POST", "DELETE"] }).met).toBe(true);
    expect(judge([request("GET", "/g"), ...replaced], { methods: ["DELETE", "POST"] })).toEqual({
      met: false,
      differences: ["sent DELETE + GET + POST where the floor is DELETE + POST"],
    });
    expect(judge([], { methods: ["POST"] }).differences).toEqual([
      "sent nothing where the floor is POST",
    ]);
    expect(judge([request("GET", "/g")], { methods: [] }).differences).toEqual([
      "sent GET where the floor is nothing",
    ]);
    expect(judge([request("DELETE", "/d", "", 404)], { methods: ["DELETE"] })).toEqual({
      met: false,
      differences: ["1 answered 404"],
    });
  });

  it("names where a secret appeared and what it is, never the secret", () => {
    const places = {
      "request log": [{ path: "/iam/v2beta1/identityProviders/x", query: "" }],
      results: { rows: [{ detail: "s3cr3t-value was here" }], "code-42": 1 },
      page: "plain text with s3cr3t-value",
    };
    const found = leaksIn(
      { "the client secret": "s3cr3t-value", "invite code 1": "code-42", empty: "" },
      places,
    );
    expect(found).toEqual([
      "results: the client secret at .rows[0].detail",
      "results: invite code 1 at .code-42 (key)",
      "page: the client secret at .",
    ]);
    expect(found.join("\n")).not.toContain("s3cr3t-value");
    expect(leaksIn({ other: "another" }, places)).toEqual([]);
  });

  it("looks past Pulumi secrets: a value in its secret envelope is kept as a secret", () => {
    const envelope = (plaintext: string) => ({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      plaintext: JSON.stringify(plaintext),
    });
    const exported = [
      {
        inputs: { clientSecret: envelope("s3cr3t-value") },
        outputs: { code: envelope("code-42") },
      },
      { outputs: { description: "not secret", leaked: "code-42" } },
    ];
    expect(outsideSecrets(exported)).toEqual([
      { inputs: { clientSecret: "[secret]" }, outputs: { code: "[secret]" } },
      { outputs: { description: "not secret", leaked: "code-42" } },
    ]);
    expect(
      leaksIn(
        { "the client secret": "s3cr3t-value", "invite code 1": "code-42" },
        {
          checkpoint: outsideSecrets(exported),
        },
      ),
    ).toEqual(["checkpoint: invite code 1 at [1].outputs.leaked"]);
  });
});
