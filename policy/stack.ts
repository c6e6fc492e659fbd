/**
 * What a stack declares about IRM objects, and how a role binding's uids are traced
 * back to names a person can judge.
 *
 * A binding only holds uids (`groupUid`, `identityUid`, `roleUid`) and, for a built-in
 * role, its name (`builtInRoleName`: built-in roles can never be renamed). It keeps no
 * copy of its group's or identity's names or of a custom role's name, which can change
 * without the binding changing. Its group, identity and role are found, in this order:
 * 1. the stack resource its property depends on (`propertyDependencies`): works in
 *    preview, when the uid of a resource about to be created is not known yet;
 * 2. the stack resource whose `uid` output equals the uid;
 * 3. for the role only: the binding's `builtInRoleName`, present once it exists;
 * 4. for the role only: the `builtInRoleName` of another binding of the stack with the
 *    same `roleUid`: a new binding of a role some existing binding already uses is
 *    judged in preview.
 * When none of these answers, the fact is reported as not known yet, with the reason.
 *
 * `roleOf` answers the same question for the role a binding or an IdentityProvider
 * (`defaultRole`) names, with its capabilities, which the privileged-role policies
 * judge; it also reads what the provider's check read of the role (`checkedRole`).
 */
import type { PolicyResource } from "@pulumi/policy";
import { isBuiltInRoleUid, parentOf } from "../sdk/uids";
import type { Fact, RoleFacts } from "./facts";
import { BUILT_IN_ROLE_CAPABILITIES } from "./privileged";
import { IRM_TYPES, isIrmType } from "./resource-types";
import { readPath, readString, UNKNOWN } from "./values";

export type { Fact, RoleFacts } from "./facts";
export { IRM_TYPES } from "./resource-types";

const known = <T>(value: T): Fact<T> => ({ known: true, value });
const notKnown = <T>(reason: string): Fact<T> => ({ known: false, reason });

/** The three objects a role binding connects. */
type BindingEnd = "identity" | "group" | "role";

const UID_PROPERTY: Record<BindingEnd, string> = {
  identity: "identityUid",
  group: "groupUid",
  role: "roleUid",
};

/** The type of the resource at each end of a binding. */
const END_TYPE: Record<BindingEnd, string> = {
  identity: IRM_TYPES.identity,
  group: IRM_TYPES.group,
  role: IRM_TYPES.role,
};

/** Where the facts about one end of a binding come from. */
interface EndSources {
  /** The stack resource that declares it, if any. */
  declared?: PolicyResource;
  /** Its uid, when known. */
  uid?: string;
  /** True when the binding's uid property holds a value that is not known yet. */
  uidUnknown: boolean;
}

/** How an identity authenticates, as far as a policy needs to know. */
export interface IdentityAuthentication {
  /** The exact OIDC issuer; `""` for none; absent for an issuer pattern or AWS. */
  issuer?: string;
  /** In words, for messages: `the external OIDC issuer https://...`, `AWS (account ...)`. */
  description: string;
}

/**
 * The published capability set of the built-in role `name`, or undefined: a name read
 * from state or inputs is never looked up on the object's prototype (`constructor`).
 */
function publishedSet(name: string): readonly string[] | undefined {
  return Object.hasOwn(BUILT_IN_ROLE_CAPABILITIES, name)
    ? BUILT_IN_ROLE_CAPABILITIES[name]
    : undefined;
}

/** What the provider's `check` read of the role a resource grants (`checkedRole`). */
function checkedRole(resource: PolicyResource, uid: string): RoleFacts | undefined {
  const record = readPath(resource.props, "checkedRole");
  const role = hydratedRole(record);
  if (role?.uid !== uid) return undefined;
  // A built-in role is recorded without its capabilities: its published set.
  const published = readPath(record, "builtIn") === true ? publishedSet(role.name) : undefined;
  return { name: role.name, capabilities: role.capabilities ?? published };
}

interface HydratedRole {
  uid: string;
  name: string;
  capabilities?: readonly string[];
}

