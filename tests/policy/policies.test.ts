/**
 * Each policy called directly, as `@pulumi/policy` calls it, with realistic IRM
 * resource shapes: after an update (outputs with uids and hydrated bindings) and in
 * preview (unknown uids traced through property dependencies).
 */
import { describe, expect, it } from "vitest";
import {
  GITHUB_ACTIONS_ISSUER,
  groupDescriptionRequired,
  IRM_TYPES,
  identityIssuerAllowList,
  irmPolicies,
  noBroadIdentitySubject,
  noDuplicateRoleBinding,
  noPrivilegedRoleForWorkloadIdentity,
  POLICY_NAMES,
  rootGroupBindingAllowList,
} from "../../policy/policies";
import {
  boundBinding,
  EDITOR_ROLE_UID,
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

const OWNER = { uid: OWNER_ROLE_UID, name: "owner" };
const VIEWER = { uid: VIEWER_ROLE_UID, name: "viewer" };
const EDITOR = { uid: EDITOR_ROLE_UID, name: "editor" };
const ROOT = { uid: ROOT_UID, name: "acme" };

const runStack = runStackPolicy;
const runResource = runResourcePolicy;

/** A realistic org after `pulumi up`: platform and apps groups, a CI identity. */
function deployedOrg() {
  const platform = group("platform", ROOT_UID);
  const apps = group("apps", uidOf(platform));
  const deployer = identity(
    "ci-deployer",
    uidOf(platform),
    GITHUB,
    "repo:acme/infra:environment:production",
  );
  return { platform, apps, deployer };
}

/** The same kind of org in preview: nothing has a uid, bindings refer by dependency. */
function previewOrg() {
  const platform = stackResource(IRM_TYPES.group, "platform", {
    parentUid: ROOT_UID,
    name: "platform",
    description: "platform team",
  });
  const deployer = stackResource(
    IRM_TYPES.identity,
    "ci-deployer",
    {
      parentUid: UNKNOWN_STRING,
      name: "ci-deployer",
      description: "deploys infra",
      claimMatch: { issuer: GITHUB, subject: "repo:acme/infra:environment:production" },
    },
    { parentUid: [platform] },
  );
  const previewBinding = (name: string, roleUid: string) =>
    stackResource(
      IRM_TYPES.roleBinding,
      name,
      { groupUid: UNKNOWN_STRING, identityUid: UNKNOWN_STRING, roleUid },
      { groupUid: [platform], identityUid: [deployer] },
    );
  return { platform, deployer, previewBinding };
}

describe(POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity, () => {
  const policy = noPrivilegedRoleForWorkloadIdentity();

  it("is mandatory by default", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
  });

  it("refuses owner for a GitHub Actions identity, naming binding, role, identity and fix", () => {
    const { platform, deployer } = deployedOrg();
    const binding = boundBinding("deployer-owner", { group: platform, identity: deployer }, OWNER);
    const findings = runStack(policy, [platform, deployer, binding]);
    expect(findings).toHaveLength(1);
    expect(findings[0].level).toBe("policy");
    expect(findings[0].urn).toBe(binding.urn);
    expect(findings[0].message).toContain("RoleBinding 'deployer-owner'");
    expect(findings[0].message).toContain("'owner'");
    expect(findings[0].message).toContain("'ci-deployer'");
    expect(findings[0].message).toContain(GITHUB);
    expect(findings[0].message).toContain("Fix:");
  });

  it("accepts a non-privileged role", () => {
    const { platform, deployer } = deployedOrg();
    const binding = boundBinding(
      "deployer-viewer",
      { group: platform, identity: deployer },
      VIEWER,
    );
    expect(runStack(policy, [platform, deployer, binding])).toEqual([]);
  });

  it("judges a built-in role by the name the binding records when the role is only looked up", () => {
    const { platform, deployer } = deployedOrg();
    const binding = boundBinding("deployer-owner", { group: platform, identity: deployer }, OWNER);
    const findings = runStack(policy, [platform, deployer, binding]);
    expect(findings.map((f) => f.level)).toEqual(["policy"]);
    expect(findings[0].message).toContain("'owner'");
  });

  it("an identity not declared in the stack is a note: bindings keep no copy of its issuer", () => {
    const { platform, deployer } = deployedOrg();
    const binding = boundBinding("deployer-owner", { group: platform, identity: deployer }, OWNER);
    const findings = runStack(policy, [platform, binding]);
    expect(findings.map((f) => f.level)).toEqual(["advisory"]);
    expect(findings[0].message).toContain("not declared in this stack");
    expect(findings[0].message).toContain("can change without the binding changing");
  });

  it("a custom role is a note naming it as custom: its name can change, so it is not recorded", () => {
    const { platform, deployer } = deployedOrg();
    // A custom role's uid is a child of its group.
    const custom = { uid: `${uidOf(platform)}/${"c".repeat(16)}`, name: "owner", custom: true };
    const binding = boundBinding(
      "deployer-custom",
      { group: platform, identity: deployer },
      custom,
    );
    const findings = runStack(policy, [platform, deployer, binding]);
    expect(findings.map((f) => f.level)).toEqual(["advisory"]);
    expect(findings[0].message).toContain(`role ${custom.uid} is a custom role`);
  });

  it("takes the privileged roles from config", () => {
    const { platform, deployer } = deployedOrg();
    const binding = boundBinding(
      "deployer-editor",
      { group: platform, identity: deployer },
      EDITOR,
    );
    expect(runStack(policy, [platform, deployer, binding])).toEqual([]);
    const findings = runStack(policy, [platform, deployer, binding], {
      privilegedRoles: ["owner", "editor"],
    });
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toContain("'editor'");
  });

  it("exempts configured issuers and honours factory defaults", () => {
    const { platform, deployer } = deployedOrg();
    const binding = boundBinding("deployer-owner", { group: platform, identity: deployer }, OWNER);
    expect(runStack(policy, [platform, deployer, binding], { exemptIssuers: [GITHUB] })).toEqual(
      [],
    );
    const composed = noPrivilegedRoleForWorkloadIdentity({ config: { exemptIssuers: [GITHUB] } });
    expect(runStack(composed, [platform, deployer, binding])).toEqual([]);
    // Pack configuration overrides the factory's default.
    expect(runStack(composed, [platform, deployer, binding], { exemptIssuers: [] })).toHaveLength(
      1,
    );
  });

  it("in preview, a role it cannot judge is refused as 'cannot be judged yet'; advisory when configured", () => {
    const { platform, deployer, previewBinding } = previewOrg();
    const binding = previewBinding("deployer-role", OWNER_ROLE_UID);
    const findings = runStack(policy, [platform, deployer, binding]);
    expect(findings).toHaveLength(1);
    expect(findings[0].level).toBe("policy");
    expect(findings[0].urn).toBe(binding.urn);
    expect(findings[0].message).toContain("RoleBinding 'deployer-role' cannot be judged yet");
    expect(findings[0].message).toContain(OWNER_ROLE_UID);
    expect(findings[0].message).toContain("'ci-deployer'");
    expect(findings[0].message).toContain("Fix:");
    const noted = runStack(policy, [platform, deployer, binding], {
      unknownRoleLevel: "advisory",
    });
    expect(noted.map((f) => f.level)).toEqual(["advisory"]);
  });

  it("in preview, judges a looked-up or literal role by what the provider's check read of it", () => {
    const { platform, deployer } = previewOrg();
    const withChecked = (name: string, uid: string, checked: object) =>
      stackResource(
        IRM_TYPES.roleBinding,
        name,
        {
          groupUid: UNKNOWN_STRING,
          identityUid: UNKNOWN_STRING,
          roleUid: uid,
          checkedRole: { uid, ...checked },
        },
        { groupUid: [platform], identityUid: [deployer] },
      );
    const owner = withChecked("as-owner", OWNER_ROLE_UID, {
      name: "owner",
      builtIn: true,
      capabilities: ["CAP_REPO_LIST"],
    });
    // Another name, the capabilities that matter: privileged by what it can do.
    const renamed = withChecked("as-release", `${ROOT_UID}/${"a".repeat(16)}`, {
      name: "release-manager",
      builtIn: false,
      capabilities: ["CAP_IAM_IDENTITY_UPDATE", "CAP_REPO_LIST"],
    });
    const reader = withChecked("as-reader", `${ROOT_UID}/${"b".repeat(16)}`, {
      name: "reader",
      builtIn: false,
      capabilities: ["CAP_REPO_LIST", "CAP_IAM_ROLE_BINDINGS_LIST"],
    });
    const findings = runStack(policy, [platform, deployer, owner, renamed, reader]);
    expect(findings.map((f) => `${f.level} ${f.urn?.split("::").pop()}`)).toEqual([
      "policy as-owner",
      "policy as-release",
    ]);
    expect(findings[0].message).toContain("gives the privileged role 'owner'");
    expect(findings[1].message).toContain(
      "gives role 'release-manager', which can grant access (CAP_IAM_IDENTITY_UPDATE)",
    );
    // A record of another uid (stale) is not taken for this role's.
    const stale = withChecked("stale", OWNER_ROLE_UID, {
      name: "viewer",
      builtIn: true,
      capabilities: [],
    });
    (stale.props.checkedRole as { uid: string }).uid = VIEWER_ROLE_UID;
    expect(runStack(policy, [platform, deployer, stale]).map((f) => f.level)).toEqual(["policy"]);
  });

  it("in preview, judges a built-in role recorded without capabilities by its published set", () => {
    const { platform, deployer } = previewOrg();
    const bound = (name: string, uid: string, role: string) =>
      stackResource(
        IRM_TYPES.roleBinding,
        name,
        {
          groupUid: UNKNOWN_STRING,
          identityUid: UNKNOWN_STRING,
          roleUid: uid,
          checkedRole: { uid, name: role, builtIn: true },
        },
        { groupUid: [platform], identityUid: [deployer] },
      );
    const owner = bound("as-owner", OWNER_ROLE_UID, "owner");
    const viewer = bound("as-viewer", VIEWER_ROLE_UID, "viewer");
    // No role refused by name: owner is refused for what its published set can do.
    const findings = runStack(policy, [platform, deployer, owner, viewer], {
      privilegedRoles: [],
    });
    expect(findings.map((f) => `${f.level} ${f.urn?.split("::").pop()}`)).toEqual([
      "policy as-owner",
    ]);
    expect(findings[0].message).toContain("CAP_IAM_ROLE_BINDINGS_CREATE");
  });

  it("in preview, names a role from another binding's recorded built-in role name and refuses it", () => {
    // An existing binding (unchanged, so its state records the built-in role's name)
    // already uses `owner`; a new binding of the same role uid is judged before it is created.
    const { platform: deployedPlatform, deployer: existingIdentity } = deployedOrg();
    const existing = boundBinding(
      "admin-owner",
      { group: deployedPlatform, identity: existingIdentity },
      OWNER,
    );
    const { platform, deployer, previewBinding } = previewOrg();
    const fresh = previewBinding("deployer-owner", OWNER_ROLE_UID);
    const findings = runStack(policy, [platform, deployer, existing, fresh]);
    const onFresh = findings.filter((f) => f.urn === fresh.urn);
    expect(onFresh).toHaveLength(1);
    expect(onFresh[0].level).toBe("policy");
    expect(onFresh[0].message).toContain("'owner'");
  });

  it("a recorded built-in name that is no built-in role is not looked up on the set's prototype", () => {
    const { platform: deployedPlatform, deployer: existingIdentity } = deployedOrg();
    const odd = { uid: "c".repeat(40), name: "constructor" };
    const existing = boundBinding(
      "admin-odd",
      { group: deployedPlatform, identity: existingIdentity },
      odd,
    );
    const { platform, deployer, previewBinding } = previewOrg();
    const fresh = previewBinding("deployer-odd", odd.uid);
    const onFresh = runStack(policy, [platform, deployer, existing, fresh], {
      privilegedRoles: [],
    }).filter((f) => f.urn === fresh.urn);
    // Its capabilities are unknown: it cannot be judged, and says so.
    expect(onFresh.map((f) => f.level)).toEqual(["policy"]);
    expect(onFresh[0].message).toContain("cannot be judged yet");
  });

  it("in preview, finds the identity through property dependencies and skips exempt issuers", () => {
    const { platform, deployer, previewBinding } = previewOrg();
    const binding = previewBinding("deployer-role", OWNER_ROLE_UID);
    expect(runStack(policy, [platform, deployer, binding], { exemptIssuers: [GITHUB] })).toEqual(
      [],
    );
  });

  it("in preview, a role uid from an unknown source and no dependency is a note, not a crash", () => {
    const binding = stackResource(IRM_TYPES.roleBinding, "mystery", {
      groupUid: UNKNOWN_STRING,
      identityUid: UNKNOWN_STRING,
      roleUid: UNKNOWN_STRING,
    });
    const findings = runStack(policy, [binding]);
    expect(findings).toHaveLength(1);
    expect(findings[0].level).toBe("advisory");
    expect(findings[0].message).toContain("not known in preview");
  });
});

