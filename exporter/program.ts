/**
 * The program an export writes, as data: which resources it declares, with which
 * names and inputs, and how each one refers to the others. Built from what was read
 * (read.ts) and turned into text by render.ts.
 *
 * One declarer per kind (group, custom role, identity, identity provider, external
 * group role mapping, account association, role binding, repo, event subscription;
 * group invites are counted and skipped) and a loop over
 * them in the order of `KINDS` (kinds.ts): `buildProgram`.
 *
 * Inputs are the live objects' values exactly as the provider compares them (see
 * provider/handlers/*.ts and docs/provider.md "Adoption"), so adopting sends no PATCH.
 */
import {
  type AwsIdentity,
  type ClaimMatch,
  type ExternalGroupRoleMapping,
  type Group,
  type Identity,
  type Role,
  type RoleBinding,
  roleGroupUid,
  type StaticKeysCreate,
  type Subscription,
} from "../sdk/index";
import { KINDS, type KindName } from "./kinds";
import {
  type AssignedName,
  assignNames,
  type NameCandidate,
  VariableNames,
  wordsOf,
} from "./names";
import type {
  LiveAccountAssociation,
  LiveIdentityProvider,
  LiveOrganisation,
  LiveRepo,
} from "./read";

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
interface DeclaredChild {
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

/** Why group invites are never declared. */
export const INVITES_SKIPPED =
  "skipped: an invite's code is answered only when the invite is created and cannot be read back, so an adopted invite would be useless; create new invites (irm.GroupInvite) where they are still needed";

/** Why the identity the token acts as, and its bindings, are left out by default. */
export const SELF_LEFT_OUT =
  "left out: this export's token acts as it, and a stack declaring it could delete it (`pulumi destroy`, or a line removed from the program) and lock you out; export with --include-self to declare it and its bindings, protected";

const parentUidOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
/** Code-unit order, the same on every machine (unlike `localeCompare`). */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byNameThenUid = (a: { name: string; uid: string }, b: { name: string; uid: string }) =>
  compareText(a.name, b.name) || compareText(a.uid, b.uid);

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** A non-empty string member, or undefined (an empty string counts as unset). */
const text = (object: Raw, key: string): string | undefined => {
  const value = object[key];
  return typeof value === "string" && value !== "" ? value : undefined;
};
/** A non-empty map of strings, keys sorted, or undefined. */
const textMap = (object: Raw, key: string): Record<string, string> | undefined => {
  const value = object[key];
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value).sort(compareText);
  if (keys.length === 0) return undefined;
  // Made as own members (an assignment `out["__proto__"] = ...` would set a prototype).
  return Object.fromEntries(keys.map((k) => [k, String(value[k])]));
};
/** Members whose value is defined, in the order given. */
const defined = <T extends object>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;

/**
 * The kind of an identity and its inputs, read from the API's answer (addendum 6.1,
 * 6.7: only the members that are set appear). Undefined when it has no kind this
 * package knows, or lacks a member the kind requires.
 */
