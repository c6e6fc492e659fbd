/**
 * The program an export writes, as data: which resources it declares, with which
 * names and inputs, and how each one refers to the others. Built from what was read
 * (read.ts) and turned into text by render.ts.
 *
 * Inputs are the live objects' values exactly as the provider compares them (see
 * provider/handlers/*.ts and docs/provider.md "Adoption"), so adopting sends no PATCH.
 */
import {
  type AwsIdentity,
  type ClaimMatch,
  type Group,
  type Identity,
  type Role,
  type RoleBinding,
  roleGroupUid,
  type StaticKeysCreate,
} from "../sdk/index";
import {
  type AssignedName,
  assignNames,
  type NameCandidate,
  VariableNames,
  wordsOf,
} from "./names";
import type { LiveGithubApp, LiveIdentityProvider, LiveOrganisation } from "./read";

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

/** An account association; `chainguard` names identities, which the program refers to. */
export interface AccountAssociationDeclaration {
  resourceName: string;
  /** The group's uid (an association has none of its own). */
  uid: string;
  group: UidExpression;
  name: string;
  description: string;
  amazon?: { account: string };
  google?: { projectId: string; projectNumber: string };
  azure?: { tenantId: string; clientIds: Record<string, string> };
  github?: { appInstallations: Record<string, LiveGithubApp> };
  /** Service name to the identity, in key order. */
  chainguard?: { serviceBindings: Array<[string, UidExpression]> };
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
  accountAssociations: AccountAssociationDeclaration[];
  bindings: BindingDeclaration[];
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

export function buildProgram(live: LiveOrganisation, options: ProgramOptions): ExportedProgram {
  const { top } = live;
  const omissions: Omission[] = [];
  const variables = new VariableNames();
  /** The identity the token acts as, when it is declared only on request. */
  const caller = live.callerUid;
  const isSelf = (identityUid: string) => caller !== undefined && identityUid === caller;
  const includeSelf = options.includeSelf ?? false;

  // ---- groups: the chosen one (unless it is a root) and everything below, parents first
  const groupsByUid = new Map<string, Group>([
    [top.uid, top],
    ...live.groups.map((g) => [g.uid, g] as const),
  ]);
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
  const declaredGroups = live.topIsRoot ? ordered.slice(1) : ordered;
  const groupOrder = new Map(ordered.map((g, i) => [g.uid, i]));
  /** Objects in a group come in the group order, then by name and uid. */
  const inGroupOrder =
    <T extends { name: string; uid: string }>(groupOf: (item: T) => string) =>
    (a: T, b: T) =>
      (groupOrder.get(groupOf(a)) ?? 0) - (groupOrder.get(groupOf(b)) ?? 0) || byNameThenUid(a, b);

  /** Names of a group and its ancestors, nearest first, as far up as the export reaches. */
  const containerWords = (groupUid: string): string[][] => {
    const out: string[][] = [];
    for (let at = groupUid; groupsByUid.has(at); at = parentUidOf(at)) {
      out.push(wordsOf(groupsByUid.get(at)!.name));
      if (at === top.uid) break;
    }
    return out;
  };
  /** `[name]`, `[container, name]`, `[container's parent, container, name]`, ... */
  const qualified = (containerUid: string, own: string[]): string[][] => {
    const levels = [own];
    let prefix: string[] = [];
    for (const words of containerWords(containerUid)) {
      prefix = [...words, ...prefix];
      levels.push([...prefix, ...own]);
    }
    return levels;
  };

  // ---- identities, each with its kind
  const relationships = new Map<string, Relationship>();
  const identities = live.identities
    .filter((identity) => {
      if (isSelf(identity.uid) && !includeSelf) {
        omissions.push({
          what: `identity "${identity.name}" (${identity.uid})`,
          why: SELF_LEFT_OUT,
        });
        return false;
      }
      const relationship = relationshipOf(identity);
      if (relationship) {
        relationships.set(identity.uid, relationship);
        return true;
      }
      omissions.push({
        what: `identity "${identity.name}" (${identity.uid})`,
        why: "skipped: its answer carries no relationship this version of pulumi-irm knows (claimMatch, staticKeys, awsIdentity or servicePrincipal, with their required members)",
      });
      return false;
    })
    .sort(inGroupOrder((i) => parentUidOf(i.uid)));
  const identitiesByUid = new Map(identities.map((i) => [i.uid, i]));
  const liveBindings = live.bindings.filter((binding) => {
    if (!isSelf(binding.identity.uid) || includeSelf) return true;
    omissions.push({
      what: `role binding of "${binding.identity.name}" to role "${binding.role.name}" (${binding.uid})`,
      why: SELF_LEFT_OUT,
    });
    return false;
  });

  // ---- roles: a custom role's uid is its group's child, a built-in role's has no parent
  const rolesByUid = new Map(live.roles.map((r) => [r.uid, r]));
  /** The group of a custom role (from its uid); undefined for a built-in role. */
  const roleGroup = (role: Role) => roleGroupUid(role.uid);
  const roleNameCount = new Map<string, number>();
  for (const role of live.roles)
    roleNameCount.set(role.name, (roleNameCount.get(role.name) ?? 0) + 1);
  const inSubtree = (groupUid: string) =>
    groupUid === top.uid || groupUid.startsWith(`${top.uid}/`);
  const customRoles = live.roles
    .filter((role) => {
      const group = roleGroup(role);
      return group !== undefined && inSubtree(group);
    })
    .sort(inGroupOrder((r) => roleGroup(r)!));
  const declaredRoles = options.declareCustomRoles ? customRoles : [];

  // ---- identity providers and account associations
  const identityProviders = [...live.identityProviders].sort(
    inGroupOrder((p) => parentUidOf(p.uid)),
  );
  const associations = live.accountAssociations
    .filter((a) => groupsByUid.has(a.uid))
    .sort(inGroupOrder((a) => a.uid));

  // ---- names, per resource type
  /** Names from each object's own name, qualified by its groups' names where they repeat. */
  const namesOf = <T extends { name: string; uid: string }>(
    items: T[],
    containerOf: (item: T) => string,
    fallback: string,
  ) =>
    assignNames(
      items.map(
        (item): NameCandidate<T> => ({
          item,
          uid: item.uid,
          levels: qualified(containerOf(item), wordsOf(item.name)),
        }),
      ),
      fallback,
    );
  const groupNames = namesOf(declaredGroups, (g) => parentUidOf(g.uid), "group");
  const identityNames = namesOf(identities, (i) => parentUidOf(i.uid), "identity");
  const roleNames = namesOf(declaredRoles, (r) => roleGroup(r)!, "role");
  const providerNames = namesOf(identityProviders, (p) => parentUidOf(p.uid), "idp");
  // An association's container is its own group: `payments-accounts` when names repeat.
  const associationNames = namesOf(associations, (a) => a.uid, "accounts");
  const bindingNames = assignNames(
    liveBindings.map((b): NameCandidate<RoleBinding> => {
      // `platform-ci-editor`: the identity's resource name when it is declared, then the role.
      const identity = identitiesByUid.get(b.identity.uid);
      const who = identity ? identityNames.get(identity)!.words : wordsOf(b.identity.name);
      const own = [...who, ...wordsOf(rolesByUid.get(b.role.uid)?.name ?? b.role.name)];
      const group = groupsByUid.get(parentUidOf(b.uid));
      const levels = [own];
      if (group) levels.push([...own, ...wordsOf(group.name)]);
      for (const words of containerWords(parentUidOf(b.uid)).slice(1, 3)) {
        levels.push([...levels[levels.length - 1], ...words]);
      }
      return { item: b, uid: b.uid, levels };
    }),
    "binding",
  );

  // ---- who is referred to: only those get a variable
  const referenced = new Set<string>();
  for (const g of declaredGroups) referenced.add(parentUidOf(g.uid));
  for (const i of identities) referenced.add(parentUidOf(i.uid));
  for (const r of declaredRoles) referenced.add(roleGroup(r)!);
  for (const p of identityProviders) {
    referenced.add(parentUidOf(p.uid));
    referenced.add(p.defaultRole);
  }
  for (const a of associations) {
    referenced.add(a.uid);
    for (const uid of Object.values(a.chainguard?.serviceBindings ?? {})) referenced.add(uid);
  }
  for (const b of liveBindings) {
    referenced.add(parentUidOf(b.uid));
    referenced.add(b.identity.uid);
    referenced.add(b.role.uid);
  }

  /**
   * The members every declaration of a named object has: its names (a variable only
   * when something refers to it, recorded in `variableOf`) and its own fields. The
   * parent is filled in once every variable is known.
   */
  const namedDeclaration = <T extends { uid: string; name: string; description?: string }>(
    object: T,
    names: Map<T, AssignedName>,
    kind: string,
    variableOf: Map<string, string>,
  ) => {
    const name = names.get(object)!;
    const variable = referenced.has(object.uid)
      ? variables.claim(name.words, kind, object.uid)
      : undefined;
    if (variable) variableOf.set(object.uid, variable);
    return {
      variable,
      resourceName: name.resourceName,
      uid: object.uid,
      parent: { kind: "outside", variable: "" } as UidExpression,
      name: object.name,
      description: object.description ?? "",
    };
  };
  const groupVariables = new Map<string, string>();
  const groups: GroupDeclaration[] = declaredGroups.map((group) =>
    namedDeclaration(group, groupNames, "group", groupVariables),
  );
  const roleVariables = new Map<string, string>();
  const roleDeclarations: RoleDeclaration[] = declaredRoles.map((role) => ({
    ...namedDeclaration(role, roleNames, "role", roleVariables),
    capabilities: [...new Set(role.capabilities)].sort(compareText),
  }));
  const identityVariables = new Map<string, string>();
  const identityDeclarations: IdentityDeclaration[] = identities.map((identity) => ({
    ...namedDeclaration(identity, identityNames, "identity", identityVariables),
    relationship: relationships.get(identity.uid)!,
    ...(isSelf(identity.uid) ? { self: true } : {}),
  }));

  // ---- outside values and lookups, claimed after the declared objects' names
  const outside: OutsideValue[] = [];
  const outsideByUid = new Map<string, string>();
  const outsideValue = (uid: string, words: string[], describes: string): UidExpression => {
    let variable = outsideByUid.get(uid);
    if (variable === undefined) {
      variable = variables.claim([...words, "uid"], "outside", uid);
      outsideByUid.set(uid, variable);
      outside.push({ variable, configKey: variable, uid, describes });
    }
    return { kind: "outside", variable };
  };
  const groupExpression = (uid: string): UidExpression => {
    const variable = groupVariables.get(uid);
    if (variable) return { kind: "resource", variable };
    // Only the chosen group's parent, or a root chosen group, lies outside.
    if (uid === top.uid)
      return outsideValue(uid, ["root", "group"], `The root organisation "${top.name}".`);
    return outsideValue(uid, ["parent", "group"], `The parent group of "${top.name}".`);
  };
  // Every one of them is its parent group's child, custom roles included.
  for (const declaration of [...groups, ...roleDeclarations, ...identityDeclarations]) {
    declaration.parent = groupExpression(parentUidOf(declaration.uid));
  }

  const lookups: RoleLookup[] = [];
  const lookupByName = new Map<string, string>();
  const lookup = (name: string, uid: string, note?: string): UidExpression => {
    let variable = lookupByName.get(name);
    if (variable === undefined) {
      variable = variables.claim([...wordsOf(name), "role"], "lookup", uid);
      lookupByName.set(name, variable);
      lookups.push({ variable, name, note });
    }
    return { kind: "lookup", variable };
  };
  const capabilitiesNote = (role: Role) => {
    const group = roleGroup(role)!;
    const where = groupsByUid.get(group)?.name ?? group;
    return `custom role of "${where}": ${[...role.capabilities].sort().join(", ")}`;
  };
  if (!options.declareCustomRoles) {
    for (const role of customRoles) {
      omissions.push({
        what: `custom role "${role.name}" (${role.uid}, ${capabilitiesNote(role)})`,
        why: "not declared (declareCustomRoles is off): bindings look it up instead",
      });
    }
  }

  /** A declared role by variable; else a lookup by name when unique; else a config value. */
  const roleExpression = (uid: string, knownName: string): UidExpression => {
    const declared = roleVariables.get(uid);
    if (declared) return { kind: "resource", variable: declared };
    const role = rolesByUid.get(uid);
    const name = role?.name ?? knownName;
    // A lookup by name finds exactly one role only when the name is unique.
    if (roleNameCount.get(name) === 1 && role !== undefined) {
      return lookup(name, uid, roleGroup(role) === undefined ? undefined : capabilitiesNote(role));
    }
    return outsideValue(
      uid,
      wordsOf(name).concat("role"),
      role === undefined
        ? `The role ${uid}${knownName ? ` ("${knownName}")` : ""}, which this token cannot list.`
        : `The role "${name}" (its name is not unique, so it is not looked up).`,
    );
  };
  // Every identity read, declared or not: looked up once per binding and service binding.
  const liveIdentitiesByUid = new Map(live.identities.map((i) => [i.uid, i]));
  const identityExpression = (uid: string, knownName: string): UidExpression => {
    const variable = identityVariables.get(uid);
    if (variable) return { kind: "resource", variable };
    const identity = liveIdentitiesByUid.get(uid);
    const name = identity?.name ?? knownName;
    if (isSelf(uid) && !includeSelf) {
      return outsideValue(
        uid,
        wordsOf(name),
        `The identity "${name}" this export's token acts as (not declared, so no run deletes it).`,
      );
    }
    return outsideValue(
      uid,
      wordsOf(name),
      `The identity "${name}"${identity ? " (its kind is not known to this version of pulumi-irm)" : ", outside the exported group"}.`,
    );
  };

  const clientSecrets: ClientSecret[] = [];
  const providerDeclarations: IdentityProviderDeclaration[] = identityProviders.map((provider) => {
    const base = namedDeclaration(provider, providerNames, "idp", new Map());
    const clientSecret: ClientSecret = {
      configKey: clientSecretKey(provider.uid),
      variable: variables.claim(
        [...wordsOf(base.resourceName), "client", "secret"],
        "secret",
        provider.uid,
      ),
      resourceName: base.resourceName,
      uid: provider.uid,
      name: provider.name,
      optional: provider.oidc.pkceEnabled,
    };
    clientSecrets.push(clientSecret);
    return {
      ...base,
      parent: groupExpression(parentUidOf(provider.uid)),
      defaultRole: roleExpression(provider.defaultRole, ""),
      oidc: oidcInputs(provider),
      clientSecret,
    };
  });

  const associationDeclarations: AccountAssociationDeclaration[] = associations.map(
    (association) => {
      const services = association.chainguard?.serviceBindings;
      return defined({
        resourceName: associationNames.get(association)!.resourceName,
        uid: association.uid,
        group: groupExpression(association.uid),
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
              identityExpression(services[service], ""),
            ]),
        },
      });
    },
  );

  const bindings: BindingDeclaration[] = [...liveBindings]
    .sort(
      (a, b) =>
        (groupOrder.get(parentUidOf(a.uid)) ?? 0) - (groupOrder.get(parentUidOf(b.uid)) ?? 0) ||
        compareText(bindingNames.get(a)!.resourceName, bindingNames.get(b)!.resourceName) ||
        compareText(a.uid, b.uid),
    )
    .map((binding) => ({
      resourceName: bindingNames.get(binding)!.resourceName,
      uid: binding.uid,
      group: groupExpression(parentUidOf(binding.uid)),
      identity: identityExpression(binding.identity.uid, binding.identity.name),
      role: roleExpression(binding.role.uid, binding.role.name),
      ...(isSelf(binding.identity.uid) ? { self: true } : {}),
    }));

  const invites = live.groupInvites.length;
  if (invites > 0) {
    omissions.push({
      what: `${invites} group invite${invites === 1 ? "" : "s"}`,
      why: INVITES_SKIPPED,
    });
  }

  return {
    top: { uid: top.uid, name: top.name, isRoot: live.topIsRoot },
    outside,
    lookups,
    groups,
    roles: roleDeclarations,
    identities: identityDeclarations,
    identityProviders: providerDeclarations,
    accountAssociations: associationDeclarations,
    bindings,
    clientSecrets,
    skippedInvites: invites,
    omissions,
  };
}