describe(POLICY_NAMES.rootGroupBindingAllowList, () => {
  const policy = rootGroupBindingAllowList();

  it("is advisory by default", () => {
    expect(policy.enforcementLevel).toBe("advisory");
  });

  it("reports a binding on the root organisation group when the allow-list is empty", () => {
    const { deployer } = deployedOrg();
    const binding = boundBinding("root-viewer", { group: ROOT, identity: deployer }, VIEWER);
    const findings = runStack(policy, [deployer, binding]);
    expect(findings).toHaveLength(1);
    expect(findings[0].level).toBe("policy");
    expect(findings[0].message).toContain("RoleBinding 'root-viewer'");
    expect(findings[0].message).toContain(ROOT_UID);
    expect(findings[0].message).toContain('{ "identity": "ci-deployer", "role": "viewer" }');
  });

  it("accepts allow-listed identity and role, and '*' for any role", () => {
    const { deployer } = deployedOrg();
    const binding = boundBinding("root-viewer", { group: ROOT, identity: deployer }, VIEWER);
    const exact = { allowedBindings: [{ identity: "ci-deployer", role: "viewer" }] };
    const anyRole = { allowedBindings: [{ identity: "ci-deployer", role: "*" }] };
    expect(runStack(policy, [deployer, binding], exact)).toEqual([]);
    expect(runStack(policy, [deployer, binding], anyRole)).toEqual([]);
    const otherRole = { allowedBindings: [{ identity: "ci-deployer", role: "editor" }] };
    expect(runStack(policy, [deployer, binding], otherRole)).toHaveLength(1);
  });

  it("ignores bindings on child groups", () => {
    const { platform, apps, deployer } = deployedOrg();
    const bindings = [
      boundBinding("platform-viewer", { group: platform, identity: deployer }, VIEWER),
      boundBinding("apps-viewer", { group: apps, identity: deployer }, VIEWER),
    ];
    expect(runStack(policy, [platform, apps, deployer, ...bindings])).toEqual([]);
  });

  it("in preview, a group declared by the stack is never the root", () => {
    const { platform, deployer, previewBinding } = previewOrg();
    const binding = previewBinding("platform-viewer", VIEWER_ROLE_UID);
    expect(runStack(policy, [platform, deployer, binding])).toEqual([]);
  });

  it("in preview, a root binding with an allow-list and unknown names is an advisory note", () => {
    const { deployer } = previewOrg();
    const binding = stackResource(
      IRM_TYPES.roleBinding,
      "root-viewer",
      { groupUid: ROOT_UID, identityUid: UNKNOWN_STRING, roleUid: VIEWER_ROLE_UID },
      { identityUid: [deployer] },
    );
    const findings = runStack(policy, [deployer, binding], {
      allowedBindings: [{ identity: "ci-deployer", role: "viewer" }],
    });
    expect(findings).toHaveLength(1);
    expect(findings[0].level).toBe("advisory");
    expect(findings[0].message).toContain("cannot be matched against allowedBindings yet");
  });

  it("in preview, an unknown group uid with no dependency is an advisory note", () => {
    const binding = stackResource(IRM_TYPES.roleBinding, "somewhere", {
      groupUid: UNKNOWN_STRING,
      identityUid: UNKNOWN_STRING,
      roleUid: VIEWER_ROLE_UID,
    });
    const findings = runStack(policy, [binding]);
    expect(findings.map((f) => f.level)).toEqual(["advisory"]);
  });
});