export function relationshipOf(identity: Identity): Relationship | undefined {
  const raw = identity as unknown as Raw;
  const kinds = ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"].filter(
    (key) => raw[key] !== undefined && raw[key] !== null && raw[key] !== "",
  );
  if (kinds.length !== 1) return undefined;
  if (typeof raw.servicePrincipal === "string") {
    return { kind: "servicePrincipal", servicePrincipal: raw.servicePrincipal };
  }
  if (isObject(raw.claimMatch)) {
    const m = raw.claimMatch;
    const claimMatch: ClaimMatchInputs = defined({
      issuer: text(m, "issuer"),
      issuerPattern: text(m, "issuerPattern"),
      subject: text(m, "subject"),
      subjectPattern: text(m, "subjectPattern"),
      audience: text(m, "audience"),
      audiencePattern: text(m, "audiencePattern"),
      claims: textMap(m, "claims"),
      claimPatterns: textMap(m, "claimPatterns"),
    });
    const hasIssuer = (claimMatch.issuer ?? claimMatch.issuerPattern) !== undefined;
    const hasSubject = (claimMatch.subject ?? claimMatch.subjectPattern) !== undefined;
    return hasIssuer && hasSubject ? { kind: "claimMatch", claimMatch } : undefined;
  }
  if (isObject(raw.staticKeys)) {
    const k = raw.staticKeys;
    const [issuer, subject, issuerKeys] = [
      text(k, "issuer"),
      text(k, "subject"),
      text(k, "issuerKeys"),
    ];
    if (issuer === undefined || subject === undefined || issuerKeys === undefined) return undefined;
    const audiences = Array.isArray(k.audiences)
      ? k.audiences.filter((a): a is string => typeof a === "string" && a !== "")
      : [];
    return {
      kind: "staticKeys",
      staticKeys: defined({
        issuer,
        subject,
        issuerKeys,
        audiences: audiences.length > 0 ? audiences : undefined,
      }),
      expirationTime: text(k, "expirationTime"),
    };
  }
  if (isObject(raw.awsIdentity)) {
    const a = raw.awsIdentity;
    const awsAccount = text(a, "awsAccount");
    if (awsAccount === undefined) return undefined;
    return {
      kind: "awsIdentity",
      awsIdentity: defined({
        awsAccount,
        arn: text(a, "arn"),
        arnPattern: text(a, "arnPattern"),
        userId: text(a, "userId"),
        userIdPattern: text(a, "userIdPattern"),
      }),
    };
  }
  return undefined;
}

/** The config key of an identity provider's client secret: stable for the provider's lifetime. */
export function clientSecretKey(providerUid: string): string {
  return `clientSecret-${providerUid.slice(providerUid.lastIndexOf("/") + 1)}`;
}

/** `oidc` with the members at their default left out, as the provider's defaults fill them in. */
function oidcInputs(provider: LiveIdentityProvider): OidcInputs {
  const o = provider.oidc;
  return defined({
    issuer: o.issuer,
    clientId: o.clientId,
    additionalScopes: o.additionalScopes.length > 0 ? [...o.additionalScopes] : undefined,
    groupsClaim: o.groupsClaim !== "" ? o.groupsClaim : undefined,
    pkceEnabled: o.pkceEnabled ? true : undefined,
    correlationRule:
      o.correlationRule !== "" && o.correlationRule !== "CORRELATION_RULE_UNSPECIFIED"
        ? o.correlationRule
        : undefined,
  });
}

/** Sorted copy of a record's entries, so the text never depends on the API's key order. */
const sortedRecord = <V>(record: Record<string, V>, map: (value: V) => V = (v) => v) =>
  Object.fromEntries(
    Object.keys(record)
      .sort(compareText)
      .map((k) => [k, map(record[k])]),
  ) as Record<string, V>;

/**
 * What the declarers of one program share: the organisation read, the order and names
 * of its groups, and the names and references handed out so far. Variables are
 * claimed in one order (declared objects kind by kind, then each reference as it is
 * first written), so the same organisation always gets the same text.
 */
class Build {
  readonly omissions: Omission[] = [];
  readonly outside: OutsideValue[] = [];
  readonly lookups: RoleLookup[] = [];
  readonly clientSecrets: ClientSecret[] = [];
  readonly variables = new VariableNames();
  /** Uids some declaration refers to: only those declared objects get a variable. */
  readonly referenced = new Set<string>();
  /** Resource names, by kind and uid. */
  readonly names = new Map<KindName, Map<string, AssignedName>>();
  /** Variables of declared objects, by kind and uid. */
  readonly declaredVariables = new Map<KindName, Map<string, string>>();
  readonly top: Group;
  readonly groupsByUid: Map<string, Group>;
  /** The chosen group and everything below it, parents first, siblings by name and uid. */
  readonly groupTree: Group[];
  private readonly groupOrder: Map<string, number>;
  private readonly rolesByUid: Map<string, Role>;
  private readonly roleNameCount = new Map<string, number>();
  /** Every identity read, declared or not: looked up once per binding and service binding. */
  private readonly identitiesByUid: Map<string, Identity>;
  private readonly outsideByUid = new Map<string, string>();
  private readonly lookupByName = new Map<string, string>();

