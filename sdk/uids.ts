/**
 * Uids, one idea in one place: what a uid looks like, how each shape is named in a
 * failure, and the parent a uid names.
 *
 * A root organisation's uid is 40 lowercase hex characters; every object below it has
 * its parent's uid, `/` and 16 lowercase hex (`<root>/<16 hex>/<16 hex>`). Built-in
 * roles and advisories have flat uids too (40 lowercase hex) and no parent. A custom
 * role is a child of the group it was created in, `<group uid>/<16 hex>`: the `Role`
 * type has no parent field, the uid says it.
 *
 * The provider's checks, lookups and exporter, the SDK's decoders, the policy pack and
 * the emulator all read these; none keeps its own copy.
 */

/** A root organisation's uid (and a built-in role's, an advisory's): 40 lowercase hex. */
const ROOT = "[0-9a-f]{40}";
/** One child segment: 16 lowercase hex. */
const SEGMENT = "[0-9a-f]{16}";

/** A flat uid: 40 lowercase hex, no `/` (a root organisation, a built-in role, an advisory). */
export const FLAT_UID_PATTERN = new RegExp(`^${ROOT}$`);
/** Any group: the root organisation, or a group below it (40 hex, then zero or more `/` + 16 hex). */
export const GROUP_UID_PATTERN = new RegExp(`^${ROOT}(?:/${SEGMENT})*$`);
/** A child of some object (identity, child group, role binding, ...): at least one child segment. */
export const CHILD_UID_PATTERN = new RegExp(`^${ROOT}(?:/${SEGMENT})+$`);
/** Either form of role uid: a built-in role's flat uid, or a custom role's `<group uid>/<16 hex>`. */
export const ROLE_UID_PATTERN = new RegExp(`^${ROOT}(?:/${SEGMENT})*$`);

/** How each uid shape is named in a failure (after "must be", "not"). */
export const GROUP_UID_SHAPE =
  "a group uid (40 lowercase hex, then zero or more '/' + 16 lowercase hex)";
export const CHILD_UID_SHAPE = "a child uid (its group's uid, then '/' + 16 lowercase hex)";
export const IDENTITY_UID_SHAPE = "an identity uid (its group's uid, then '/' + 16 lowercase hex)";
export const ROLE_UID_SHAPE =
  "a role uid (a built-in role's 40 lowercase hex, or a custom role's <group uid>/<16 lowercase hex>)";

/**
 * The parent a uid names: everything before its last `/` (`a/b/c` -> `a/b`; a custom
 * role's group). A flat uid (a root organisation, a built-in role, an advisory) has no
 * parent: undefined, never `""` or a cut-short uid. The uid's shape is not checked.
 */
export function parentOf(uid: string): string | undefined {
  const slash = uid.lastIndexOf("/");
  return slash < 0 ? undefined : uid.slice(0, slash);
}

/** True for a built-in role's uid: no `/` (a custom role's uid is a child of its group). */
export function isBuiltInRoleUid(uid: string): boolean {
  return uid !== "" && !uid.includes("/");
}