/** A list of strings, or undefined when the value is not one (or not known yet). */
function stringArray(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.map((_, index) => readPath(value, String(index)));
  return items.every((item): item is string => typeof item === "string") ? items : undefined;
}

/** A GroupInvite's hydrated `role`, when it is one. */
function hydratedRole(value: unknown): HydratedRole | undefined {
  const uid = readString(value, "uid");
  const name = readString(value, "name");
  if (typeof uid !== "string" || uid === "" || typeof name !== "string") return undefined;
  return { uid, name, capabilities: stringArray(readPath(value, "capabilities")) };
}

/** How an identity with these properties authenticates, or undefined when not known yet. */
function authenticationOf(props: Record<string, unknown>): IdentityAuthentication | undefined {
  for (const path of [
    ["claimMatch", "issuer"],
    ["staticKeys", "issuer"],
  ]) {
    const issuer = readString(props, ...path);
    if (typeof issuer === "string" && issuer !== "") {
      const keys = path[0] === "staticKeys" ? " (with registered static keys)" : "";
      return { issuer, description: `the external OIDC issuer ${issuer}${keys}` };
    }
  }
  const pattern = readString(props, "claimMatch", "issuerPattern");
  if (typeof pattern === "string" && pattern !== "") {
    return { description: `any external OIDC issuer matching '${pattern}'` };
  }
  const account = readString(props, "awsIdentity", "awsAccount");
  if (typeof account === "string" && account !== "") {
    return { description: `AWS (account ${account})` };
  }
  if (typeof readString(props, "servicePrincipal") === "string") {
    return { issuer: "", description: "a platform service principal" };
  }
  const claimIssuer = readString(props, "claimMatch", "issuer");
  if (claimIssuer === "") return { issuer: "", description: "no external issuer" };
  return undefined;
}

/** The resources of a stack, indexed to answer questions about role bindings. */
export class IrmStack {
  private readonly byUid = new Map<string, PolicyResource>();
  /** Role uid → the name of that built-in role, as a binding of the stack records it. */
  private readonly builtInRoleNames = new Map<string, string>();
  /** Role uid → the role as a GroupInvite of the stack holds it (hydrated by the API). */
  private readonly invitedRoles = new Map<string, HydratedRole>();
  /** Role uids that a binding of the stack records as custom roles. */
  private readonly customRoles = new Set<string>();
  readonly bindings: PolicyResource[];

  constructor(readonly resources: readonly PolicyResource[]) {
    for (const resource of resources) {
      // An account association's uid is its group's: indexing it would hide the group.
      if (!isIrmType(resource.type) || resource.type === IRM_TYPES.accountAssociation) continue;
      const uid = readString(resource.props, "uid");
      if (typeof uid === "string" && uid !== "") this.byUid.set(uid, resource);
    }
    this.bindings = resources.filter((resource) => resource.type === IRM_TYPES.roleBinding);
    for (const binding of this.bindings) {
      const roleUid = readString(binding.props, "roleUid");
      const name = readString(binding.props, "builtInRoleName");
      if (typeof roleUid !== "string" || roleUid === "" || typeof name !== "string") continue;
      if (name === "") this.customRoles.add(roleUid);
      else this.builtInRoleNames.set(roleUid, name);
    }
    for (const invite of resources.filter((resource) => resource.type === IRM_TYPES.groupInvite)) {
      const role = hydratedRole(readPath(invite.props, "role"));
      if (role) this.invitedRoles.set(role.uid, role);
    }
  }