  constructor(
    readonly live: LiveOrganisation,
    readonly options: ProgramOptions,
  ) {
    const { top } = live;
    this.top = top;
    this.groupsByUid = new Map([[top.uid, top], ...live.groups.map((g) => [g.uid, g] as const)]);
    const children = new Map<string, Group[]>();
    for (const group of live.groups) {
      const parent = parentUidOf(group.uid);
      children.set(parent, [...(children.get(parent) ?? []), group]);
    }
    const ordered: Group[] = [];
    const visit = (group: Group) => {
      ordered.push(group);
      for (const child of [...(children.get(group.uid) ?? [])].sort(byNameThenUid)) visit(child);
    };
    visit(top);
    this.groupTree = ordered;
    this.groupOrder = new Map(ordered.map((g, i) => [g.uid, i]));
    this.rolesByUid = new Map(live.roles.map((r) => [r.uid, r]));
    for (const role of live.roles) {
      this.roleNameCount.set(role.name, (this.roleNameCount.get(role.name) ?? 0) + 1);
    }
    this.identitiesByUid = new Map(live.identities.map((i) => [i.uid, i]));
  }

  /** Is this the identity the token acts as? */
  isSelf(identityUid: string): boolean {
    return this.live.callerUid !== undefined && identityUid === this.live.callerUid;
  }

  /** The identity the token acts as, left out unless `includeSelf`. */
  leavesOut(identityUid: string): boolean {
    return this.isSelf(identityUid) && !(this.options.includeSelf ?? false);
  }

  /** A group's rank in the program: objects in a group come in this order. */
  groupRank(groupUid: string): number {
    return this.groupOrder.get(groupUid) ?? 0;
  }

  /** Objects in a group come in the group order, then by name and uid. */
  inGroupOrder<T extends { name: string; uid: string }>(groupOf: (item: T) => string) {
    return (a: T, b: T) =>
      this.groupRank(groupOf(a)) - this.groupRank(groupOf(b)) || byNameThenUid(a, b);
  }

  /** Names of a group and its ancestors, nearest first, as far up as the export reaches. */
  containerWords(groupUid: string): string[][] {
    const out: string[][] = [];
    for (let at = groupUid; this.groupsByUid.has(at); at = parentUidOf(at)) {
      out.push(wordsOf(this.groupsByUid.get(at)!.name));
      if (at === this.top.uid) break;
    }
    return out;
  }

  /** Names from each object's own name, qualified by its groups' names where they repeat. */
  namesOf<T extends { name: string; uid: string }>(
    items: T[],
    containerOf: (item: T) => string,
    fallback: string,
  ): Map<string, AssignedName> {
    return assignNames(
      items.map((item): NameCandidate<string> => {
        // `[name]`, `[container, name]`, `[container's parent, container, name]`, ...
        const levels = [wordsOf(item.name)];
        let prefix: string[] = [];
        for (const words of this.containerWords(containerOf(item))) {
          prefix = [...words, ...prefix];
          levels.push([...prefix, ...wordsOf(item.name)]);
        }
        return { item: item.uid, uid: item.uid, levels };
      }),
      fallback,
    );
  }

  nameOf(kind: KindName, uid: string): AssignedName | undefined {
    return this.names.get(kind)?.get(uid);
  }

  roleOf(uid: string): Role | undefined {
    return this.rolesByUid.get(uid);
  }

  variableOf(kind: KindName, uid: string): string | undefined {
    return this.declaredVariables.get(kind)?.get(uid);
  }

  /** The custom roles of the subtree (a custom role's uid is its group's child), in group order. */
  customRoles(): Role[] {
    const { top } = this;
    const inSubtree = (groupUid: string) =>
      groupUid === top.uid || groupUid.startsWith(`${top.uid}/`);
    return this.live.roles
      .filter((role) => {
        const group = roleGroupUid(role.uid);
        return group !== undefined && inSubtree(group);
      })
      .sort(this.inGroupOrder((r) => roleGroupUid(r.uid)!));
  }