describe(POLICY_NAMES.identityIssuerAllowList, () => {
  const policy = identityIssuerAllowList();
  const check = (issuer: unknown, config: object = {}) =>
    runResource(
      policy,
      IRM_TYPES.identity,
      "ci",
      {
        parentUid: ROOT_UID,
        name: "ci",
        claimMatch: { issuer, subject: "repo:a/b:ref:refs/heads/main" },
      },
      config,
    );

  it("accepts GitHub Actions by default", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
    expect(check(GITHUB_ACTIONS_ISSUER)).toEqual([]);
  });

  it("refuses an https issuer that is not allow-listed, and accepts it once configured", () => {
    const issuer = "https://gitlab.example.com";
    const findings = check(issuer);
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toContain("Identity 'ci'");
    expect(findings[0].message).toContain("not in the allow-list");
    expect(check(issuer, { allowedIssuers: [issuer] })).toEqual([]);
  });

  it("refuses http issuers even when allow-listed", () => {
    const issuer = "http://issuer.example.com";
    const findings = check(issuer, { allowedIssuers: [issuer] });
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toContain("https");
  });

  it("accepts http on loopback only with allowHttpLoopback", () => {
    const issuer = "http://127.0.0.1:8787/oidc";
    expect(check(issuer, { allowedIssuers: [issuer] })).toHaveLength(1);
    expect(check(issuer, { allowedIssuers: [issuer], allowHttpLoopback: true })).toEqual([]);
    const remote = "http://10.0.0.5:8787/oidc";
    expect(check(remote, { allowedIssuers: [remote], allowHttpLoopback: true })).toHaveLength(1);
  });

  it("refuses an issuer that is not a URL", () => {
    expect(check("token.actions.githubusercontent.com")[0].message).toContain("not a URL");
  });

  it("reports nothing for an unknown or absent issuer and other resource types", () => {
    expect(check(UNKNOWN_STRING)).toEqual([]);
    expect(runResource(policy, IRM_TYPES.identity, "ci", { name: "ci" })).toEqual([]);
    expect(
      runResource(policy, IRM_TYPES.identity, "ci", { name: "ci", claimMatch: UNKNOWN_STRING }),
    ).toEqual([]);
    expect(
      runResource(policy, IRM_TYPES.group, "g", { claimMatch: { issuer: "http://x" } }),
    ).toEqual([]);
  });
});

