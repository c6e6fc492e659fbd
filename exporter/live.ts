/**
 * What an export reads from the API (read.ts fills it in), as the declarers
 * (declarers/) and the kinds' list (kinds.ts) see it.
 */
import type {
  ExternalGroupRoleMapping,
  Group,
  Identity,
  Repo,
  Role,
  RoleBinding,
  Subscription,
} from "../sdk/index";

/** Everything read from the API for one export. */
export interface LiveOrganisation {
  /** The group whose subtree is exported. */
  top: Group;
  /** True when `top` is a root organisation (it has no parent and cannot be declared). */
  topIsRoot: boolean;
  /** Every group strictly below `top`. */
  groups: Group[];
  /** Every identity in `top` or below. */
  identities: Identity[];
  /** Every role binding in `top` or below. */
  bindings: RoleBinding[];
  /** Every role the token can see: built-in ones and custom ones anywhere. */
  roles: Role[];
  /** Every identity provider in `top` or below. */
  identityProviders: LiveIdentityProvider[];
  /** Every external group role mapping of those identity providers. */
  externalGroupRoleMappings: ExternalGroupRoleMapping[];
  /** The account associations of `top` and of every group below it (at most one each). */
  accountAssociations: LiveAccountAssociation[];
  /** Every repo in `top` or below, each with its README (`""` when it has none). */
  repos: LiveRepo[];
  /** Every event subscription in `top` or below. */
  subscriptions: Subscription[];
  /** Every group invite in `top` or below: counted, never declared (codes cannot be read). */
  groupInvites: LiveGroupInvite[];
  /** Requests sent, by collection (the floor is ceil(count / 200) each, at least 1). */
  requests: Record<string, number>;
  /**
   * Uid of the identity the export's token acts as (its `sub`), when the token says:
   * the export leaves it and its bindings out unless asked (see `buildProgram`).
   */
  callerUid?: string;
}

/**
 * What the export needs of an identity provider (addendum section 3.1). The client
 * secret is write-only: it is never in an answer, so never here.
 */
export interface LiveIdentityProvider {
  uid: string;
  name: string;
  description: string;
  /** Uid of the role bound to a user on first sign-in. */
  defaultRole: string;
  oidc: {
    issuer: string;
    clientId: string;
    additionalScopes: string[];
    groupsClaim: string;
    pkceEnabled: boolean;
    correlationRule: string;
  };
}

/** One GitHub App's installations in an account association. */
export interface LiveGithubApp {
  installations: Array<{ installationId: number; name?: string }>;
}

/** What the export needs of an account association (addendum section 5.1): uid = its group's. */
export interface LiveAccountAssociation {
  uid: string;
  name: string;
  description: string;
  amazon?: { account: string };
  google?: { projectId: string; projectNumber: string };
  azure?: { tenantId: string; clientIds: Record<string, string> };
  github?: { appInstallations: Record<string, LiveGithubApp> };
  /** Service name (without `SERVICE_PRINCIPAL_`) to the uid of an identity of its group. */
  chainguard?: { serviceBindings: Record<string, string> };
}

/** A repo as listed, with its README's Markdown (one GET of `<uid>/readme` each). */
export interface LiveRepo extends Repo {
  readme: string;
}

/** What the export needs of a group invite: enough to say what was skipped. */
export interface LiveGroupInvite {
  uid: string;
  roleUid: string;
  expirationTime: string;
}
