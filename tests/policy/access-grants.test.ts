/**
 * The policies for the addendum's resources, called directly as `@pulumi/policy` calls
 * them, on plain property objects shaped as the provider's classes register them (and,
 * for stack policies, as state holds them after an update): match-all identity
 * patterns, long-lived or reusable invites, privileged default roles of identity
 * providers, privileged roles of outside groups' mappings. Also the probing those decisions rest on.
 */
import type { PolicyResource, ResourceValidationPolicy } from "@pulumi/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  IRM_TYPES,
  IrmStack,
  noLongLivedOrReusableInvite,
  noMatchAllIdentityPattern,
  noPrivilegedDefaultRole,
  noPrivilegedDefaultRoleDefaults,
  noPrivilegedExternalGroupRole,
  noPrivilegedRoleForWorkloadIdentity,
  noPrivilegedRoleForWorkloadIdentityDefaults,
  POLICY_NAMES,
  PRIVILEGED_CAPABILITIES,
  PROBES,
  probePattern,
} from "../../policy/policies";
import { IrmClient, isBuiltInRoleUid, isCapability, type Role } from "../../sdk/index";
import {
  boundBinding,
  childUid,
  GITHUB,
  group,
  identity,
  OWNER_ROLE_UID,
  ROOT_UID,
  runResourcePolicy,
  runStackPolicy,
  stackResource,
  UNKNOWN_STRING,
  uidOf,
  VIEWER_ROLE_UID,
} from "../support/policy-harness";

const runResource = (
  policy: ResourceValidationPolicy,
  type: string,
  props: Record<string, unknown>,
  config: object = {},
) => runResourcePolicy(policy, type, "subject-under-test", props, config);
const runStack = runStackPolicy;

const K8S_ISSUER = "https://oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE";

describe("probePattern", () => {
  it("does not probe a pattern longer than the provider accepts", () => {
    expect(probePattern(".*")).toBeDefined();
    expect(probePattern(`.*${"x?".repeat(600)}`)).toBeUndefined();
  });

  it("finds match-all patterns in their RE2 spellings, and says whether the empty value matches", () => {
    const open = [".*", "(?s).*", ".{0,}", "^.*$", "(.*)|x", ".*?", "(?i).*", "[[:graph:]]*"];
    for (const pattern of open) {
      expect(probePattern(pattern), pattern).toMatchObject({
        matchesEverything: true,
        matchesEmpty: true,
      });
    }
    for (const pattern of [".+", "\\S+", "[!-~]+", "(?:.)+"]) {
      expect(probePattern(pattern), pattern).toMatchObject({
        matchesEverything: true,
        matchesEmpty: false,
      });
    }
  });

  it("does not call a pattern open when it pins a prefix, a value, or shuts out any one character", () => {
    for (const pattern of [
      "repo:acme/.*",
      "system:serviceaccount:ci:deployer",
      "system:serviceaccount:ci:[a-z-]+",
      "x*",
    ]) {
      expect(probePattern(pattern)?.matchesEverything, pattern).toBe(false);
    }
    // One probe holds every printable character, so `[^c]*` is never everything.
    for (let code = 0x21; code <= 0x7e; code++) {
      const pattern = `[^\\x{${code.toString(16)}}]*`;
      expect(probePattern(pattern)?.matchesEverything, pattern).toBe(false);
    }
  });

  it("uses RE2 syntax, not JavaScript's: RE2-only forms compile, lookaround is no pattern", () => {
    expect(probePattern("(?P<any>.*)")?.matchesEverything).toBe(true);
    expect(probePattern("\\Qrepo:acme/infra\\E.*")?.matchesEverything).toBe(false);
    expect(probePattern("(?=x).*")).toBeUndefined();
    expect(probePattern("(")).toBeUndefined();
  });

  it("probes a fixed set: the same values on every run, non-empty and without whitespace", () => {
    expect(PROBES.length).toBeGreaterThan(40);
    for (const probe of PROBES) expect(probe).toMatch(/^\S+$/);
    expect(new Set(PROBES).size).toBe(PROBES.length);
  });

  it("finds issuer patterns that leave the host open", () => {
    expect(probePattern("https://.*")?.foreignIssuer).toBeDefined();
    expect(probePattern("https://[^/]+/oidc")?.foreignIssuer).toBeDefined();
    expect(probePattern("https://token\\.actions\\.githubusercontent\\.com")).toEqual({
      matchesEverything: false,
      matchesEmpty: false,
      foreignIssuer: undefined,
    });
  });
});