  /**
   * The members every declaration of an object in a group has: its names (a variable
   * only when something refers to it), its parent and its own fields.
   */
  named(
    kind: KindName,
    object: { uid: string; name: string; description?: string },
  ): DeclaredChild {
    return {
      variable: this.variableOf(kind, object.uid),
      resourceName: this.nameOf(kind, object.uid)!.resourceName,
      uid: object.uid,
      // Every one of them is its parent group's child, custom roles included.
      parent: this.groupExpression(parentUidOf(object.uid)),
      name: object.name,
      description: object.description ?? "",
    };
  }

  /** A uid from config, defaulting to the exported one: claimed when first written. */
  outsideValue(uid: string, words: string[], describes: string): UidExpression {
    let variable = this.outsideByUid.get(uid);
    if (variable === undefined) {
      variable = this.variables.claim([...words, "uid"], "outside", uid);
      this.outsideByUid.set(uid, variable);
      this.outside.push({ variable, configKey: variable, uid, describes });
    }
    return { kind: "outside", variable };
  }

  groupExpression(uid: string): UidExpression {
    const variable = this.variableOf("Group", uid);
    if (variable) return { kind: "resource", variable };
    // Only the chosen group's parent, or a root chosen group, lies outside.
    const { top } = this;
    if (uid === top.uid)
      return this.outsideValue(uid, ["root", "group"], `The root organisation "${top.name}".`);
    return this.outsideValue(uid, ["parent", "group"], `The parent group of "${top.name}".`);
  }

  private lookup(name: string, uid: string, note?: string): UidExpression {
    let variable = this.lookupByName.get(name);
    if (variable === undefined) {
      variable = this.variables.claim([...wordsOf(name), "role"], "lookup", uid);
      this.lookupByName.set(name, variable);
      this.lookups.push({ variable, name, note });
    }
    return { kind: "lookup", variable };
  }

  capabilitiesNote(role: Role): string {
    const group = roleGroupUid(role.uid)!;
    const where = this.groupsByUid.get(group)?.name ?? group;
    return `custom role of "${where}": ${[...role.capabilities].sort().join(", ")}`;
  }

  /** A declared role by variable; else a lookup by name when unique; else a config value. */
  roleExpression(uid: string, knownName: string): UidExpression {
    const declared = this.variableOf("Role", uid);
    if (declared) return { kind: "resource", variable: declared };
    const role = this.rolesByUid.get(uid);
    const name = role?.name ?? knownName;
    // A lookup by name finds exactly one role only when the name is unique.
    if (this.roleNameCount.get(name) === 1 && role !== undefined) {
      const custom = roleGroupUid(role.uid) !== undefined;
      return this.lookup(name, uid, custom ? this.capabilitiesNote(role) : undefined);
    }
    return this.outsideValue(
      uid,
      wordsOf(name).concat("role"),
      role === undefined
        ? `The role ${uid}${knownName ? ` ("${knownName}")` : ""}, which this token cannot list.`
        : `The role "${name}" (its name is not unique, so it is not looked up).`,
    );
  }

  identityExpression(uid: string, knownName: string): UidExpression {
    const variable = this.variableOf("Identity", uid);
    if (variable) return { kind: "resource", variable };
    const identity = this.identitiesByUid.get(uid);
    const name = identity?.name ?? knownName;
    if (this.leavesOut(uid)) {
      return this.outsideValue(
        uid,
        wordsOf(name),
        `The identity "${name}" this export's token acts as (not declared, so no run deletes it).`,
      );
    }
    return this.outsideValue(
      uid,
      wordsOf(name),
      `The identity "${name}"${identity ? " (its kind is not known to this version of pulumi-irm)" : ", outside the exported group"}.`,
    );
  }
}

/**
 * How the program declares one kind of object, in the steps every kind takes in turn
 * (see `buildProgram`). Methods, so that each kind's declarer fits the one list.
 */
