/**
 * What `check` reads of the role an object grants (a RoleBinding's `roleUid`, an
 * IdentityProvider's `defaultRole`), added to its checked inputs as `checkedRole` for
 * policy packs: the engine hands a policy the checked inputs of every resource it
 * creates or changes, in `pulumi preview` too, and a policy makes no request of its
 * own. So a binding whose role comes from a lookup, a literal uid or any other known
 * value is judged by the role's capabilities in the first preview, before any write.
 *
 * Not sent to the API and not compared by `diff`. One GET per distinct role per client
 * in a provider process (one engine run); a role that cannot be read leaves no
 * `checkedRole` (the create says why), and a policy then reports that the role cannot
 * be judged yet.
 */
import type { IrmClient, Role } from "../../sdk/index";
import { BUILT_IN_ROLE_NAMES, isUnknown, ROLE_UID_PATTERN } from "../checks";
import type { HandlerContext } from "./common";

/** The input a check adds. */
export const CHECKED_ROLE = "checkedRole";

/** The role as the check read it. */
export interface CheckedRole {
  uid: string;
  name: string;
  /** A built-in role (`owner`, `editor`, ...), whose name never changes. */
  builtIn: boolean;
  /**
   * Its capabilities, the enum value names; absent for a built-in role, whose set is
   * published (the pack's `BUILT_IN_ROLE_CAPABILITIES`), so that each binding of
   * `owner` does not carry a hundred names in its state.
   */
  capabilities?: string[];
}

/** Roles read, per client (what one token may see says nothing of another's). */
const readRoles = new WeakMap<IrmClient, Map<string, Promise<CheckedRole | undefined>>>();

/** What a check records of a role the API answered. */
function checkedRoleOf(answer: Role): CheckedRole {
  return BUILT_IN_ROLE_NAMES.has(answer.name) && !answer.uid.includes("/")
    ? { uid: answer.uid, name: answer.name, builtIn: true }
    : {
        uid: answer.uid,
        name: answer.name,
        builtIn: false,
        capabilities: [...answer.capabilities].sort(),
      };
}

/** The roles this client has read or made, by uid. */
function rolesOf(client: IrmClient): Map<string, Promise<CheckedRole | undefined>> {
  const cache = readRoles.get(client) ?? new Map<string, Promise<CheckedRole | undefined>>();
  readRoles.set(client, cache);
  return cache;
}

/**
 * A role this client has just created or looked up, as the API answered: a binding or an
 * identity provider of the same run (the same provider process) that grants it is
 * checked without reading it again. The native plugin serves both the lookups and the
 * checks, so a role a program looks up by name (`getRole`) is read once, by the lookup.
 */
export function rememberRole(client: IrmClient, role: Role): void {
  rolesOf(client).set(role.uid, Promise.resolve(checkedRoleOf(role)));
}

/** The role with this uid as the API answers it, or undefined when it cannot be read. */
export function readCheckedRole(
  context: HandlerContext,
  uid: string,
): Promise<CheckedRole | undefined> {
  const client = context.client();
  const cache = rolesOf(client);
  let role = cache.get(uid);
  if (role === undefined) {
    const asked = client.iam.roles.get(uid).then(checkedRoleOf, () => undefined);
    role = asked;
    cache.set(uid, asked);
    // A failure is not kept: the next check asks again (unless a lookup has since
    // answered the role).
    asked.then((found) => found ?? (cache.get(uid) === asked && cache.delete(uid)));
  }
  return role;
}

/**
 * `inputs` with `checkedRole` for the role uid in `property`, when that uid is known and
 * the role can be read; else `inputs` as they are. An object whose recorded inputs
 * (`olds`, from state) already hold the record for the same role keeps it without a
 * request, so a preview of an unchanged stack reads no role: what is judged before a
 * write is a new or changed role uid, and that one is read.
 */
export async function withCheckedRole<Inputs extends object>(
  context: HandlerContext,
  inputs: Inputs,
  property: string,
  olds?: object,
): Promise<Inputs> {
  const { [CHECKED_ROLE]: _stale, ...rest } = inputs as Record<string, unknown>;
  const uid = rest[property];
  if (typeof uid !== "string" || isUnknown(uid) || !ROLE_UID_PATTERN.test(uid)) {
    return rest as Inputs;
  }
  const recorded = withRecordedRole({}, olds, uid) as Record<string, unknown>;
  if (CHECKED_ROLE in recorded) return { ...rest, ...recorded } as Inputs;
  const role = await readCheckedRole(context, uid);
  return (role === undefined ? rest : { ...rest, [CHECKED_ROLE]: role }) as Inputs;
}

/**
 * `target` with the `checkedRole` that `source` (the inputs of a create or update, or
 * the state a read replaces) holds for role `roleUid`; without one when `source` holds
 * none for that role. The state keeps what the check read when the object was created
 * or last changed, so a refresh gives back the same inputs and outputs (no change, no
 * request), and a policy judging the stack as it is sees the role too.
 */
export function withRecordedRole<T extends object>(
  target: T,
  source: object | undefined,
  roleUid: string,
): T {
  const { [CHECKED_ROLE]: _old, ...rest } = target as Record<string, unknown>;
  const recorded = (source as Record<string, unknown> | undefined)?.[CHECKED_ROLE];
  const uid = (recorded as { uid?: unknown } | undefined)?.uid;
  return (
    recorded !== undefined && uid === roleUid ? { ...rest, [CHECKED_ROLE]: recorded } : rest
  ) as T;
}
