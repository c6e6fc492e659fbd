/**
 * Rules that span collections: what refuses the delete of a record another collection
 * still names. Each collection module asks here instead of reading the others' records,
 * so a new reference is added in one place.
 */
import { failedPrecondition } from "../errors";
import type { AccountAssociationRecord } from "../model";
import type { State } from "../state";
import { countsOfPresent, parentPath } from "./kit";

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
 * a role binding uses it or an identity provider has it as `defaultRole`. Group invites
 * never block it: an invite whose role is gone simply stops showing `role`.
 */
export function refuseRoleDelete(state: State, uid: string): void {
  const bound = state.countBindingsOfRole(uid);
  let providers = 0;
  for (const provider of state.identityProviders.values()) {
    if (provider.defaultRole === uid) providers++;
  }
  const uses = [
    ...countsOfPresent([[bound, "role binding", "role bindings"]]).map((n) => `bound by ${n}`),
    ...countsOfPresent([[providers, "identity provider", "identity providers"]]).map(
      (n) => `the default role of ${n}`,
    ),
  ];
  if (uses.length > 0) {
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `role ${uid} is still ${uses.join(" and ")}`,
    });
  }
}

/** The association whose service bindings name identity `uid`, if any. */
export function associationNaming(
  state: State,
  identityUid: string,
): AccountAssociationRecord | undefined {
  // A binding names only an identity directly in the association's group.
  const association = state.accountAssociations.get(parentPath(identityUid));
  const bindings = association?.chainguard?.serviceBindings;
  if (!bindings) return undefined;
  return Object.values(bindings).includes(identityUid) ? association : undefined;
}
