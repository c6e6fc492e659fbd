/** Identities, each of the one kind its answer carries (claim match, static keys, AWS, service principal). */
import type { Identity } from "../../sdk/index";
import type { ClaimMatchInputs, IdentityDeclaration, Relationship } from "../declarations";
import { type Declarer, SELF_LEFT_OUT } from "./build";
import { defined, isObject, parentUidOf, type Raw, text, textMap } from "./values";

/**
 * The kind of an identity and its inputs, read from the API's answer (addendum 6.1,
 * 6.7: only the members that are set appear). Undefined when it has no kind this
 * package knows, or lacks a member the kind requires.
 */
export function relationshipOf(identity: Identity): Relationship | undefined {
  const raw = identity as unknown as Raw;
  const kinds = ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"].filter(
    (key) => raw[key] !== undefined && raw[key] !== null && raw[key] !== "",
  );
  if (kinds.length !== 1) return undefined;
  if (typeof raw.servicePrincipal === "string") {
    return { kind: "servicePrincipal", servicePrincipal: raw.servicePrincipal };
  }
  if (isObject(raw.claimMatch)) {
    const m = raw.claimMatch;
    const claimMatch: ClaimMatchInputs = defined({
      issuer: text(m, "issuer"),
      issuerPattern: text(m, "issuerPattern"),
      subject: text(m, "subject"),
      subjectPattern: text(m, "subjectPattern"),
      audience: text(m, "audience"),
      audiencePattern: text(m, "audiencePattern"),
      claims: textMap(m, "claims"),
      claimPatterns: textMap(m, "claimPatterns"),
    });
    const hasIssuer = (claimMatch.issuer ?? claimMatch.issuerPattern) !== undefined;
    const hasSubject = (claimMatch.subject ?? claimMatch.subjectPattern) !== undefined;
    return hasIssuer && hasSubject ? { kind: "claimMatch", claimMatch } : undefined;
  }
  if (isObject(raw.staticKeys)) {
    const k = raw.staticKeys;
    const [issuer, subject, issuerKeys] = [
      text(k, "issuer"),
      text(k, "subject"),
      text(k, "issuerKeys"),
    ];
    if (issuer === undefined || subject === undefined || issuerKeys === undefined) return undefined;
    const audiences = Array.isArray(k.audiences)
      ? k.audiences.filter((a): a is string => typeof a === "string" && a !== "")
      : [];
    return {
      kind: "staticKeys",
      staticKeys: defined({
        issuer,
        subject,
        issuerKeys,
        audiences: audiences.length > 0 ? audiences : undefined,
      }),
      expirationTime: text(k, "expirationTime"),
    };
  }
  if (isObject(raw.awsIdentity)) {
    const a = raw.awsIdentity;
    const awsAccount = text(a, "awsAccount");
    if (awsAccount === undefined) return undefined;
    return {
      kind: "awsIdentity",
      awsIdentity: defined({
        awsAccount,
        arn: text(a, "arn"),
        arnPattern: text(a, "arnPattern"),
        userId: text(a, "userId"),
        userIdPattern: text(a, "userIdPattern"),
      }),
    };
  }
  return undefined;
}

export const identityDeclarer: Declarer<Identity, IdentityDeclaration> = {
  variable: "identity",
  select: (build) =>
    build.live.identities
      .filter((identity) => {
        const what = `identity "${identity.name}" (${identity.uid})`;
        if (build.leavesOut(identity.uid)) {
          build.omissions.push({ what, why: SELF_LEFT_OUT });
          return false;
        }
        if (relationshipOf(identity)) return true;
        build.omissions.push({
          what,
          why: "skipped: its answer carries no relationship this version of pulumi-irm knows (claimMatch, staticKeys, awsIdentity or servicePrincipal, with their required members)",
        });
        return false;
      })
      .sort(build.inGroupOrder((i) => parentUidOf(i.uid))),
  name: (build, identities) => build.namesOf(identities, (i) => parentUidOf(i.uid), "identity"),
  refersTo: (identity) => [parentUidOf(identity.uid)],
  declare: (build, identities) =>
    identities.map((identity) => ({
      ...build.named("Identity", identity),
      relationship: relationshipOf(identity)!,
      ...(build.isSelf(identity.uid) ? { self: true } : {}),
    })),
};