describe(POLICY_NAMES.noBroadIdentitySubject, () => {
  const policy = noBroadIdentitySubject();
  const check = (issuer: string, subject: unknown, config: object = {}) =>
    runResource(
      policy,
      IRM_TYPES.identity,
      "ci",
      { parentUid: ROOT_UID, name: "ci", claimMatch: { issuer, subject } },
      config,
    );

  it("accepts GitHub subjects pinned to a ref or an environment", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
    expect(check(GITHUB, "repo:acme/infra:ref:refs/heads/main")).toEqual([]);
    expect(check(GITHUB, "repo:acme/infra:ref:refs/tags/v1.2.0")).toEqual([]);
    expect(check(GITHUB, "repo:acme/infra:environment:production")).toEqual([]);
  });

  it("refuses wildcards, whatever the issuer", () => {
    for (const [issuer, subject] of [
      [GITHUB, "*"],
      [GITHUB, "repo:acme/*:ref:refs/heads/main"],
      [GITHUB, "repo:acme/infra:ref:refs/heads/*"],
      ["https://issuer.example.com", "*"],
    ]) {
      const findings = check(issuer, subject);
      expect(findings, subject).toHaveLength(1);
      expect(findings[0].message).toContain("wildcard");
    }
  });

  it("refuses GitHub subjects that pin no repository, or neither ref nor environment", () => {
    expect(check(GITHUB, "acme/infra")[0].message).toContain("does not pin a repository");
    const pullRequest = check(GITHUB, "repo:acme/infra:pull_request");
    expect(pullRequest).toHaveLength(1);
    expect(pullRequest[0].message).toContain("pins neither a ref nor an environment");
    expect(pullRequest[0].message).toContain("repo:acme/infra:environment:NAME");
  });

  it("applies GitHub's format to configured GitHub Enterprise issuers only", () => {
    const enterprise = "https://github.acme.example/_services/token";
    expect(check(enterprise, "repo:acme/infra:pull_request")).toEqual([]);
    expect(
      check(enterprise, "repo:acme/infra:pull_request", { githubActionsIssuers: [enterprise] }),
    ).toHaveLength(1);
    expect(check("https://issuer.example.com", "system:serviceaccount:ci:deployer")).toEqual([]);
  });

  it("reports nothing while the subject is unknown", () => {
    expect(check(GITHUB, UNKNOWN_STRING)).toEqual([]);
  });
});