  /**
   * The role a resource names by uid in `property` (a RoleBinding's `roleUid`, an
   * IdentityProvider's `defaultRole`), found, in this order: the `Role` resource the
   * property depends on; the `Role` resource of the stack with that uid; what the
   * provider's check read of it (`checkedRole`, for that very uid); a GroupInvite of
   * the stack whose state holds that role, hydrated by the API with its capabilities; a
   * recorded built-in role name, with that role's published capability set.
   */
  roleOf(resource: PolicyResource, property: string): Fact<RoleFacts> {
    const rawUid = readString(resource.props, property);
    const uid = typeof rawUid === "string" && rawUid !== "" ? rawUid : undefined;
    const declared = this.declaredRole(resource, property, uid);
    if (declared) {
      const name = readString(declared.props, "name");
      if (typeof name !== "string") {
        return notKnown(`the role '${declared.name}' that it refers to has no known name yet`);
      }
      return known({ name, capabilities: stringArray(readPath(declared.props, "capabilities")) });
    }
    if (uid !== undefined) {
      const checked = checkedRole(resource, uid);
      if (checked) return known(checked);
      const invited = this.invitedRoles.get(uid);
      if (invited) return known({ name: invited.name, capabilities: invited.capabilities });
      const builtIn =
        resource.type === IRM_TYPES.roleBinding
          ? this.builtInRoleName(resource, uid)
          : this.builtInRoleNames.get(uid);
      if (builtIn !== undefined) {
        return known({ name: builtIn, capabilities: publishedSet(builtIn) });
      }
      if (!isBuiltInRoleUid(uid) || this.customRoles.has(uid)) {
        return notKnown(
          `role ${uid} is a custom role of group ${parentOf(uid) ?? "(unknown)"} that is not declared in this stack, and neither the provider's check nor a group invite of the stack holds its capabilities`,
        );
      }
      return notKnown(
        `role ${uid} is not declared in this stack, the provider's check did not read it, and no role binding or group invite of the stack records its name`,
      );
    }
    const dependedOn = resource.propertyDependencies?.[property] ?? [];
    if (rawUid === UNKNOWN) {
      const from =
        dependedOn.length > 0 ? ` (from ${dependedOn.map((r) => `'${r.name}'`).join(", ")})` : "";
      return notKnown(
        `its ${property} is computed during the update${from} and is not known in preview`,
      );
    }
    return notKnown(`it has no ${property}`);
  }

  /** The `Role` resource of the stack that `property` refers to: by dependency, else by uid. */
  private declaredRole(
    resource: PolicyResource,
    property: string,
    uid: string | undefined,
  ): PolicyResource | undefined {
    const dependedOn = (resource.propertyDependencies?.[property] ?? []).filter(
      (other) => other.type === IRM_TYPES.role,
    );
    if (dependedOn.length === 1) return dependedOn[0];
    const byUid = uid === undefined ? undefined : this.byUid.get(uid);
    return byUid?.type === IRM_TYPES.role ? byUid : undefined;
  }

  /**
   * True when the resource's properties are the inputs of a create or a change this
   * preview plans (the engine gives those as its state: no `uid` yet); false for an
   * object as it exists (its state has a uid).
   */
  planned(resource: PolicyResource): boolean {
    return readString(resource.props, "uid") === undefined;
  }

  /** The built-in role name recorded for this role uid by this binding or another one. */
  private builtInRoleName(binding: PolicyResource, uid: string | undefined): string | undefined {
    const own = readString(binding.props, "builtInRoleName");
    if (typeof own === "string" && own !== "") return own;
    return uid === undefined ? undefined : this.builtInRoleNames.get(uid);
  }

  private sources(binding: PolicyResource, end: BindingEnd): EndSources {
    const property = UID_PROPERTY[end];
    const rawUid = readString(binding.props, property);
    const uid = typeof rawUid === "string" && rawUid !== "" ? rawUid : undefined;
    // A uid computed from another kind of resource is not that resource's: a role uid from
    // a group's uid, a group uid from a repo's, a subscription's or an identity's
    // `parentUid`. Only a resource of the end's own kind is the end.
    const dependedOn = (binding.propertyDependencies?.[property] ?? []).filter(
      (resource) => resource.type === END_TYPE[end],
    );
    const declared =
      dependedOn.length === 1 ? dependedOn[0] : uid !== undefined ? this.byUid.get(uid) : undefined;
    return { declared, uid, uidUnknown: rawUid === UNKNOWN };
  }

  /**
   * A key that is equal for two bindings exactly when they point at the same object,
   * or `undefined` when that cannot be told yet.
   */
  endKey(binding: PolicyResource, end: BindingEnd): string | undefined {
    const { declared, uid } = this.sources(binding, end);
    if (declared) return `urn:${declared.urn}`;
    return uid === undefined ? undefined : `uid:${uid}`;
  }