interface Declarer<T extends { uid: string }, D> {
  /** The word of the variables of those others refer to; none for kinds nothing refers to. */
  readonly variable?: string;
  /** 1. The objects read that it declares, in program order; what it leaves out, said. */
  select(build: Build): T[];
  /** 2. Resource names, by uid, unique within the kind. */
  name(build: Build, items: T[]): Map<string, AssignedName>;
  /** 3. The uids a declaration refers to. */
  refersTo(item: T): string[];
  /** 5. The declarations, every reference written. */
  declare(build: Build, items: T[]): D[];
}

const groupDeclarer: Declarer<Group, GroupDeclaration> = {
  variable: "group",
  // The chosen group (unless it is a root) and everything below it, parents first.
  select: (build) => (build.live.topIsRoot ? build.groupTree.slice(1) : build.groupTree),
  name: (build, groups) => build.namesOf(groups, (g) => parentUidOf(g.uid), "group"),
  refersTo: (group) => [parentUidOf(group.uid)],
  declare: (build, groups) => groups.map((group) => build.named("Group", group)),
};

const roleDeclarer: Declarer<Role, RoleDeclaration> = {
  variable: "role",
  select: (build) => (build.options.declareCustomRoles ? build.customRoles() : []),
  name: (build, roles) => build.namesOf(roles, (r) => roleGroupUid(r.uid)!, "role"),
  refersTo: (role) => [roleGroupUid(role.uid)!],
  declare: (build, roles) => {
    const declarations = roles.map((role) => ({
      ...build.named("Role", role),
      capabilities: [...new Set(role.capabilities)].sort(compareText),
    }));
    if (!build.options.declareCustomRoles) {
      for (const role of build.customRoles()) {
        build.omissions.push({
          what: `custom role "${role.name}" (${role.uid}, ${build.capabilitiesNote(role)})`,
          why: "not declared (declareCustomRoles is off): bindings look it up instead",
        });
      }
    }
    return declarations;
  },
};

const identityDeclarer: Declarer<Identity, IdentityDeclaration> = {
  variable: "identity",
  select: (build) =>
    build.live.identities
      .filter((identity) => {
        const what = `identity "${identity.name}" (${identity.uid})`;
        if (build.leavesOut(identity.uid)) {
          build.omissions.push({ what, why: SELF_LEFT_OUT });
          return false;
        }
        if (relationshipOf(identity)) return true;
        build.omissions.push({
          what,
          why: "skipped: its answer carries no relationship this version of pulumi-irm knows (claimMatch, staticKeys, awsIdentity or servicePrincipal, with their required members)",
        });
        return false;
      })
      .sort(build.inGroupOrder((i) => parentUidOf(i.uid))),
  name: (build, identities) => build.namesOf(identities, (i) => parentUidOf(i.uid), "identity"),
  refersTo: (identity) => [parentUidOf(identity.uid)],
  declare: (build, identities) =>
    identities.map((identity) => ({
      ...build.named("Identity", identity),
      relationship: relationshipOf(identity)!,
      ...(build.isSelf(identity.uid) ? { self: true } : {}),
    })),
};

const identityProviderDeclarer: Declarer<LiveIdentityProvider, IdentityProviderDeclaration> = {
  variable: "idp",
  select: (build) =>
    [...build.live.identityProviders].sort(build.inGroupOrder((p) => parentUidOf(p.uid))),
  name: (build, providers) => build.namesOf(providers, (p) => parentUidOf(p.uid), "idp"),
  refersTo: (provider) => [parentUidOf(provider.uid), provider.defaultRole],
  declare: (build, providers) =>
    providers.map((provider) => {
      const { resourceName } = build.nameOf("IdentityProvider", provider.uid)!;
      const clientSecret: ClientSecret = {
        configKey: clientSecretKey(provider.uid),
        variable: build.variables.claim(
          [...wordsOf(resourceName), "client", "secret"],
          "secret",
          provider.uid,
        ),
        resourceName,
        uid: provider.uid,
        name: provider.name,
        optional: provider.oidc.pkceEnabled,
      };
      build.clientSecrets.push(clientSecret);
      return {
        ...build.named("IdentityProvider", provider),
        defaultRole: build.roleExpression(provider.defaultRole, ""),
        oidc: oidcInputs(provider),
        clientSecret,
      };
    }),
};