describe(POLICY_NAMES.noDuplicateRoleBinding, () => {
  const policy = noDuplicateRoleBinding();

  it("reports the second binding of the same identity, role and group", () => {
    expect(policy.enforcementLevel).toBe("mandatory");
    const { platform, deployer } = deployedOrg();
    const first = boundBinding("deployer-viewer", { group: platform, identity: deployer }, VIEWER);
    const second = boundBinding(
      "deployer-viewer-again",
      { group: platform, identity: deployer },
      VIEWER,
    );
    const findings = runStack(policy, [platform, deployer, first, second]);
    expect(findings).toHaveLength(1);
    expect(findings[0].urn).toBe(second.urn);
    expect(findings[0].message).toContain(
      "'deployer-viewer-again' duplicates RoleBinding 'deployer-viewer'",
    );
    expect(findings[0].message).toContain("'viewer'");
  });

  it("accepts bindings that differ in role or group", () => {
    const { platform, apps, deployer } = deployedOrg();
    const resources = [
      platform,
      apps,
      deployer,
      boundBinding("a", { group: platform, identity: deployer }, VIEWER),
      boundBinding("b", { group: platform, identity: deployer }, EDITOR),
      boundBinding("c", { group: apps, identity: deployer }, VIEWER),
    ];
    expect(runStack(policy, resources)).toEqual([]);
  });

  it("in preview, tells duplicates apart through property dependencies", () => {
    const { platform, deployer, previewBinding } = previewOrg();
    const first = previewBinding("one", VIEWER_ROLE_UID);
    const second = previewBinding("two", VIEWER_ROLE_UID);
    const other = previewBinding("three", EDITOR_ROLE_UID);
    const findings = runStack(policy, [platform, deployer, first, other, second]);
    expect(findings.map((f) => f.urn)).toEqual([second.urn]);
  });

  it("matches a binding by uid with one by dependency on the same identity", () => {
    const { platform, deployer } = deployedOrg();
    const byUid = stackResource(IRM_TYPES.roleBinding, "by-uid", {
      groupUid: uidOf(platform),
      identityUid: uidOf(deployer),
      roleUid: VIEWER_ROLE_UID,
    });
    const byDependency = stackResource(
      IRM_TYPES.roleBinding,
      "by-dependency",
      { groupUid: UNKNOWN_STRING, identityUid: UNKNOWN_STRING, roleUid: VIEWER_ROLE_UID },
      { groupUid: [platform], identityUid: [deployer] },
    );
    expect(runStack(policy, [platform, deployer, byUid, byDependency])).toHaveLength(1);
  });

  it("does not guess when an end cannot be known", () => {
    const blind = () =>
      stackResource(IRM_TYPES.roleBinding, `blind-${Math.random()}`, {
        groupUid: UNKNOWN_STRING,
        identityUid: UNKNOWN_STRING,
        roleUid: VIEWER_ROLE_UID,
      });
    expect(runStack(policy, [blind(), blind()])).toEqual([]);
  });
});