describe(POLICY_NAMES.noMatchAllIdentityPattern, () => {
  const policy = noMatchAllIdentityPattern();
  const claimMatch = (members: Record<string, unknown>) =>
    runResource(policy, IRM_TYPES.identity, {
      parentUid: ROOT_UID,
      name: "deployer",
      claimMatch: members,
    });

  it("is mandatory", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
  });

  it("refuses a match-all subject pattern, naming the identity, the pattern, the issuer and the fix", () => {
    const found = claimMatch({ issuer: K8S_ISSUER, subjectPattern: ".*" });
    expect(found).toHaveLength(1);
    expect(found[0].level).toBe("policy");
    expect(found[0].message).toContain("Identity 'subject-under-test'");
    expect(found[0].message).toContain("claimMatch.subjectPattern '.*'");
    expect(found[0].message).toContain("every value, the empty one included");
    expect(found[0].message).toContain(`every workload that gets a token of ${K8S_ISSUER}`);
    expect(found[0].message).toContain("Fix:");
    expect(claimMatch({ issuer: K8S_ISSUER, subjectPattern: ".+" })[0].message).toContain(
      "every non-empty value",
    );
  });

  it("accepts a subject pattern that pins the workload", () => {
    expect(
      claimMatch({
        issuer: K8S_ISSUER,
        subjectPattern: "system:serviceaccount:ci:deployer",
        audience: "sts.example",
      }),
    ).toEqual([]);
  });

  it("accepts a match-all subject when claims pin the token, not when claim patterns match everything", () => {
    expect(
      claimMatch({ issuer: GITHUB, subjectPattern: ".*", claims: { repository: "acme/infra" } }),
    ).toEqual([]);
    expect(
      claimMatch({
        issuer: GITHUB,
        subjectPattern: ".*",
        claimPatterns: { repository: "acme/(infra|platform)" },
      }),
    ).toEqual([]);
    expect(
      claimMatch({ issuer: GITHUB, subjectPattern: ".*", claimPatterns: { repository: ".*" } }),
    ).toHaveLength(1);
  });

  it("refuses a match-all issuer pattern and one that leaves the host open", () => {
    const all = claimMatch({ issuerPattern: "(?s).*", subject: "x" });
    expect(all.map((f) => f.message)).toEqual([
      expect.stringContaining("a token from any OIDC issuer"),
    ]);
    const host = claimMatch({ issuerPattern: "https://.*/oidc", subject: "x" });
    expect(host.map((f) => f.message)).toEqual([
      expect.stringContaining("leaves the issuer's host open"),
    ]);
    expect(
      claimMatch({ issuerPattern: "https://gitlab\\.acme\\.example(/.*)?", subject: "x" }),
    ).toEqual([]);
  });

  it("refuses a match-all audience pattern even when the subject is exact", () => {
    const found = claimMatch({
      issuer: GITHUB,
      subject: "repo:a/b:ref:refs/heads/main",
      audiencePattern: ".+",
    });
    expect(found).toHaveLength(1);
    expect(found[0].message).toContain("claimMatch.audiencePattern '.+'");
    expect(found[0].message).toContain("replayed");
  });

  it("reports each open member of one identity", () => {
    const found = claimMatch({ issuerPattern: ".*", subjectPattern: ".*", audiencePattern: ".*" });
    expect(found.map((f) => f.message.match(/claimMatch\.\w+/)?.[0])).toEqual([
      "claimMatch.issuerPattern",
      "claimMatch.subjectPattern",
      "claimMatch.audiencePattern",
    ]);
  });

  it("refuses an AWS identity only when both its ARN and user id patterns match everything", () => {
    const aws = (members: Record<string, unknown>) =>
      runResource(policy, IRM_TYPES.identity, {
        name: "lambda",
        awsIdentity: { awsAccount: "123456789012", ...members },
      });
    const open = aws({ arnPattern: ".*", userIdPattern: ".+" });
    expect(open).toHaveLength(1);
    expect(open[0].message).toContain("any principal of AWS account 123456789012");
    expect(aws({ arnPattern: ".*", userId: "AROAEXAMPLE:deploy" })).toEqual([]);
    expect(
      aws({ arnPattern: "arn:aws:sts::123456789012:assumed-role/deploy/.*", userIdPattern: ".*" }),
    ).toEqual([]);
  });

  it("reports nothing for unknown, absent or invalid patterns, exact members and other types", () => {
    expect(claimMatch({ issuer: GITHUB, subjectPattern: UNKNOWN_STRING })).toEqual([]);
    expect(claimMatch({ issuer: GITHUB, subjectPattern: "(" })).toEqual([]);
    expect(claimMatch({ issuer: GITHUB, subject: "*" })).toEqual([]); // irm-no-broad-identity-subject's
    expect(
      runResource(policy, IRM_TYPES.identity, {
        name: "x",
        servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
      }),
    ).toEqual([]);
    expect(runResource(policy, IRM_TYPES.group, { claimMatch: { issuerPattern: ".*" } })).toEqual(
      [],
    );
  });
});

