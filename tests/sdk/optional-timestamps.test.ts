/**
 * Optional timestamps of answers (`lastSeenTime` of an identity, `updateTime` of a role
 * binding): kept when the answer carries one, left unset when it is absent or `""`,
 * refused with the field named when it is not a timestamp.
 */
import { describe, expect, it } from "vitest";
import { ShapeError } from "../../sdk/core/shape";
import { decodeIdentity } from "../../sdk/resources/identities";
import { decodeRoleBinding } from "../../sdk/resources/role-bindings";

const GROUP = "a".repeat(40);
const TIME = "2026-11-22T10:00:00.000Z";
const LATER = "2026-11-23T08:30:00.000Z";

function identity(extra: Record<string, unknown>) {
  return {
    uid: `${GROUP}/0123456789abcdef`,
    name: "ci",
    servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    createTime: TIME,
    updateTime: TIME,
    ...extra,
  };
}

function binding(extra: Record<string, unknown>) {
  const ref = (uid: string) => ({ uid, name: "n", description: "" });
  return {
    uid: `${GROUP}/fedcba9876543210`,
    identity: ref(`${GROUP}/0123456789abcdef`),
    group: ref(GROUP),
    role: ref("b".repeat(40)),
    createTime: TIME,
    ...extra,
  };
}

describe("optional timestamps of answers", () => {
  it("keeps the timestamp an answer carries", () => {
    expect(decodeIdentity(identity({ lastSeenTime: LATER })).lastSeenTime).toBe(LATER);
    expect(decodeRoleBinding(binding({ updateTime: LATER })).updateTime).toBe(LATER);
  });

  it("leaves the member out when the answer has none, null or an empty string", () => {
    for (const value of [undefined, null, ""]) {
      expect(decodeIdentity(identity({ lastSeenTime: value }))).not.toHaveProperty("lastSeenTime");
      expect(decodeRoleBinding(binding({ updateTime: value }))).not.toHaveProperty("updateTime");
    }
  });

  it("refuses what is not a timestamp, naming the field", () => {
    expect(() => decodeIdentity(identity({ lastSeenTime: "yesterday" }))).toThrow(
      new ShapeError("identity.lastSeenTime", 'not a timestamp: "yesterday"'),
    );
    expect(() => decodeRoleBinding(binding({ updateTime: 7 }))).toThrow(
      /roleBinding\.updateTime: expected a string, got a number/,
    );
  });
});