describe(POLICY_NAMES.groupDescriptionRequired, () => {
  const policy = groupDescriptionRequired();
  const check = (description: unknown, config: object = {}) =>
    runResource(
      policy,
      IRM_TYPES.group,
      "platform",
      {
        parentUid: ROOT_UID,
        name: "platform",
        ...(description === undefined ? {} : { description }),
      },
      config,
    );

  it("is advisory and accepts a described group", () => {
    expect(policy.enforcementLevel).toBe("advisory");
    expect(check("Platform team: shared infrastructure")).toEqual([]);
  });

  it("reports a missing or blank description, naming the group and the fix", () => {
    for (const description of [undefined, "", "   "]) {
      const findings = check(description);
      expect(findings).toHaveLength(1);
      expect(findings[0].message).toContain("Group 'platform' has no description");
      expect(findings[0].message).toContain("Fix:");
    }
  });

  it("takes a minimum length from config", () => {
    expect(check("infra", { minLength: 10 })[0].message).toContain("shorter than the 10 required");
    expect(check("infrastructure", { minLength: 10 })).toEqual([]);
  });

  it("reports nothing while the description is unknown or for other types", () => {
    expect(check(UNKNOWN_STRING)).toEqual([]);
    expect(runResource(policy, IRM_TYPES.identity, "ci", { name: "ci" })).toEqual([]);
  });
});