const externalGroupRoleMappingDeclarer: Declarer<
  ExternalGroupRoleMapping,
  ExternalGroupRoleMappingDeclaration
> = {
  // Those of the providers the program declares, in the providers' order, then by group id.
  select: (build) =>
    build.live.externalGroupRoleMappings
      .filter((m) => build.live.identityProviders.some((p) => p.uid === m.identityProviderUid))
      .sort(
        (a, b) =>
          build.groupRank(parentUidOf(a.identityProviderUid)) -
            build.groupRank(parentUidOf(b.identityProviderUid)) ||
          compareText(a.identityProviderUid, b.identityProviderUid) ||
          compareText(a.externalGroupId, b.externalGroupId) ||
          compareText(a.uid, b.uid),
      ),
  // `sso-engineering-viewer`: the provider's resource name, the outside group, the role.
  name: (build, mappings) =>
    assignNames(
      mappings.map((m): NameCandidate<string> => {
        const provider = build.nameOf("IdentityProvider", m.identityProviderUid)?.words ?? [];
        const role = wordsOf(build.roleOf(m.roleUid)?.name ?? "role");
        return {
          item: m.uid,
          uid: m.uid,
          levels: [[...provider, ...wordsOf(m.externalGroupId), ...role]],
        };
      }),
      "mapping",
    ),
  refersTo: (m) => [m.identityProviderUid, m.roleUid, m.scope],
  declare: (build, mappings) =>
    mappings.map((m) => {
      const provider = build.variableOf("IdentityProvider", m.identityProviderUid);
      return {
        resourceName: build.nameOf("ExternalGroupRoleMapping", m.uid)!.resourceName,
        uid: m.uid,
        identityProvider: provider
          ? { kind: "resource", variable: provider }
          : build.outsideValue(
              m.identityProviderUid,
              ["identity", "provider"],
              "An identity provider.",
            ),
        externalGroupId: m.externalGroupId,
        role: build.roleExpression(m.roleUid, ""),
        // The scope is the organisation: a declared group only when the export is of it.
        scope:
          build.variableOf("Group", m.scope) !== undefined || m.scope === build.top.uid
            ? build.groupExpression(m.scope)
            : build.outsideValue(m.scope, ["organisation"], "The organisation (root group)."),
      };
    }),
};

const accountAssociationDeclarer: Declarer<LiveAccountAssociation, AccountAssociationDeclaration> =
  {
    // Those of the groups the export reaches, in group order.
    select: (build) =>
      build.live.accountAssociations
        .filter((a) => build.groupsByUid.has(a.uid))
        .sort(build.inGroupOrder((a) => a.uid)),
    // An association's container is its own group: `payments-accounts` when names repeat.
    name: (build, associations) => build.namesOf(associations, (a) => a.uid, "accounts"),
    refersTo: (association) => [
      association.uid,
      ...Object.values(association.chainguard?.serviceBindings ?? {}),
    ],
    declare: (build, associations) =>
      associations.map((association) => {
        const services = association.chainguard?.serviceBindings;
        return defined({
          resourceName: build.nameOf("AccountAssociation", association.uid)!.resourceName,
          uid: association.uid,
          group: build.groupExpression(association.uid),
          name: association.name,
          description: association.description ?? "",
          amazon: association.amazon && { account: association.amazon.account },
          google: association.google && {
            projectId: association.google.projectId,
            projectNumber: association.google.projectNumber,
          },
          azure: association.azure && {
            tenantId: association.azure.tenantId,
            clientIds: sortedRecord(association.azure.clientIds),
          },
          github: association.github && {
            appInstallations: sortedRecord(association.github.appInstallations, (app) => ({
              installations: app.installations.map((i) =>
                defined({ installationId: i.installationId, name: i.name || undefined }),
              ),
            })),
          },
          chainguard: services && {
            serviceBindings: Object.keys(services)
              .sort(compareText)
              .map((service): [string, UidExpression] => [
                service,
                build.identityExpression(services[service], ""),
              ]),
          },
        });
      }),
  };

