/**
 * Role uids come in two forms: a built-in role (`owner`, `editor`, `viewer`,
 * `registry.pull`) is managed by the platform and root-level, a flat uid of 40
 * lowercase hex characters; a custom role is a child of the group it was created
 * in, `<group uid>/<16 hex>`. The `Role` type has no parent field: the uid says it.
 */

/** Either form of role uid: 40 lowercase hex, then zero or more `/` + 16 lowercase hex. */
export const ROLE_UID_PATTERN = /^[0-9a-f]{40}(?:\/[0-9a-f]{16})*$/;

/** How a role uid is described in a failure. */
export const ROLE_UID_SHAPE =
  "a role uid (a built-in role's 40 lowercase hex, or a custom role's <group uid>/<16 lowercase hex>)";

/** True for a built-in role's uid: no `/` (a custom role's uid is a child of its group). */
export function isBuiltInRoleUid(uid: string): boolean {
  return uid !== "" && !uid.includes("/");
}

/**
 * The group a custom role belongs to (everything before the last `/` of its uid), or
 * undefined for a built-in role.
 */
export function roleGroupUid(uid: string): string | undefined {
  const slash = uid.lastIndexOf("/");
  return slash < 0 ? undefined : uid.slice(0, slash);
}