describe("stacks with the registry's kinds (repos, event subscriptions)", () => {
  /** A deployed org with a repo and a subscription of `platform`, as state holds them. */
  function registryOrg() {
    const org = deployedOrg();
    const platformUid = uidOf(org.platform);
    const tools = stackResource(
      IRM_TYPES.repo,
      "build-tools",
      {
        uid: `${platformUid}/00000000000000b1`,
        parentUid: platformUid,
        name: "build-tools",
        description: "",
        catalogTier: "CATALOG_TIER_DEVTOOLS",
        aliases: ["tools"],
        readme: "# build-tools\n",
        createTime: "2026-11-21T10:00:00.000Z",
        updateTime: "2026-11-21T10:00:00.000Z",
      },
      { parentUid: [org.platform] },
    );
    const hooks = stackResource(
      IRM_TYPES.subscription,
      "platform-hooks",
      {
        uid: `${platformUid}/00000000000000c1`,
        parentUid: platformUid,
        sink: "https://hooks.acme.example/irm",
        createTime: "",
      },
      { parentUid: [org.platform] },
    );
    return { ...org, tools, hooks };
  }

  it("judges nothing about repos and subscriptions, and nothing else differently", () => {
    const { platform, apps, deployer, tools, hooks } = registryOrg();
    const bound = boundBinding("ci-owner", { group: platform, identity: deployer }, OWNER);
    const without = [platform, apps, deployer, bound];
    const findings = (resources: typeof without) =>
      irmPolicies().flatMap((policy) => {
        if ("validateStack" in policy) return runStack(policy, resources);
        return resources.flatMap((r) => runResource(policy, r.type, r.name, r.props));
      });
    const withRegistry = findings([...without, tools, hooks]);
    expect(withRegistry).toEqual(findings(without));
    // The owner grant to a workload identity is still found; the repo's empty
    // description is no group's.
    expect(withRegistry.map((f) => f.urn)).toContain(bound.urn);
    expect(withRegistry.map((f) => f.urn)).not.toContain(tools.urn);
    expect(withRegistry.map((f) => f.urn)).not.toContain(hooks.urn);
  });

  it("takes a binding's group from the group its uid names, not from a repo whose parentUid gave it", () => {
    // `groupUid: tools.parentUid` is the platform group's uid: the same binding as one
    // written with `platform.uid`, which the API refuses the second time.
    const { platform, deployer, tools } = registryOrg();
    const first = boundBinding("ci-viewer", { group: platform, identity: deployer }, VIEWER);
    const second = stackResource(
      IRM_TYPES.roleBinding,
      "ci-viewer-again",
      { ...first.props, uid: `${uidOf(platform)}/00000000000000d1` },
      { groupUid: [tools] },
    );
    const findings = runStack(noDuplicateRoleBinding(), [platform, deployer, tools, first, second]);
    expect(findings.map((f) => f.message)).toEqual([
      `RoleBinding 'ci-viewer-again' duplicates RoleBinding 'ci-viewer': both bind identity 'ci-deployer' to role 'viewer' in group 'platform'. The API refuses the second one (ALREADY_EXISTS). Fix: remove one of them.`,
    ]);
  });
});