describe(POLICY_NAMES.noLongLivedOrReusableInvite, () => {
  const policy = noLongLivedOrReusableInvite();
  const invite = (props: Record<string, unknown>, config: object = {}) =>
    runResource(
      policy,
      IRM_TYPES.groupInvite,
      { groupUid: ROOT_UID, roleUid: VIEWER_ROLE_UID, ...props },
      config,
    );

  it("is mandatory and accepts a single-use invite of at most 7 days, as seconds or a duration", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
    expect(invite({ ttl: 604_800, singleUse: true })).toEqual([]);
    expect(invite({ ttl: "86400s", singleUse: true, email: "new.hire@acme.example" })).toEqual([]);
  });

  it("refuses a longer ttl, saying how long and what is allowed", () => {
    const found = invite({ ttl: "2592000s", singleUse: true });
    expect(found).toHaveLength(1);
    expect(found[0].message).toContain("GroupInvite 'subject-under-test' lives 2592000s (30 days)");
    expect(found[0].message).toContain("the 604800s (7 days) allowed");
    expect(found[0].message).toContain("Fix:");
    expect(invite({ ttl: 604_800.5, singleUse: true })).toHaveLength(1);
  });

  it("takes the limit from the pack's configuration", () => {
    expect(invite({ ttl: 7200, singleUse: true }, { maxTtlSeconds: 3600 })).toHaveLength(1);
    expect(invite({ ttl: 2_592_000, singleUse: true }, { maxTtlSeconds: 2_592_000 })).toEqual([]);
  });

  it("refuses a reusable invite, absent singleUse included (the provider's default is false)", () => {
    const [absent] = invite({ ttl: 3600 });
    expect(absent.message).toContain("reusable");
    expect(absent.message).toContain("anyone who holds the code");
    const [withEmail] = invite({ ttl: 3600, singleUse: false, email: "ops@acme.example" });
    expect(withEmail.message).toContain("redeemed by ops@acme.example any number of times");
    expect(invite({ ttl: 3600, singleUse: false }, { allowReusable: true })).toEqual([]);
  });

  it("reports both problems of one invite", () => {
    expect(invite({ ttl: "31536000s", singleUse: false })).toHaveLength(2);
  });

  it("reads the lifetime from state without a ttl, and judges nothing not known yet", () => {
    const state = {
      singleUse: true,
      createTime: "2026-11-21T10:00:00.000Z",
      expirationTime: "2026-12-21T10:00:00.000Z",
    };
    expect(invite(state)[0].message).toContain("lives 2592000s (30 days)");
    expect(invite({ ttl: UNKNOWN_STRING, singleUse: UNKNOWN_STRING })).toEqual([]);
    expect(runResource(policy, IRM_TYPES.role, { ttl: 99_999_999 })).toEqual([]);
  });
});

