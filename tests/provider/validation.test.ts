import { describe, expect, it } from "vitest";
import {
  checkGroupInputs,
  checkGroupInviteInputs,
  checkIdentityInputs,
  checkIdentityProviderInputs,
  checkRoleBindingInputs,
  MAX_LENGTH,
  UNKNOWN_VALUE,
} from "../../provider/checks";

const ROOT = "a".repeat(40);
const GROUP = `${ROOT}/${"1".repeat(16)}`;
const IDENTITY = `${GROUP}/${"2".repeat(16)}`;
const ROLE = "b".repeat(40);

function properties(failures: Array<{ property: string }>): string[] {
  return failures.map((f) => f.property).sort();
}

describe("check: Group", () => {
  it("accepts valid inputs and defaults the description to an empty string", () => {
    const result = checkGroupInputs({ parentUid: ROOT, name: "platform team" });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toEqual({ parentUid: ROOT, name: "platform team", description: "" });
  });

  it("names the property and the rule for a bad name", () => {
    const result = checkGroupInputs({ parentUid: ROOT, name: "Platform!" });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0].property).toBe("name");
    expect(result.failures[0].reason).toContain("^[a-z0-9 ._-]{1,}$");
    expect(result.failures[0].reason).toContain('"Platform!"');
  });

  it("reports every missing required field at once", () => {
    const result = checkGroupInputs({});
    expect(properties(result.failures)).toEqual(["name", "parentUid"]);
    expect(result.failures.every((f) => f.reason === "is required")).toBe(true);
  });

  it("rejects malformed parent uids and over-long values", () => {
    const result = checkGroupInputs({
      parentUid: `${ROOT}/xyz`,
      name: "n".repeat(MAX_LENGTH.name + 1),
      description: "d".repeat(MAX_LENGTH.description + 1),
    });
    expect(properties(result.failures)).toEqual(["description", "name", "parentUid"]);
    expect(result.failures.find((f) => f.property === "parentUid")?.reason).toMatch(/group uid/);
    expect(result.failures.find((f) => f.property === "name")?.reason).toMatch(/3 to 63/);
  });

  it("lets unknown values through during preview", () => {
    const result = checkGroupInputs({ parentUid: UNKNOWN_VALUE, name: UNKNOWN_VALUE });
    expect(result.failures).toEqual([]);
    expect(result.inputs.parentUid).toBe(UNKNOWN_VALUE);
  });

  it("requires adoptUid to be a direct child of parentUid", () => {
    const other = `${ROOT}/${"9".repeat(16)}/${"3".repeat(16)}`;
    const bad = checkGroupInputs({ parentUid: ROOT, name: "xyz", adoptUid: other });
    expect(bad.failures).toEqual([
      { property: "adoptUid", reason: expect.stringContaining("direct child of parentUid") },
    ]);
    const good = checkGroupInputs({ parentUid: ROOT, name: "xyz", adoptUid: GROUP });
    expect(good.failures).toEqual([]);
    expect(good.inputs.adoptUid).toBe(GROUP);
  });
});

describe("check: Identity", () => {
  const valid = {
    parentUid: GROUP,
    name: "ci deployer",
    claimMatch: { issuer: "https://token.actions.example.com", subject: "repo:x:ref:main" },
  };

  it("accepts https issuers and http on loopback only", () => {
    expect(checkIdentityInputs(valid).failures).toEqual([]);
    for (const issuer of [
      "http://127.0.0.1:8787/oidc",
      "http://localhost:1/x",
      "http://[::1]:9/",
    ]) {
      const result = checkIdentityInputs({ ...valid, claimMatch: { issuer, subject: "*" } });
      expect(result.failures, issuer).toEqual([]);
    }
    for (const issuer of ["http://issuer.example.com", "ftp://127.0.0.1/x", "not a url"]) {
      const result = checkIdentityInputs({ ...valid, claimMatch: { issuer, subject: "*" } });
      expect(properties(result.failures), issuer).toEqual(["claimMatch.issuer"]);
      expect(result.failures[0].reason).toMatch(/https/);
    }
  });

  it("requires claimMatch and its subject", () => {
    expect(properties(checkIdentityInputs({ ...valid, claimMatch: undefined }).failures)).toEqual([
      "claimMatch",
    ]);
    const noSubject = checkIdentityInputs({
      ...valid,
      claimMatch: { issuer: "https://i.example" },
    });
    expect(properties(noSubject.failures)).toEqual(["claimMatch.subject"]);
  });

  it("passes a claimMatch that is wholly or partly unknown", () => {
    expect(checkIdentityInputs({ ...valid, claimMatch: UNKNOWN_VALUE }).failures).toEqual([]);
    const partly = { issuer: UNKNOWN_VALUE, subject: "x" };
    expect(checkIdentityInputs({ ...valid, claimMatch: partly }).failures).toEqual([]);
  });
});

describe("check: RoleBinding", () => {
  it("checks the three uid shapes", () => {
    const good = checkRoleBindingInputs({ groupUid: GROUP, identityUid: IDENTITY, roleUid: ROLE });
    expect(good.failures).toEqual([]);
    const bad = checkRoleBindingInputs({ groupUid: "g", identityUid: ROOT, roleUid: `${ROLE}/x` });
    expect(properties(bad.failures)).toEqual(["groupUid", "identityUid", "roleUid"]);
    expect(bad.failures.find((f) => f.property === "roleUid")?.reason).toMatch(/role uid/);
  });

  it("takes a custom role's uid, a child of its group, as well as a built-in role's", () => {
    const custom = `${GROUP}/fedcba9876543210`;
    const inputs = { groupUid: GROUP, identityUid: IDENTITY, roleUid: custom };
    expect(checkRoleBindingInputs(inputs).failures).toEqual([]);
    expect(checkRoleBindingInputs(inputs).inputs.roleUid).toBe(custom);
    const invite = checkGroupInviteInputs({ groupUid: GROUP, roleUid: custom, ttl: 3600 });
    expect(invite.failures).toEqual([]);
    const provider = checkIdentityProviderInputs({
      parentUid: GROUP,
      name: "corporate sso",
      defaultRole: custom,
      oidc: { issuer: "https://sso.example.com", clientId: "c", pkceEnabled: true },
    });
    expect(provider.failures).toEqual([]);
    for (const roleUid of [`${GROUP}/fedcba98`, `${custom}/`, "viewer"]) {
      const failures = checkRoleBindingInputs({ ...inputs, roleUid }).failures;
      expect(failures.map((f) => f.property)).toEqual(["roleUid"]);
      expect(failures[0].reason).toMatch(/custom role's <group uid>\/<16 lowercase hex>/);
    }
  });
});
