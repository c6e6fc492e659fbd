/**
 * What the declarers of one program share (`Build`: the organisation read, its group
 * order, the names and references handed out so far) and the steps each declarer takes
 * (`Declarer`), which `buildProgram` (../program.ts) runs kind by kind.
 */
import { type Group, type Identity, type Role, roleGroupUid } from "../../sdk/index";
import type {
  ClientSecret,
  DeclaredChild,
  Omission,
  OutsideValue,
  ProgramOptions,
  RoleLookup,
  UidExpression,
} from "../declarations";
import type { KindName } from "../kinds";
import type { LiveOrganisation } from "../live";
import {
  type AssignedName,
  assignNames,
  type NameCandidate,
  VariableNames,
  wordsOf,
} from "../names";
import { byNameThenUid, parentUidOf } from "./values";

/** Why the identity the token acts as, and its bindings, are left out by default. */
export const SELF_LEFT_OUT =
  "left out: this export's token acts as it, and a stack declaring it could delete it (`pulumi destroy`, or a line removed from the program) and lock you out; export with --include-self to declare it and its bindings, protected";

/**
 * What the declarers of one program share: the organisation read, the order and names
 * of its groups, and the names and references handed out so far. Variables are
 * claimed in one order (declared objects kind by kind, then each reference as it is
 * first written), so the same organisation always gets the same text.
 */
export class Build {
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
export interface Declarer<T extends { uid: string }, D> {
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
