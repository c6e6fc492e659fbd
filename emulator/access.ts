/**
 * Capability checks. A binding of an identity to a role in group G grants the
 * role's capabilities on G and everything whose uid lies below G, so a check is
 * "is one of the granting groups equal to, or a path prefix of, the uid?" — a
 * handful of string comparisons, never a walk of the store.
 */
import { permissionDenied } from "./errors";
import type { State } from "./state";

export function isSameOrBelow(uid: string, ancestor: string): boolean {
  return uid === ancestor || uid.startsWith(`${ancestor}/`);
}

export class Access {
  /** Capability -> groups where the caller holds it. */
  private readonly grants = new Map<string, string[]>();

  /** `identityUid` undefined = an anonymous caller (public registry reads only). */
  constructor(
    state: State,
    readonly identityUid: string | undefined,
  ) {
    if (identityUid === undefined) return;
    for (const binding of state.bindingsOfIdentity(identityUid)) {
      const role = state.roles.get(binding.roleUid);
      if (!role) continue;
      const groupUid = binding.uid.slice(0, binding.uid.lastIndexOf("/"));
      for (const capability of role.capabilities) {
        let groups = this.grants.get(capability);
        if (!groups) {
          groups = [];
          this.grants.set(capability, groups);
        }
        groups.push(groupUid);
      }
    }
  }

  get authenticated(): boolean {
    return this.identityUid !== undefined;
  }

  /** Does the caller hold `capability` on `uid` (a group or anything below one)? */
  can(capability: string, uid: string): boolean {
    const groups = this.grants.get(capability);
    if (!groups) return false;
    for (const group of groups) if (isSameOrBelow(uid, group)) return true;
    return false;
  }

  /** Does the caller hold `capability` on any group at all (for collections outside the tree)? */
  holdsAnywhere(capability: string): boolean {
    return (this.grants.get(capability)?.length ?? 0) > 0;
  }

  require(capability: string, uid: string): void {
    if (!this.can(capability, uid)) throw permissionDenied(capability, uid);
  }

  /**
   * A filter for list results: undefined when the whole scope is covered by one
   * grant (the common case of an owner listing its organisation: no per-item check).
   */
  listFilter(
    capability: string,
    scopeUid: string | undefined,
  ): ((uid: string) => boolean) | undefined {
    if (scopeUid !== undefined && this.can(capability, scopeUid)) return undefined;
    return (uid) => this.can(capability, uid);
  }
}