const roleBindingDeclarer: Declarer<RoleBinding, BindingDeclaration> = {
  select: (build) =>
    build.live.bindings.filter((binding) => {
      if (!build.leavesOut(binding.identity.uid)) return true;
      build.omissions.push({
        what: `role binding of "${binding.identity.name}" to role "${binding.role.name}" (${binding.uid})`,
        why: SELF_LEFT_OUT,
      });
      return false;
    }),
  name: (build, bindings) =>
    assignNames(
      bindings.map((b): NameCandidate<string> => {
        // `platform-ci-editor`: the identity's resource name when it is declared, then the role.
        const who = build.nameOf("Identity", b.identity.uid)?.words ?? wordsOf(b.identity.name);
        const own = [...who, ...wordsOf(build.roleOf(b.role.uid)?.name ?? b.role.name)];
        const group = build.groupsByUid.get(parentUidOf(b.uid));
        const levels = [own];
        if (group) levels.push([...own, ...wordsOf(group.name)]);
        for (const words of build.containerWords(parentUidOf(b.uid)).slice(1, 3)) {
          levels.push([...levels[levels.length - 1], ...words]);
        }
        return { item: b.uid, uid: b.uid, levels };
      }),
      "binding",
    ),
  refersTo: (binding) => [parentUidOf(binding.uid), binding.identity.uid, binding.role.uid],
  declare: (build, bindings) => {
    const resourceName = (b: RoleBinding) => build.nameOf("RoleBinding", b.uid)!.resourceName;
    return [...bindings]
      .sort(
        (a, b) =>
          build.groupRank(parentUidOf(a.uid)) - build.groupRank(parentUidOf(b.uid)) ||
          compareText(resourceName(a), resourceName(b)) ||
          compareText(a.uid, b.uid),
      )
      .map((binding) => ({
        resourceName: resourceName(binding),
        uid: binding.uid,
        group: build.groupExpression(parentUidOf(binding.uid)),
        identity: build.identityExpression(binding.identity.uid, binding.identity.name),
        role: build.roleExpression(binding.role.uid, binding.role.name),
        ...(build.isSelf(binding.identity.uid) ? { self: true } : {}),
      }));
  },
};

const repoDeclarer: Declarer<LiveRepo, RepoDeclaration> = {
  select: (build) => [...build.live.repos].sort(build.inGroupOrder((r) => parentUidOf(r.uid))),
  name: (build, repos) => build.namesOf(repos, (r) => parentUidOf(r.uid), "repo"),
  refersTo: (repo) => [parentUidOf(repo.uid)],
  declare: (build, repos) =>
    repos.map((repo) =>
      defined({
        ...build.named("Repo", repo),
        catalogTier:
          repo.catalogTier && repo.catalogTier !== "CATALOG_TIER_UNSPECIFIED"
            ? repo.catalogTier
            : undefined,
        aliases: repo.aliases && repo.aliases.length > 0 ? [...repo.aliases] : undefined,
        readme: repo.readme !== "" ? repo.readme : undefined,
      }),
    ),
};

/** The words of a sink's host (`hooks.acme.example` → hooks, acme, example); none if unparsable. */
function sinkWords(sink: string): string[] {
  try {
    return wordsOf(new URL(sink).hostname);
  } catch {
    return [];
  }
}

/** A subscription has no name: `<sink host>-events`, qualified by its groups where it repeats. */
const subscriptionName = (s: Subscription) => ({
  uid: s.uid,
  name: [...sinkWords(s.sink), "events"].join(" "),
});

