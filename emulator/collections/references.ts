/**
 * Rules that span collections: what refuses the delete of a record another collection
 * still names. Each collection module asks here instead of reading the others' records,
 * so a new reference is added in one place.
 */
import { failedPrecondition } from "../errors";
import type { State } from "../state";

/**
 * Refuses (FAILED_PRECONDITION `RESOURCE_IN_USE`) the delete of identity `uid` while a
 * role binding names it: a later identity must never inherit its grants.
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
}

/**
 * Refuses (FAILED_PRECONDITION `RESOURCE_IN_USE`) the delete of custom role `uid` while
 * a role binding uses it.
 */
export function refuseRoleDelete(state: State, uid: string): void {
  const bound = state.countBindingsOfRole(uid);
  if (bound > 0) {
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `role ${uid} is still bound by ${bound} role binding${bound === 1 ? "" : "s"}`,
    });
  }
}
