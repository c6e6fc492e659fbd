/**
 * Rules that span collections: what refuses the delete of a record another collection
 * still names. Each collection module asks here instead of reading the others' records,
 * so a new reference is added in one place.
 */
import { failedPrecondition } from "../errors";
import type { AccountAssociationRecord } from "../model";
import type { State } from "../state";
import * as kit from "./kit";

/**
 * Refuses (FAILED_PRECONDITION `RESOURCE_IN_USE`) the delete of identity `uid` while a
 * role binding names it (a later identity must never inherit its grants), or while an
 * account association's `serviceBindings` names it.
 */
export function refuseIdentityDelete(state: State, uid: string): void {
  const bound = state.countBindingsOfIdentity(uid);
  if (bound > 0) {
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `identity ${uid} still has ${bound} role binding${bound === 1 ? "" : "s"}`,
    });
  }
  const association = associationNaming(state, uid);
  if (association) {
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `identity ${uid} is named in the serviceBindings of the account association of ${association.uid}`,
    });
  }
}

/**
 * Refuses (FAILED_PRECONDITION `RESOURCE_IN_USE`) the delete of custom role `uid` while
 * a role binding uses it, an identity provider has it as `defaultRole` or an external
 * group role mapping grants it. Group invites
 * never block it: an invite whose role is gone simply stops showing `role`.
 */
export function refuseRoleDelete(state: State, uid: string): void {
  const bound = state.countBindingsOfRole(uid);
  let providers = 0;
  for (const provider of state.identityProviders.values()) {
    if (provider.defaultRole === uid) providers++;
  }
  let mappings = 0;
  for (const mapping of state.externalGroupRoleMappings.values()) {
    if (mapping.roleUid === uid) mappings++;
  }
  const uses = [
    ...kit.countsOfPresent([[bound, "role binding", "role bindings"]]).map((n) => `bound by ${n}`),
    ...kit
      .countsOfPresent([[providers, "identity provider", "identity providers"]])
      .map((n) => `the default role of ${n}`),
    ...kit
      .countsOfPresent([[mappings, "external group role mapping", "external group role mappings"]])
      .map((n) => `granted by ${n}`),
  ];
  if (uses.length > 0) {
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `role ${uid} is still ${uses.join(" and ")}`,
    });
  }
}

/**
 * Refuses (FAILED_PRECONDITION `RESOURCE_IN_USE`) the delete of identity provider `uid`
 * while external group role mappings hang under it: they are its children, and a
 * provider made again later must not inherit their grants.
 */
export function refuseIdentityProviderDelete(state: State, uid: string): void {
  const mappings = state.externalGroupRoleMappings.countChildren(uid);
  if (mappings > 0) {
    const [counted] = kit.countsOfPresent([
      [mappings, "external group role mapping", "external group role mappings"],
    ]);
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `identity provider ${uid} still has ${counted}`,
    });
  }
}

/** The association whose service bindings name identity `uid`, if any. */
export function associationNaming(
  state: State,
  identityUid: string,
): AccountAssociationRecord | undefined {
  // A binding names only an identity directly in the association's group.
  const association = state.accountAssociations.get(kit.parentOf(identityUid) ?? "");
  const bindings = association?.chainguard?.serviceBindings;
  if (!bindings) return undefined;
  return Object.values(bindings).includes(identityUid) ? association : undefined;
}