describe(POLICY_NAMES.noPrivilegedDefaultRole, () => {
  const policy = noPrivilegedDefaultRole();
  const platform = group("platform", ROOT_UID);
  // A custom role is a child of its group.
  const ROLE_UID = `${uidOf(platform)}/abcdefabcdef0001`;

  const role = (name: string, capabilities: string[], uid = ROLE_UID) =>
    stackResource(IRM_TYPES.role, name, {
      uid,
      parentUid: uidOf(platform),
      name,
      description: "",
      capabilities,
    });
  const sso = (defaultRole: string, dependsOn: Record<string, PolicyResource[]> = {}) =>
    stackResource(
      IRM_TYPES.identityProvider,
      "sso",
      {
        parentUid: uidOf(platform),
        name: "corporate sso",
        defaultRole,
        oidc: { issuer: "https://login.acme.example", clientId: "irm" },
      },
      dependsOn,
    );

  it("is mandatory", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
  });

  it("in preview, refuses a declared custom role that can write role bindings, naming the capabilities", () => {
    const admin = role(
      "team admin",
      ["CAP_REPO_LIST", "CAP_IAM_ROLE_BINDINGS_CREATE", "CAP_IAM_ROLES_UPDATE"],
      UNKNOWN_STRING,
    );
    const found = runStack(policy, [
      platform,
      admin,
      sso(UNKNOWN_STRING, { defaultRole: [admin] }),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0].level).toBe("policy");
    expect(found[0].urn).toContain("::sso");
    expect(found[0].message).toContain(
      "IdentityProvider 'sso' gives role 'team admin', which can grant access (CAP_IAM_ROLES_UPDATE, CAP_IAM_ROLE_BINDINGS_CREATE)",
    );
    expect(found[0].message).toContain("Fix:");
  });

  it("accepts a custom role that only reads and uses the registry, found by uid after the update", () => {
    const developer = role("developer", [
      "CAP_REPO_LIST",
      "CAP_REPO_BLOBS_GET",
      "CAP_MANIFEST_LIST",
      "CAP_TAG_LIST",
      "CAP_IAM_GROUPS_LIST",
    ]);
    expect(runStack(policy, [platform, developer, sso(ROLE_UID)])).toEqual([]);
  });

  it("refuses owner, named by a binding's recorded built-in role name", () => {
    const ci = identity("ci", uidOf(platform), GITHUB, "repo:acme/infra:ref:refs/heads/main");
    const binding = boundBinding(
      "ci-owner",
      { group: platform, identity: ci },
      {
        uid: OWNER_ROLE_UID,
        name: "owner",
      },
    );
    const found = runStack(policy, [platform, ci, binding, sso(OWNER_ROLE_UID)]);
    expect(found.map((f) => f.message)).toEqual([
      expect.stringContaining("gives the privileged role 'owner' to every user"),
    ]);
  });

  it("judges a role by the capabilities a group invite of the stack holds for it", () => {
    const invite = (name: string, capabilities: string[]) =>
      stackResource(IRM_TYPES.groupInvite, `invite-${name}`, {
        uid: childUid(uidOf(platform)),
        groupUid: uidOf(platform),
        roleUid: ROLE_UID,
        role: { uid: ROLE_UID, name, description: "", capabilities },
        singleUse: true,
      });
    expect(
      runStack(policy, [
        platform,
        invite("maker", ["CAP_IAM_GROUPS_CREATE", "CAP_REPO_LIST"]),
        sso(ROLE_UID),
      ]),
    ).toEqual([]);
    expect(
      runStack(policy, [
        platform,
        invite("inviter", ["CAP_IAM_GROUP_INVITES_CREATE"]),
        sso(ROLE_UID),
      ]),
    ).toHaveLength(1);
  });

  it("takes privileged names and access-granting capabilities from config", () => {
    const developer = role("developer", ["CAP_REPO_LIST", "CAP_IAM_IDENTITY_CREATE"]);
    const resources = [platform, developer, sso(ROLE_UID)];
    // Writing identities is privileged by default: the holder can make one it controls.
    expect(runStack(policy, resources)[0].message).toContain("(CAP_IAM_IDENTITY_CREATE)");
    const narrow = { accessGrantingCapabilities: ["CAP_IAM_ROLES_CREATE"] };
    expect(runStack(policy, resources, narrow)).toEqual([]);
    expect(runStack(policy, resources, { ...narrow, privilegedRoles: ["developer"] })).toHaveLength(
      1,
    );
  });

  it("a role the preview cannot judge is a mandatory 'cannot be judged yet', advisory when configured", () => {
    const found = runStack(policy, [platform, sso(VIEWER_ROLE_UID)]);
    expect(found).toHaveLength(1);
    expect(found[0].level).toBe("policy");
    expect(found[0].message).toContain(
      `IdentityProvider 'sso' cannot be judged yet: role ${VIEWER_ROLE_UID} is not declared in this stack`,
    );
    expect(found[0].message).toContain("Fix:");
    const unknown = runStack(policy, [platform, sso(UNKNOWN_STRING)]);
    expect(unknown.map((f) => f.level)).toEqual(["policy"]);
    expect(unknown[0].message).toContain("not known in preview");
    const noted = runStack(policy, [platform, sso(UNKNOWN_STRING)], {
      unknownRoleLevel: "advisory",
    });
    expect(noted.map((f) => f.level)).toEqual(["advisory"]);
    expect(noted[0].message).toContain("cannot be checked for a privileged default role yet");
  });

  it("an existing provider whose role the stack cannot judge is an advisory note", () => {
    const existing = stackResource(IRM_TYPES.identityProvider, "sso", {
      ...sso(VIEWER_ROLE_UID).props,
      uid: childUid(uidOf(platform)),
    });
    const found = runStack(policy, [platform, existing]);
    expect(found.map((f) => f.level)).toEqual(["advisory"]);
    expect(found[0].message).toContain(
      `cannot be checked for a privileged default role yet: role ${VIEWER_ROLE_UID} is not declared in this stack`,
    );
  });

  it("judges a looked-up or literal role by what the provider's check read of it", () => {
    const checked = (name: string, capabilities: string[]) =>
      stackResource(IRM_TYPES.identityProvider, "sso", {
        ...sso(VIEWER_ROLE_UID).props,
        checkedRole: { uid: VIEWER_ROLE_UID, name, builtIn: false, capabilities },
      });
    expect(runStack(policy, [platform, checked("reader", ["CAP_REPO_LIST"])])).toEqual([]);
    const found = runStack(policy, [
      platform,
      checked("not-owner", ["CAP_REPO_LIST", "CAP_IAM_ROLE_BINDINGS_CREATE"]),
    ]);
    expect(found.map((f) => f.level)).toEqual(["policy"]);
    expect(found[0].message).toContain(
      "gives role 'not-owner', which can grant access (CAP_IAM_ROLE_BINDINGS_CREATE)",
    );
  });

  it("ignores stacks without identity providers", () => {
    expect(runStack(policy, [platform, role("admin", ["CAP_IAM_ROLES_CREATE"])])).toEqual([]);
  });

  it("judges a role recorded with the former capability names by the same set in enum names", () => {
    // A group invite's state written by an earlier version holds `<collection>.<verb>`.
    const stale = stackResource(IRM_TYPES.groupInvite, "invite-stale", {
      uid: childUid(uidOf(platform)),
      groupUid: uidOf(platform),
      roleUid: ROLE_UID,
      role: {
        uid: ROLE_UID,
        name: "inviter",
        description: "",
        capabilities: ["repos.get", "groupInvites.create"],
      },
      singleUse: true,
    });
    const found = runStack(policy, [platform, stale, sso(ROLE_UID)]);
    expect(found.map((f) => f.message)).toEqual([
      expect.stringContaining(
        "role 'inviter', which can grant access (CAP_IAM_GROUP_INVITES_CREATE)",
      ),
    ]);
  });

  it("refuses the former collection setting and names that are not capabilities, naming the rule", () => {
    const resources = [platform, role("developer", ["CAP_REPO_LIST"]), sso(ROLE_UID)];
    expect(() => runStack(policy, resources, { accessGrantingCollections: ["roles"] })).toThrow(
      "the setting 'accessGrantingCollections' is replaced by 'accessGrantingCapabilities'",
    );
    expect(() =>
      runStack(policy, resources, { accessGrantingCapabilities: ["CAP_REPO_LIST", "roles"] }),
    ).toThrow("accessGrantingCapabilities: 'roles' is not a capability");
    // A former name in the setting stands for its enum name.
    expect(
      runStack(policy, resources, { accessGrantingCapabilities: ["repos.list"] })[0].message,
    ).toContain("(CAP_REPO_LIST)");
  });

  it("says a default role with a child uid is a custom role of its group when the stack cannot name it", () => {
    const found = runStack(policy, [platform, sso(ROLE_UID)]);
    expect(found.map((f) => [f.level, f.message])).toEqual([
      [
        "policy",
        expect.stringContaining(
          `role ${ROLE_UID} is a custom role of group ${uidOf(platform)} that is not declared in this stack`,
        ),
      ],
    ]);
  });
});

