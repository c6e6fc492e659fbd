/** Update masks of an identity's relationship (addendum 6.8). */
import { invalidArgument } from "../errors";
import { type ApiRequest, type JsonObject, updatePaths } from "../requests";
import { isSet, objectValue, parseKind } from "./parse";
import {
  IDENTITY_KINDS,
  type IdentityKind,
  kindOf,
  type Relationship,
  relationshipOf,
} from "./shapes";

/** Every update mask path of an identity (6.8). */
export const IDENTITY_MASK_PATHS: readonly string[] = [
  "name",
  "description",
  "claimMatch",
  "claimMatch.issuer",
  "claimMatch.issuerPattern",
  "claimMatch.subject",
  "claimMatch.subjectPattern",
  "claimMatch.audience",
  "claimMatch.audiencePattern",
  "claimMatch.claims",
  "claimMatch.claimPatterns",
  "staticKeys",
  "staticKeys.issuer",
  "staticKeys.subject",
  "staticKeys.issuerKeys",
  "staticKeys.expirationTime",
  "staticKeys.audiences",
  "awsIdentity",
  "awsIdentity.awsAccount",
  "awsIdentity.arn",
  "awsIdentity.arnPattern",
  "awsIdentity.userId",
  "awsIdentity.userIdPattern",
  "servicePrincipal",
];

/** The pairs whose members exclude each other, per kind. */
const PAIRS: Record<IdentityKind, ReadonlyArray<readonly [string, string]>> = {
  claimMatch: [
    ["issuer", "issuerPattern"],
    ["subject", "subjectPattern"],
    ["audience", "audiencePattern"],
  ],
  staticKeys: [],
  awsIdentity: [
    ["arn", "arnPattern"],
    ["userId", "userIdPattern"],
  ],
  servicePrincipal: [],
};

/**
 * The paths a PATCH applies (6.8). With `updateMask`, its paths, where `*` stands for
 * `name`, `description` and the object of the identity's current kind; without, the
 * paths present in the body, nested objects counting through the members they carry.
 * Then, in this order: a path of another kind, or another `servicePrincipal`, is
 * refused (the kind is fixed at create); a body setting both members of a pair under
 * the applied paths is refused on the pattern member.
 */
export function identityUpdatePaths(
  request: ApiRequest,
  body: JsonObject,
  current: Relationship,
): string[] {
  const kind = kindOf(current);
  const { paths } = updatePaths(request, body, IDENTITY_MASK_PATHS, ["name", "description", kind]);
  for (const path of paths) {
    const head = path.split(".")[0];
    if (!(IDENTITY_KINDS as readonly string[]).includes(head) || head === kind) continue;
    throw invalidArgument(path, "the relationship kind cannot change; create a new identity");
  }
  if (paths.includes("servicePrincipal") && kind === "servicePrincipal") {
    const value = body.servicePrincipal;
    if (value !== current.servicePrincipal) {
      throw invalidArgument(
        "servicePrincipal",
        "the relationship kind cannot change; create a new identity",
      );
    }
  }
  const members = PAIRS[kind].length > 0 ? objectValue(body[kind], kind) : {};
  for (const [exact, pattern] of PAIRS[kind]) {
    if (
      paths.includes(`${kind}.${exact}`) &&
      paths.includes(`${kind}.${pattern}`) &&
      isSet(members[exact]) &&
      isSet(members[pattern])
    ) {
      throw invalidArgument(
        `${kind}.${pattern}`,
        `only one of ${kind}.${exact} and ${kind}.${pattern} may be set`,
      );
    }
  }
  return paths;
}

/**
 * The relationship after applying `paths` (from {@link identityUpdatePaths}) of `body`
 * to `current`, validated whole. The kind's object named whole is replaced by the
 * body's; a member named alone takes the body's value, where setting one member of a
 * pair clears its partner and an empty or absent value clears the member; maps are
 * replaced whole. `expirationTime` is range-checked only when this update writes it.
 */
export function applyRelationshipUpdate(
  current: Relationship,
  body: JsonObject,
  paths: readonly string[],
  nowMs: number,
): Relationship {
  const kind = kindOf(current);
  if (kind === "servicePrincipal") return { servicePrincipal: current.servicePrincipal };
  const whole = paths.includes(kind);
  const members = paths.filter((path) => path.startsWith(`${kind}.`));
  if (!whole && members.length === 0) return relationshipOf(current);
  const given = objectValue(body[kind], kind);
  const next: JsonObject = whole ? { ...given } : { ...(current[kind] as object) };
  let expirationWritten = whole;
  if (!whole) {
    for (const path of members) {
      const member = path.slice(kind.length + 1);
      const value = given[member];
      if (member === "expirationTime") expirationWritten = true;
      if (value === undefined || value === null || value === "") {
        delete next[member];
        continue;
      }
      next[member] = value;
      const pair = PAIRS[kind].find((candidate) => candidate.includes(member));
      if (pair && typeof value === "string") {
        const partner = pair[0] === member ? pair[1] : pair[0];
        if (!members.includes(`${kind}.${partner}`)) delete next[partner];
      }
    }
  }
  return parseKind(kind, next, { nowMs, expirationWritten });
}