  /** The name of the identity, group or role at one end of a binding. */
  name(binding: PolicyResource, end: BindingEnd): Fact<string> {
    const sources = this.sources(binding, end);
    const declaredName = sources.declared ? readString(sources.declared.props, "name") : undefined;
    if (typeof declaredName === "string") return known(declaredName);
    if (end === "role") {
      const checked = sources.uid === undefined ? undefined : checkedRole(binding, sources.uid);
      if (checked) return known(checked.name);
      const builtIn = this.builtInRoleName(binding, sources.uid);
      if (builtIn !== undefined) return known(builtIn);
    }
    return notKnown(this.whyUnknown(sources, end));
  }

  /** The OIDC issuer the bound identity authenticates with. */
  identityIssuer(binding: PolicyResource): Fact<string> {
    const sources = this.sources(binding, "identity");
    const declaredIssuer = sources.declared
      ? readString(sources.declared.props, "claimMatch", "issuer")
      : undefined;
    if (typeof declaredIssuer === "string") return known(declaredIssuer);
    return notKnown(this.whyUnknown(sources, "identity"));
  }

  /**
   * How the bound identity authenticates, by its kind: an exact OIDC issuer
   * (`claimMatch.issuer`, `staticKeys.issuer`), an issuer pattern, an AWS account, or a
   * service principal (only platform services assume those: reported as issuer `""`,
   * like an identity with no outside issuer).
   */
  identityAuthentication(binding: PolicyResource): Fact<IdentityAuthentication> {
    const sources = this.sources(binding, "identity");
    const props = sources.declared?.props;
    if (props !== undefined) {
      const auth = authenticationOf(props);
      if (auth !== undefined) return known(auth);
    } else {
      // The uid is picked from several declared identities (a map of them): when they
      // all authenticate alike, so does the one picked.
      const candidates = (binding.propertyDependencies?.identityUid ?? []).filter(
        (resource) => resource.type === IRM_TYPES.identity,
      );
      const auths = candidates.map((candidate) => authenticationOf(candidate.props));
      const first = auths[0];
      if (
        first !== undefined &&
        auths.every((auth) => auth !== undefined && auth.description === first.description)
      ) {
        return known(first);
      }
    }
    return notKnown(this.whyUnknown(sources, "identity"));
  }

  /** The group's uid when known; whether it is a root organisation group. */
  groupIsRoot(binding: PolicyResource): Fact<boolean> {
    const sources = this.sources(binding, "group");
    if (sources.uid !== undefined) return known(!sources.uid.includes("/"));
    // A Group resource always has a parent: the stack cannot create a root organisation.
    if (sources.declared?.type === IRM_TYPES.group) return known(false);
    return notKnown(this.whyUnknown(sources, "group"));
  }

  /** The group's uid, for messages. */
  groupUid(binding: PolicyResource): string | undefined {
    return this.sources(binding, "group").uid;
  }

  private whyUnknown(sources: EndSources, end: BindingEnd): string {
    const property = UID_PROPERTY[end];
    if (sources.declared) {
      return `the ${end} '${sources.declared.name}' that it refers to has no known ${end === "identity" ? "issuer" : "name"} yet`;
    }
    if (sources.uid !== undefined && end === "role") {
      // A custom role's uid is its group's child; a binding's record says so as well.
      if (!isBuiltInRoleUid(sources.uid) || this.customRoles.has(sources.uid)) {
        return `role ${sources.uid} is a custom role, whose name can change, so bindings do not record it`;
      }
      return `role ${sources.uid} is not declared in this stack and no binding of the stack records its built-in role name yet (the binding is created or changed by this update)`;
    }
    if (sources.uid !== undefined) {
      return `${end} ${sources.uid} is not declared in this stack (a binding keeps no copy of its ${end === "identity" ? "name or issuer" : "name"}, which can change without the binding changing)`;
    }
    if (sources.uidUnknown) {
      return `its ${property} is computed during the update and is not known in preview`;
    }
    return `it has no ${property}`;
  }
}
