/**
 * The program an export writes, as data: which resources it declares, with which
 * names and inputs, and how each one refers to the others. Built from what was read
 * (read.ts) and turned into text by render.ts.
 *
 * Inputs are the live objects' values exactly as the provider compares them (see
 * provider/handlers/*.ts and docs/provider.md "Adoption"), so adopting sends no PATCH.
 */
import type { Group, Identity, Role, RoleBinding } from "../sdk/index";
import {
  type AssignedName,
  assignNames,
  type NameCandidate,
  VariableNames,
  wordsOf,
} from "./names";
import type { LiveOrganisation } from "./read";

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

export interface GroupDeclaration {
  /** Assigned only when another declaration refers to it. */
  variable?: string;
  resourceName: string;
  uid: string;
  parent: UidExpression;
  name: string;
  description: string;
}

export interface IdentityDeclaration {
  variable?: string;
  resourceName: string;
  uid: string;
  parent: UidExpression;
  name: string;
  description: string;
  issuer: string;
  subject: string;
}

/** A custom role: declared with `irm.Role` when the package has it (see `hasRoleResource`). */
export interface RoleDeclaration {
  variable?: string;
  resourceName: string;
  uid: string;
  parent: UidExpression;
  name: string;
  description: string;
  capabilities: string[];
}

export interface BindingDeclaration {
  resourceName: string;
  uid: string;
  group: UidExpression;
  identity: UidExpression;
  role: UidExpression;
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
  identities: IdentityDeclaration[];
  /** Custom roles declared as resources (empty while the package has no `Role`). */
  roles: RoleDeclaration[];
  bindings: BindingDeclaration[];
  omissions: Omission[];
}

export interface ProgramOptions {
  /**
   * Declare custom roles as `irm.Role` resources. Extension point: true once the
   * package exports a `Role` resource (inputs `parentUid`, `name`, `description`,
   * `capabilities`, `adoptUid`, as /work/shared/docs/api-decisions-iam-extras.md
   * section 7 specifies); until then custom roles are looked up by name.
   */
  declareCustomRoles: boolean;
}

/**
 * Collections the export does not cover yet, said in the program and the plan.
 * Extension point: when the SDK and the provider gain identity providers or account
 * associations, read them in read.ts (one listing with `descendantsOf`, like the
 * others), add a declaration type here with its references (`UidExpression`), render
 * it in render.ts after the identities, and drop its entry from this list.
 */
export const NOT_EXPORTED: Omission[] = [
  {
    what: "group invites",
    why: "skipped: an invite's code cannot be read back, so adopting one is useless; create new invites instead",
  },
  {
    what: "identity providers and account associations",
    why: "not exported yet: the SDK has no client for them (extension point: exporter/program.ts)",
  },
];

const parentUidOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
/** Code-unit order, the same on every machine (unlike `localeCompare`). */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byNameThenUid = (a: { name: string; uid: string }, b: { name: string; uid: string }) =>
  compareText(a.name, b.name) || compareText(a.uid, b.uid);

/** Can the provider's `Identity` express this identity (a plain `claimMatch`)? */
function plainClaimMatch(identity: Identity): boolean {
  const match = identity.claimMatch as unknown as Record<string, unknown> | undefined;
  if (typeof match !== "object" || match === null) return false;
  const keys = Object.keys(match).filter((key) => match[key] !== undefined && match[key] !== "");
  return (
    typeof match.issuer === "string" &&
    typeof match.subject === "string" &&
    keys.every((key) => key === "issuer" || key === "subject")
  );
}