describe("the policies' privileged roles, against the published built-in role sets", () => {
  // The emulator seeds the platform's published sets (the contract suite compares them
  // with the definitions); each is judged here by its capabilities alone.
  let emulator: TestEmulator;
  let builtIn: Role[];
  beforeAll(async () => {
    emulator = await startTestEmulator();
    const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
    try {
      builtIn = (await client.iam.roles.list().all()).filter((r) => isBuiltInRoleUid(r.uid));
    } finally {
      await client.close();
    }
  });
  afterAll(() => emulator?.close());

  const platform = group("platform", ROOT_UID);
  const roleUid = `${uidOf(platform)}/abcdefabcdef0009`;
  /** A custom role with the built-in role's capabilities, under another name. */
  const copyOf = (published: Role) =>
    stackResource(IRM_TYPES.role, "copy", {
      uid: roleUid,
      parentUid: uidOf(platform),
      name: `copy of ${published.name}`,
      capabilities: published.capabilities,
    });

  it("only owner's set can grant access, so owner is the one privileged role by default", () => {
    const privileged = builtIn
      .filter((published) => {
        const copy = copyOf(published);
        const provider = stackResource(IRM_TYPES.identityProvider, "sso", {
          parentUid: uidOf(platform),
          name: "sso",
          defaultRole: roleUid,
          oidc: { issuer: "https://login.acme.example", clientId: "irm" },
        });
        return runStack(noPrivilegedDefaultRole(), [platform, copy, provider]).length > 0;
      })
      .map((r) => r.name);
    expect(builtIn.map((r) => r.name).sort()).toEqual([
      "editor",
      "owner",
      "registry.pull",
      "viewer",
    ]);
    expect(privileged).toEqual(["owner"]);
    expect(noPrivilegedDefaultRoleDefaults.privilegedRoles).toEqual(privileged);
    expect(noPrivilegedRoleForWorkloadIdentityDefaults.privilegedRoles).toEqual(privileged);
  });

  it("a copy of owner's capabilities under another name is refused for a workload; of the others, none", () => {
    const deployer = identity(
      "deployer",
      uidOf(platform),
      GITHUB,
      "repo:acme/infra:ref:refs/heads/main",
    );
    const refused = builtIn
      .filter((published) => {
        const copy = copyOf(published);
        const binding = stackResource(IRM_TYPES.roleBinding, "binding", {
          groupUid: uidOf(platform),
          identityUid: uidOf(deployer),
          roleUid,
        });
        return (
          runStack(noPrivilegedRoleForWorkloadIdentity(), [platform, deployer, copy, binding])
            .length > 0
        );
      })
      .map((r) => r.name);
    expect(refused).toEqual(["owner"]);
    // Every privileged capability is a value of the enum that owner's published set holds.
    const owner = builtIn.find((r) => r.name === "owner") as Role;
    for (const capability of PRIVILEGED_CAPABILITIES) {
      expect(isCapability(capability), capability).toBe(true);
      expect(owner.capabilities, capability).toContain(capability);
    }
  });
});