const subscriptionDeclarer: Declarer<Subscription, SubscriptionDeclaration> = {
  select: (build) =>
    [...build.live.subscriptions].sort(
      (a, b) =>
        build.groupRank(parentUidOf(a.uid)) - build.groupRank(parentUidOf(b.uid)) ||
        compareText(a.sink, b.sink) ||
        compareText(a.uid, b.uid),
    ),
  name: (build, subscriptions) =>
    build.namesOf(subscriptions.map(subscriptionName), (s) => parentUidOf(s.uid), "subscription"),
  refersTo: (subscription) => [parentUidOf(subscription.uid)],
  declare: (build, subscriptions) =>
    subscriptions.map((subscription) => ({
      resourceName: build.nameOf("Subscription", subscription.uid)!.resourceName,
      uid: subscription.uid,
      parent: build.groupExpression(parentUidOf(subscription.uid)),
      sink: subscription.sink,
    })),
};

/** Group invites are counted and said, never declared. */
const groupInviteDeclarer: Declarer<{ uid: string }, never> = {
  select: () => [],
  name: () => new Map(),
  refersTo: () => [],
  declare: (build) => {
    const invites = build.live.groupInvites.length;
    if (invites > 0) {
      build.omissions.push({
        what: `${invites} group invite${invites === 1 ? "" : "s"}`,
        why: INVITES_SKIPPED,
      });
    }
    return [];
  },
};

/** The declarer of each kind; `KINDS` (kinds.ts) gives their order. */
const DECLARERS: Record<KindName, Declarer<{ uid: string }, unknown>> = {
  Group: groupDeclarer,
  Role: roleDeclarer,
  Identity: identityDeclarer,
  IdentityProvider: identityProviderDeclarer,
  ExternalGroupRoleMapping: externalGroupRoleMappingDeclarer,
  AccountAssociation: accountAssociationDeclarer,
  RoleBinding: roleBindingDeclarer,
  Repo: repoDeclarer,
  Subscription: subscriptionDeclarer,
  GroupInvite: groupInviteDeclarer,
};

/**
 * The program for what was read. Every kind's declarer, in the order of `KINDS`, takes
 * one step before any takes the next, since a step of one kind may need an earlier
 * step of another: a binding's name starts with its identity's, and a reference
 * needs the variable of what it refers to.
 */
export function buildProgram(live: LiveOrganisation, options: ProgramOptions): ExportedProgram {
  const build = new Build(live, options);
  // 1. What each kind declares; what it leaves out goes to `omissions`.
  const steps = KINDS.map((kind) => {
    const declarer = DECLARERS[kind.type];
    return { kind, declarer, items: declarer.select(build) };
  });
  // 2. Names, kind by kind: a binding's name starts with its identity's.
  for (const { kind, declarer, items } of steps) {
    build.names.set(kind.type, declarer.name(build, items));
  }
  // 3. Who is referred to: only those get a variable.
  for (const { declarer, items } of steps) {
    for (const item of items) for (const uid of declarer.refersTo(item)) build.referenced.add(uid);
  }
  // 4. The variables of the declared objects, before any reference claims one.
  for (const { kind, declarer, items } of steps) {
    const word = declarer.variable;
    if (word === undefined) continue;
    const claimed = new Map<string, string>();
    for (const { uid } of items.filter((item) => build.referenced.has(item.uid))) {
      claimed.set(uid, build.variables.claim(build.nameOf(kind.type, uid)!.words, word, uid));
    }
    build.declaredVariables.set(kind.type, claimed);
  }
  // 5. The declarations, each reference written as a variable, a lookup or a config value.
  const declared = steps.map(({ kind, declarer, items }) => ({
    kind,
    declarations: declarer.declare(build, items),
  }));
  return {
    top: { uid: live.top.uid, name: live.top.name, isRoot: live.topIsRoot },
    outside: build.outside,
    lookups: build.lookups,
    ...Object.fromEntries(
      declared.flatMap(({ kind, declarations }) =>
        "declared" in kind ? [[kind.declared.program, declarations]] : [],
      ),
    ),
    clientSecrets: build.clientSecrets,
    skippedInvites: live.groupInvites.length,
    omissions: build.omissions,
  } as ExportedProgram;
}