export function buildProgram(live: LiveOrganisation, options: ProgramOptions): ExportedProgram {
  const { top } = live;
  const omissions: Omission[] = [...NOT_EXPORTED];
  const variables = new VariableNames();

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

  // ---- identities the Identity resource can express
  const identities = live.identities
    .filter((identity) => {
      if (plainClaimMatch(identity)) return true;
      omissions.push({
        what: `identity "${identity.name}" (${identity.uid})`,
        why: "skipped: its kind (static keys, AWS, service principal or claim patterns) is not supported by the Identity resource yet",
      });
      return false;
    })
    .sort(
      (a, b) =>
        (groupOrder.get(parentUidOf(a.uid)) ?? 0) - (groupOrder.get(parentUidOf(b.uid)) ?? 0) ||
        byNameThenUid(a, b),
    );
  const identitiesByUid = new Map(identities.map((i) => [i.uid, i]));

  // ---- roles
  const rolesByUid = new Map(live.roles.map((r) => [r.uid, r]));
  const roleNameCount = new Map<string, number>();
  for (const role of live.roles)
    roleNameCount.set(role.name, (roleNameCount.get(role.name) ?? 0) + 1);
  const inSubtree = (groupUid: string) =>
    groupUid === top.uid || groupUid.startsWith(`${top.uid}/`);
  const customRoles = live.roles
    .filter((role) => role.parentUid !== "" && inSubtree(role.parentUid))
    .sort(
      (a, b) =>
        (groupOrder.get(a.parentUid) ?? 0) - (groupOrder.get(b.parentUid) ?? 0) ||
        byNameThenUid(a, b),
    );

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
  const roleNames = namesOf(customRoles, (r) => r.parentUid, "role");
  const bindingNames = assignNames(
    live.bindings.map((b): NameCandidate<RoleBinding> => {
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
  for (const r of customRoles) referenced.add(r.parentUid);
  for (const b of live.bindings) {
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
  const identityVariables = new Map<string, string>();
  const identityDeclarations: IdentityDeclaration[] = identities.map((identity) => ({
    ...namedDeclaration(identity, identityNames, "identity", identityVariables),
    issuer: identity.claimMatch.issuer,
    subject: identity.claimMatch.subject,
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
  groups.forEach((declaration) => {
    declaration.parent = groupExpression(parentUidOf(declaration.uid));
  });
  identityDeclarations.forEach((declaration) => {
    declaration.parent = groupExpression(parentUidOf(declaration.uid));
  });

  const roleDeclarations: RoleDeclaration[] = [];
  const roleVariables = new Map<string, string>();
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
    const where = groupsByUid.get(role.parentUid)?.name ?? role.parentUid;
    return `custom role of "${where}": ${[...role.capabilities].sort().join(", ")}`;
  };
  if (options.declareCustomRoles) {
    for (const role of customRoles) {
      roleDeclarations.push({
        ...namedDeclaration(role, roleNames, "role", roleVariables),
        parent: groupExpression(role.parentUid),
        capabilities: [...role.capabilities].sort(),
      });
    }
  } else {
    for (const role of customRoles) {
      omissions.push({
        what: `custom role "${role.name}" (${role.uid}, ${capabilitiesNote(role)})`,
        why: "not declared: this version of pulumi-irm has no Role resource; bindings look it up instead",
      });
    }
  }

  const roleExpression = (binding: RoleBinding): UidExpression => {
    const uid = binding.role.uid;
    const declared = roleVariables.get(uid);
    if (declared) return { kind: "resource", variable: declared };
    const role = rolesByUid.get(uid);
    const name = role?.name ?? binding.role.name;
    // A lookup by name finds exactly one role only when the name is unique.
    if (roleNameCount.get(name) === 1 && role !== undefined) {
      return lookup(name, uid, role.parentUid === "" ? undefined : capabilitiesNote(role));
    }
    return outsideValue(
      uid,
      wordsOf(name).concat("role"),
      `The role "${name}" (its name is not unique, so it is not looked up).`,
    );
  };
  const identityExpression = (binding: RoleBinding): UidExpression => {
    const variable = identityVariables.get(binding.identity.uid);
    if (variable) return { kind: "resource", variable };
    return outsideValue(
      binding.identity.uid,
      wordsOf(binding.identity.name),
      `The identity "${binding.identity.name}"${identitiesByUid.has(binding.identity.uid) ? " (not expressible as an Identity resource)" : ", outside the exported group"}.`,
    );
  };

  const bindings: BindingDeclaration[] = [...live.bindings]
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
      identity: identityExpression(binding),
      role: roleExpression(binding),
    }));

  return {
    top: { uid: top.uid, name: top.name, isRoot: live.topIsRoot },
    outside,
    lookups,
    groups,
    identities: identityDeclarations,
    roles: roleDeclarations,
    bindings,
    omissions,
  };
}
