/**
 * The facts the policy pack traces through a stack (stack.ts) and judges
 * (privileged.ts): each known, or not known yet with the reason.
 */

/** A fact about a binding that is either known or, with the reason, not known yet. */
export type Fact<T> = { known: true; value: T } | { known: false; reason: string };

/** What the stack tells of a role. */
export interface RoleFacts {
  name: string;
  /**
   * Its capabilities, when known: a declared `Role`'s, what the provider's check read
   * (`checkedRole`), a group invite's hydrated role's, or a built-in role's published set.
   */
  capabilities?: readonly string[];
}