describe("irmPolicies", () => {
  it("returns the ten policies with distinct names and their default levels", () => {
    const policies = irmPolicies();
    expect(Object.fromEntries(policies.map((p) => [p.name, p.enforcementLevel]))).toEqual({
      [POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity]: "mandatory",
      [POLICY_NAMES.rootGroupBindingAllowList]: "advisory",
      [POLICY_NAMES.identityIssuerAllowList]: "mandatory",
      [POLICY_NAMES.noBroadIdentitySubject]: "mandatory",
      [POLICY_NAMES.noDuplicateRoleBinding]: "mandatory",
      [POLICY_NAMES.groupDescriptionRequired]: "advisory",
      [POLICY_NAMES.noMatchAllIdentityPattern]: "mandatory",
      [POLICY_NAMES.noLongLivedOrReusableInvite]: "mandatory",
      [POLICY_NAMES.noPrivilegedDefaultRole]: "mandatory",
      [POLICY_NAMES.noPrivilegedExternalGroupRole]: "advisory",
    });
    expect(policies).toHaveLength(10);
  });

  it("makes a factory's config the schema default, which @pulumi/policy fills in for what the pack's configuration leaves out", () => {
    const gitlab = "https://gitlab.acme.example";
    const policy = identityIssuerAllowList({ config: { allowedIssuers: [gitlab] } });
    const schema = policy.configSchema?.properties ?? {};
    expect(schema.allowedIssuers.default).toEqual([gitlab]);
    expect(schema.allowHttpLoopback.default).toBe(false);
    expect(identityIssuerAllowList().configSchema?.properties.allowedIssuers.default).toEqual([
      GITHUB_ACTIONS_ISSUER,
    ]);
    // The analyzer's getConfig answers every schema default, the pack's values on top.
    const filled = Object.fromEntries(Object.entries(schema).map(([k, p]) => [k, p.default]));
    const props = { claimMatch: { issuer: gitlab, subject: "project_path:acme/infra" } };
    expect(runResource(policy, IRM_TYPES.identity, "gitlab-ci", props, filled)).toEqual([]);
    const packOverride = { ...filled, allowedIssuers: [GITHUB_ACTIONS_ISSUER] };
    expect(runResource(policy, IRM_TYPES.identity, "gitlab-ci", props, packOverride)).toHaveLength(
      1,
    );
  });

  it("lets a composed pack change levels, and never declares enforcementLevel in a schema", () => {
    const policies = irmPolicies({ rootGroupBindingAllowList: { enforcementLevel: "mandatory" } });
    const root = policies.find((p) => p.name === POLICY_NAMES.rootGroupBindingAllowList);
    expect(root?.enforcementLevel).toBe("mandatory");
    for (const p of policies) {
      expect(p.configSchema?.properties).toBeDefined();
      expect(p.configSchema?.properties).not.toHaveProperty("enforcementLevel");
    }
  });
});
