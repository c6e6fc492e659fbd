/**
 * The program an export writes, as data: which resources it declares, with which
 * names and inputs, and how each one refers to the others. The declarers
 * (declarers/) make it from what was read (live.ts); render.ts turns it into text.
 */
import type { AwsIdentity, ClaimMatch, StaticKeysCreate } from "../sdk/index";
import type { LiveAccountAssociation } from "./live";

/** A TypeScript expression that evaluates to a uid in the generated program. */
export type UidExpression =
  /** A declared resource's `uid` output: `<variable>.uid`. */
  | { kind: "resource"; variable: string }
  /** A role lookup: `<variable>.uid`. */
  | { kind: "lookup"; variable: string }
  /** A uid from config, defaulting to the exported uid. */
  | { kind: "outside"; variable: string };

/** An object the program refers to but does not declare: a uid from `pulumi config`. */
export interface OutsideValue {
  variable: string;
  /** Config key of the project (`pulumi config set <key> <uid>`). */
  configKey: string;
  uid: string;
  /** What it is, for the comment above it. */
  describes: string;
}

/** A role found by name at each run (`getRoleOutput`). */
export interface RoleLookup {
  variable: string;
  name: string;
  /** For custom roles: where they live and what they allow. */
  note?: string;
}

/** What every declared object with a parent has: its names, uid and where it lives. */
export interface DeclaredChild {
  /** Assigned only when another declaration refers to it. */
  variable?: string;
  resourceName: string;
  uid: string;
  parent: UidExpression;
  name: string;
  description: string;
}

export interface GroupDeclaration extends DeclaredChild {}

/** `claimMatch` as the Identity resource takes it: only the members that are set. */
export type ClaimMatchInputs = ClaimMatch;

/** `staticKeys` without `expirationTime`: left out, the provider keeps the server's and never diffs it. */
export type StaticKeysInputs = Omit<StaticKeysCreate, "expirationTime">;

export type AwsIdentityInputs = AwsIdentity;

/** The one kind an identity is (addendum 6.1), with the inputs of that kind. */
export type Relationship =
  | { kind: "claimMatch"; claimMatch: ClaimMatchInputs }
  | { kind: "staticKeys"; staticKeys: StaticKeysInputs; expirationTime?: string }
  | { kind: "awsIdentity"; awsIdentity: AwsIdentityInputs }
  | { kind: "servicePrincipal"; servicePrincipal: string };

export interface IdentityDeclaration extends DeclaredChild {
  relationship: Relationship;
  /**
   * The identity the export's token acts as (only with `includeSelf`): declared with
   * `protect: true`, so no `pulumi destroy` deletes it.
   */
  self?: boolean;
}

/** A custom role, declared with `irm.Role` (see `ProgramOptions.declareCustomRoles`). */
export interface RoleDeclaration extends DeclaredChild {
  capabilities: string[];
}

/**
 * A client secret the program reads from `pulumi config --secret`: the API never
 * answers it, so an export cannot write it.
 */
export interface ClientSecret {
  /** Config key, from the provider's uid so that it survives renames and re-exports. */
  configKey: string;
  /** The program's variable holding it, read at the top before any resource. */
  variable: string;
  /** The identity provider's resource name and uid, for the notes. */
  resourceName: string;
  uid: string;
  name: string;
  /** PKCE providers may have no secret; the others need it. */
  optional: boolean;
}

/** `oidc` of an identity provider: members at their default (`[]`, `""`, `false`, unspecified) left out. */
export interface OidcInputs {
  issuer: string;
  clientId: string;
  additionalScopes?: string[];
  groupsClaim?: string;
  pkceEnabled?: boolean;
  correlationRule?: string;
}

export interface IdentityProviderDeclaration extends DeclaredChild {
  defaultRole: UidExpression;
  oidc: OidcInputs;
  clientSecret: ClientSecret;
}

/**
 * An account association, its blocks as read (`uid` is its group's: an association has
 * none of its own); `chainguard` names identities, which the program refers to.
 */
export interface AccountAssociationDeclaration extends Omit<LiveAccountAssociation, "chainguard"> {
  resourceName: string;
  group: UidExpression;
  /** Service name to the identity, in key order. */
  chainguard?: { serviceBindings: Array<[string, UidExpression]> };
}

/** An external group role mapping: its provider, outside group, role and scope. */
export interface ExternalGroupRoleMappingDeclaration {
  resourceName: string;
  uid: string;
  identityProvider: UidExpression;
  externalGroupId: string;
  role: UidExpression;
  scope: UidExpression;
}

export interface BindingDeclaration {
  resourceName: string;
  uid: string;
  group: UidExpression;
  identity: UidExpression;
  role: UidExpression;
  /** A binding of the identity the export's token acts as (only with `includeSelf`): protected. */
  self?: boolean;
}

/**
 * A registry repo: its settings and README, members at the provider's default
 * (`CATALOG_TIER_UNSPECIFIED`, no aliases, no README) left out.
 */
export interface RepoDeclaration extends DeclaredChild {
  catalogTier?: string;
  aliases?: string[];
  readme?: string;
}

/** An event subscription: its group and the URL events are delivered to. */
export interface SubscriptionDeclaration {
  resourceName: string;
  uid: string;
  parent: UidExpression;
  sink: string;
}

/** Something that exists but is not in the program, and why. */
export interface Omission {
  what: string;
  why: string;
}

export interface ExportedProgram {
  top: { uid: string; name: string; isRoot: boolean };
  outside: OutsideValue[];
  lookups: RoleLookup[];
  groups: GroupDeclaration[];
  /** Custom roles declared as resources (empty with `declareCustomRoles: false`). */
  roles: RoleDeclaration[];
  identities: IdentityDeclaration[];
  identityProviders: IdentityProviderDeclaration[];
  externalGroupRoleMappings: ExternalGroupRoleMappingDeclaration[];
  accountAssociations: AccountAssociationDeclaration[];
  bindings: BindingDeclaration[];
  repos: RepoDeclaration[];
  subscriptions: SubscriptionDeclaration[];
  /** The config keys of the identity providers' client secrets, in declaration order. */
  clientSecrets: ClientSecret[];
  /** Group invites that exist and are not declared (see `omissions`). */
  skippedInvites: number;
  omissions: Omission[];
}

export interface ProgramOptions {
  /**
   * Declare custom roles as `irm.Role` resources (the default), referred to by
   * variable. False looks them up by name instead, as versions of pulumi-irm without a
   * `Role` resource had to.
   */
  declareCustomRoles: boolean;
  /**
   * Declare the identity the token acts as (`live.callerUid`) and its role bindings,
   * each with `protect: true`. Default false: they are left out and listed in
   * `omissions`, so the stack holds nothing whose deletion locks the user out.
   */
  includeSelf?: boolean;
}
