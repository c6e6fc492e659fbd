/**
 * Every way into a platform group, declared in code: people sign in through the
 * company's SSO and start with a custom read-only role, a new hire gets a one-time
 * invite, the group's AWS account is associated with it, and the deploy jobs of a
 * Kubernetes cluster assume a workload identity by their service account's token.
 * The policy pack `pulumi-irm/policy` guards each of these (see docs/policy.md).
 */
import * as pulumi from "@pulumi/pulumi";
import * as irm from "pulumi-irm";

const config = new pulumi.Config();
/** The root organisation group (the emulator's bootstrap file holds it as `rootGroupUid`). */
const rootGroupUid = config.require("rootGroupUid");
/** The company's OIDC provider for sign-in, and this application's client there. */
const ssoIssuer = config.get("ssoIssuer") ?? "https://sso.acme.example";
const ssoClientId = config.get("ssoClientId") ?? "irm-platform";
/** Set with `pulumi config set --secret ssoClientSecret ...`: encrypted in state. */
const ssoClientSecret = config.requireSecret("ssoClientSecret");
/** Who the one-time invite is for. */
const newHireEmail = config.get("newHireEmail") ?? "new.hire@acme.example";
/** The AWS account the platform group runs in. */
const awsAccount = config.get("awsAccount") ?? "123456789012";
/** The cluster's service-account token issuer, and the audience its deploy jobs request. */
const clusterIssuer =
  config.get("clusterIssuer") ??
  "https://oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE";
const clusterAudience = config.get("clusterAudience") ?? "irm.acme.example";

const platform = new irm.Group("platform", {
  parentUid: rootGroupUid,
  name: "platform",
  description: "Build and runtime infrastructure; owned by the platform team",
});

// What everyone who signs in starts with: read the group and pull from its registry
// (the built-in registry.pull's capabilities), read advisories, grant nothing.
// (No write on roles, role bindings, identity providers, invites or account
// associations: irm-no-privileged-default-role refuses those for a default role.)
const developer = new irm.Role("developer", {
  parentUid: platform.uid,
  name: "developer",
  description: "Read the platform group and pull from its registry",
  capabilities: [
    "CAP_IAM_GROUPS_LIST",
    "CAP_REPO_LIST",
    "CAP_REPO_BLOBS_GET",
    "CAP_MANIFEST_LIST",
    "CAP_MANIFEST_METADATA_LIST",
    "CAP_TAG_LIST",
    "CAP_REFERRERS_LIST",
    "CAP_ADVISORIES_LIST",
  ],
});

const sso = new irm.IdentityProvider("corporate-sso", {
  parentUid: platform.uid,
  name: "corporate sso",
  description: "Company sign-in; first sign-in makes a user a developer",
  defaultRole: developer.uid,
  oidc: {
    issuer: ssoIssuer,
    clientId: ssoClientId,
    additionalScopes: ["email", "profile"],
    groupsClaim: "groups",
  },
  clientSecret: ssoClientSecret,
});

// One person, once, within three days: irm-no-long-lived-or-reusable-invite refuses
// reusable invites and ones that outlive 7 days.
const invite = new irm.GroupInvite("new-hire", {
  groupUid: platform.uid,
  roleUid: developer.uid,
  ttl: 3 * 24 * 3600,
  email: newHireEmail,
  singleUse: true,
});

const aws = new irm.AccountAssociation("platform-accounts", {
  groupUid: platform.uid,
  name: "platform accounts",
  description: "The AWS account the platform group runs in",
  amazon: { account: awsAccount },
});

// The deploy jobs run as one of two service accounts of the `platform-deploy`
// namespace; the pattern names both (a pattern such as `.*` would let every workload of
// the cluster in: irm-no-match-all-identity-pattern refuses it), and the audience keeps
// tokens minted for other services out.
const deployer = new irm.Identity("cluster-deployer", {
  parentUid: platform.uid,
  name: "cluster-deployer",
  description: "Deploy jobs of the platform cluster",
  claimMatch: {
    issuer: clusterIssuer,
    subjectPattern: "system:serviceaccount:platform-deploy:(pulumi|argo-cd)",
    audience: clusterAudience,
  },
});

new irm.RoleBinding("cluster-deployer-editor", {
  groupUid: platform.uid,
  identityUid: deployer.uid,
  roleUid: irm.getRole({ name: "editor" }).then((role) => role.uid),
});

/** Uid of the platform group. */
export const platformGroupUid = platform.uid;
/** Uid of the custom role new users start with. */
export const developerRoleUid = developer.uid;
/** Uid of the identity provider users sign in through. */
export const ssoProviderUid = sso.uid;
/** The invite's code, to send to the new hire (a secret: `pulumi stack output --show-secrets`). */
export const inviteCode = invite.code;
/** When the invite stops working; replace the invite for a new code. */
export const inviteExpires = invite.expirationTime;
/** The AWS account associated with the group. */
export const awsAccountId = aws.amazon.apply((amazon) => amazon?.account);
/** The identity the deploy jobs assume. */
export const deployerIdentityUid = deployer.uid;