describe(`${POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity} with the identity kinds`, () => {
  const policy = noPrivilegedRoleForWorkloadIdentity();
  const platform = group("platform", ROOT_UID);
  const ownerOf = (kind: Record<string, unknown>, config: object = {}) => {
    const workload = stackResource(IRM_TYPES.identity, "workload", {
      uid: childUid(uidOf(platform)),
      parentUid: uidOf(platform),
      name: "workload",
      ...kind,
    });
    const binding = boundBinding(
      "workload-owner",
      { group: platform, identity: workload },
      {
        uid: OWNER_ROLE_UID,
        name: "owner",
      },
    );
    return runStack(policy, [platform, workload, binding], config);
  };

  it("refuses owner for AWS, static-keys and issuer-pattern identities, saying how each authenticates", () => {
    const aws = ownerOf({
      awsIdentity: {
        awsAccount: "123456789012",
        arn: "arn:aws:iam::123456789012:role/ci",
        userIdPattern: ".*",
      },
    });
    expect(aws.map((f) => [f.level, f.message])).toEqual([
      ["policy", expect.stringContaining("which authenticates with AWS (account 123456789012)")],
    ]);
    const keys = ownerOf({
      staticKeys: { issuer: "https://ci.acme.example", subject: "deploy", issuerKeys: "{}" },
    });
    expect(keys[0].message).toContain(
      "the external OIDC issuer https://ci.acme.example (with registered static keys)",
    );
    const pattern = ownerOf({
      claimMatch: { issuerPattern: "https://gitlab\\.acme\\.example", subject: "x" },
    });
    expect(pattern[0].message).toContain("any external OIDC issuer matching");
  });

  it("exempts a configured static-keys issuer, and never judges a service principal", () => {
    const keys = {
      staticKeys: { issuer: "https://ci.acme.example", subject: "deploy", issuerKeys: "{}" },
    };
    expect(ownerOf(keys, { exemptIssuers: ["https://ci.acme.example"] })).toEqual([]);
    expect(ownerOf({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" })).toEqual([]);
  });
});

describe("IrmStack with the addendum's resources", () => {
  it("an account association, whose uid is its group's, never stands in for the group", () => {
    const platform = group("platform", ROOT_UID);
    const ci = identity("ci", uidOf(platform), GITHUB, "repo:acme/infra:ref:refs/heads/main");
    const binding = boundBinding(
      "ci-viewer",
      { group: platform, identity: ci },
      {
        uid: VIEWER_ROLE_UID,
        name: "viewer",
      },
    );
    const association = stackResource(IRM_TYPES.accountAssociation, "aws", {
      uid: uidOf(platform),
      groupUid: uidOf(platform),
      name: "prod accounts",
      amazon: { account: "123456789012" },
    });
    for (const order of [
      [platform, ci, binding, association],
      [association, platform, ci, binding],
    ]) {
      expect(new IrmStack(order).name(binding, "group")).toEqual({
        known: true,
        value: "platform",
      });
    }
  });

  it("a binding of a custom role declared in the stack knows the role's name", () => {
    const platform = group("platform", ROOT_UID);
    const ci = identity("ci", uidOf(platform), GITHUB, "repo:acme/infra:ref:refs/heads/main");
    const custom = stackResource(IRM_TYPES.role, "deployer-role", {
      uid: `${uidOf(platform)}/abcdefabcdef0002`,
      name: "deployer",
      capabilities: ["CAP_REPO_LIST"],
    });
    const binding = boundBinding(
      "ci-deployer",
      { group: platform, identity: ci },
      {
        uid: `${uidOf(platform)}/abcdefabcdef0002`,
        name: "",
        custom: true,
      },
    );
    expect(new IrmStack([platform, ci, custom, binding]).name(binding, "role")).toEqual({
      known: true,
      value: "deployer",
    });
  });

  it("a binding being created with an undeclared custom role is told apart by the role's child uid", () => {
    const platform = group("platform", ROOT_UID);
    const ci = identity("ci", uidOf(platform), GITHUB, "repo:acme/infra:ref:refs/heads/main");
    const roleUid = `${uidOf(platform)}/abcdefabcdef0003`;
    // In preview, before the provider records builtInRoleName.
    const binding = stackResource(IRM_TYPES.roleBinding, "ci-custom", {
      groupUid: uidOf(platform),
      identityUid: uidOf(ci),
      roleUid,
    });
    expect(new IrmStack([platform, ci, binding]).name(binding, "role")).toEqual({
      known: false,
      reason: `role ${roleUid} is a custom role, whose name can change, so bindings do not record it`,
    });
  });
});

describe(POLICY_NAMES.noPrivilegedExternalGroupRole, () => {
  const policy = noPrivilegedExternalGroupRole();
  const platform = group("platform", ROOT_UID);
  const ROLE_UID = `${ROOT_UID}/abcdefabcdef0002`;
  const PROVIDER_UID = `${uidOf(platform)}/abcdefabcdef0003`;
  const admin = stackResource(IRM_TYPES.role, "org admin", {
    uid: ROLE_UID,
    parentUid: ROOT_UID,
    name: "org admin",
    description: "",
    capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_ROLE_BINDINGS_CREATE"],
  });
  const mapping = (
    name: string,
    externalGroupId: string,
    roleUid: string,
    dependsOn: Record<string, PolicyResource[]> = {},
  ) =>
    stackResource(
      IRM_TYPES.externalGroupRoleMapping,
      name,
      { identityProviderUid: PROVIDER_UID, externalGroupId, roleUid, scope: ROOT_UID },
      dependsOn,
    );

  it("is advisory", () => {
    expect(policy.enforcementLevel).toBe("advisory");
  });

  it("reports a role that grants access, named by the mapping and its outside group", () => {
    const found = runStack(policy, [
      platform,
      admin,
      mapping("admins", "it-admins", UNKNOWN_STRING, { roleUid: [admin] }),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0].urn).toContain("::admins");
    expect(found[0].message).toContain(
      "ExternalGroupRoleMapping 'admins' gives role 'org admin', which can grant access (CAP_IAM_ROLE_BINDINGS_CREATE) on the whole organisation to every member of 'it-admins'",
    );
  });

  it("accepts a reading role, and an allow-listed group even with a privileged role", () => {
    const reader = stackResource(IRM_TYPES.role, "reader", {
      uid: `${ROOT_UID}/abcdefabcdef0004`,
      parentUid: ROOT_UID,
      name: "reader",
      description: "",
      capabilities: ["CAP_REPO_LIST"],
    });
    expect(
      runStack(policy, [
        platform,
        reader,
        mapping("staff", "staff", `${ROOT_UID}/abcdefabcdef0004`),
      ]),
    ).toEqual([]);
    const allowed = noPrivilegedExternalGroupRole({
      config: { allowedExternalGroups: ["it-admins"] },
    });
    expect(runStack(allowed, [platform, admin, mapping("admins", "it-admins", ROLE_UID)])).toEqual(
      [],
    );
  });

  it("reports owner, known by a binding's recorded built-in role name", () => {
    const ci = identity("ci", uidOf(platform), GITHUB, "repo:acme/infra:ref:refs/heads/main");
    const binding = boundBinding(
      "ci-owner",
      { group: platform, identity: ci },
      { uid: OWNER_ROLE_UID, name: "owner" },
    );
    const found = runStack(policy, [
      platform,
      ci,
      binding,
      mapping("all", "everyone", OWNER_ROLE_UID),
    ]);
    expect(found.map((f) => f.message)).toEqual([
      expect.stringContaining("gives the privileged role 'owner' on the whole organisation"),
    ]);
  });
});
