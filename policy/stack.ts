/**
 * What a stack declares about IRM objects, and how a role binding's uids are traced
 * back to names a person can judge.
 *
 * A binding only holds uids (`groupUid`, `identityUid`, `roleUid`). Its group,
 * identity and role are found, in this order:
 * 1. the stack resource its property depends on (`propertyDependencies`): works in
 *    preview, when the uid of a resource about to be created is not known yet;
 * 2. the stack resource whose `uid` output equals the uid;
 * 3. the binding's hydrated outputs (`identity`, `group`, `role`), present once it
 *    exists, which also cover objects the stack only looks up (built-in roles);
 * 4. the hydrated outputs of another binding of the stack that names the same uid:
 *    a new binding of a role some existing binding already uses is judged in preview.
 * When none of these answers, the fact is reported as not known yet, with the reason.
 */
import type { PolicyResource } from "@pulumi/policy";
import { readString, UNKNOWN } from "./values";

/** Type tokens of the provider's dynamic resources (`pulumi-nodejs:dynamic/<module>:<type>`). */
export const IRM_TYPES = {
  group: "pulumi-nodejs:dynamic/irm:Group",
  identity: "pulumi-nodejs:dynamic/irm:Identity",
  roleBinding: "pulumi-nodejs:dynamic/irm:RoleBinding",
} as const;

/** Every IRM resource type token starts with this; other resources are ignored. */
const IRM_TYPE_PREFIX = "pulumi-nodejs:dynamic/irm:";

/** A fact about a binding that is either known or, with the reason, not known yet. */
export type Fact<T> = { known: true; value: T } | { known: false; reason: string };

const known = <T>(value: T): Fact<T> => ({ known: true, value });
const notKnown = <T>(reason: string): Fact<T> => ({ known: false, reason });

/** The three objects a role binding connects. */
type BindingEnd = "identity" | "group" | "role";

const UID_PROPERTY: Record<BindingEnd, string> = {
  identity: "identityUid",
  group: "groupUid",
  role: "roleUid",
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

/** The resources of a stack, indexed to answer questions about role bindings. */
export class IrmStack {
  private readonly byUid = new Map<string, PolicyResource>();
  /** Per end, uid → a binding whose hydrated output for that end carries this uid. */
  private readonly hydratedByUid: Record<BindingEnd, Map<string, PolicyResource>> = {
    identity: new Map(),
    group: new Map(),
    role: new Map(),
  };
  readonly bindings: PolicyResource[];

  constructor(readonly resources: readonly PolicyResource[]) {
    for (const resource of resources) {
      if (!resource.type.startsWith(IRM_TYPE_PREFIX)) continue;
      const uid = readString(resource.props, "uid");
      if (typeof uid === "string" && uid !== "") this.byUid.set(uid, resource);
    }
    this.bindings = resources.filter((resource) => resource.type === IRM_TYPES.roleBinding);
    for (const binding of this.bindings) {
      for (const end of ["identity", "group", "role"] as const) {
        const uid = readString(binding.props, end, "uid");
        if (typeof uid === "string" && uid !== "") this.hydratedByUid[end].set(uid, binding);
      }
    }
  }

  /** The bindings whose hydrated outputs may describe this end: its own, then another one's. */
  private hydratedSources(binding: PolicyResource, end: BindingEnd, uid: string | undefined) {
    const other = uid === undefined ? undefined : this.hydratedByUid[end].get(uid);
    return other && other !== binding ? [binding, other] : [binding];
  }

  /** The first string found at `end.field` in the hydrated outputs describing this end. */
  private hydrated(
    binding: PolicyResource,
    end: BindingEnd,
    uid: string | undefined,
    field: string,
  ) {
    for (const source of this.hydratedSources(binding, end, uid)) {
      const value = readString(source.props, end, field);
      if (typeof value === "string") return value;
    }
    return undefined;
  }

  private sources(binding: PolicyResource, end: BindingEnd): EndSources {
    const property = UID_PROPERTY[end];
    const rawUid = readString(binding.props, property);
    const hydratedUid = readString(binding.props, end, "uid");
    const uid =
      typeof rawUid === "string" && rawUid !== ""
        ? rawUid
        : typeof hydratedUid === "string" && hydratedUid !== ""
          ? hydratedUid
          : undefined;
    const dependedOn = (binding.propertyDependencies?.[property] ?? []).filter((resource) =>
      resource.type.startsWith(IRM_TYPE_PREFIX),
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
    const hydratedName = this.hydrated(binding, end, sources.uid, "name");
    if (hydratedName !== undefined) return known(hydratedName);
    return notKnown(this.whyUnknown(sources, end));
  }

  /** The OIDC issuer the bound identity authenticates with. */
  identityIssuer(binding: PolicyResource): Fact<string> {
    const sources = this.sources(binding, "identity");
    const declaredIssuer = sources.declared
      ? readString(sources.declared.props, "claimMatch", "issuer")
      : undefined;
    if (typeof declaredIssuer === "string") return known(declaredIssuer);
    const hydratedIssuer = this.hydrated(binding, "identity", sources.uid, "issuer");
    if (hydratedIssuer !== undefined) return known(hydratedIssuer);
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
    if (sources.uid !== undefined) {
      return `${end} ${sources.uid} is not declared in this stack and no binding of the stack has a hydrated '${end}' output for it yet (the binding is created or changed by this update)`;
    }
    if (sources.uidUnknown) {
      return `its ${property} is computed during the update and is not known in preview`;
    }
    return `it has no ${property}`;
  }
}
