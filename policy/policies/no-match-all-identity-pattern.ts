/**
 * `irm-no-match-all-identity-pattern`: an Identity's RE2 patterns must constrain
 * something. A pattern that accepts every value (`.*`, `.+`, `(?s).*`, `\S+`, ...;
 * see `patterns.ts` for how that is decided) turns the member it stands for into
 * "anyone":
 * - `claimMatch.issuerPattern`: any OIDC issuer, one anyone can set up, could mint a
 *   token the identity accepts; an issuer pattern that leaves the host open
 *   (`https://.*`) is the same, and is reported too;
 * - `claimMatch.subjectPattern`: every workload of the issuer (for GitHub Actions,
 *   every repository on github.com), unless `claims` or `claimPatterns` pin the token,
 *   which is the one legitimate use of a match-all subject (the API requires a subject
 *   or a subject pattern);
 * - `claimMatch.audiencePattern`: tokens minted for any other service replay here,
 *   which is weaker than naming no audience (then the API's own URL is required);
 * - `awsIdentity` with both `arnPattern` and `userIdPattern` matching everything: any
 *   principal of the AWS account (one exact or narrow member is enough to pin it).
 * A `claimPatterns` value that matches everything only requires the claim to be
 * present and is not a grant by itself; it is just not counted as pinning the token.
 */
import { resourcePolicy } from "../define";
import { POLICY_CARDS } from "../names";
import { type PatternBreadth, probePattern } from "../patterns";
import { IRM_TYPES } from "../resource-types";
import { readPath, readString, UNKNOWN } from "../values";

/** This policy has no settings besides its enforcement level. */
export type NoMatchAllIdentityPatternConfig = Record<string, never>;

/** The probe result of a pattern member, or undefined when absent, unknown or not RE2. */
function probe(
  props: unknown,
  ...path: string[]
): (PatternBreadth & { pattern: string }) | undefined {
  const pattern = readString(props, ...path);
  if (pattern === UNKNOWN || pattern === undefined || pattern === "") return undefined;
  const breadth = probePattern(pattern);
  return breadth && { ...breadth, pattern };
}

const everything = (found: PatternBreadth): string =>
  found.matchesEmpty ? "every value, the empty one included" : "every non-empty value";

/** True when `claims` or a narrow `claimPatterns` entry constrains the token (unknown counts). */
function claimsPinToken(props: unknown): boolean {
  const claims = readPath(props, "claimMatch", "claims");
  if (claims === UNKNOWN) return true;
  if (claims !== null && typeof claims === "object" && Object.keys(claims).length > 0) return true;
  const patterns = readPath(props, "claimMatch", "claimPatterns");
  if (patterns === UNKNOWN) return true;
  if (patterns === null || typeof patterns !== "object") return false;
  return Object.keys(patterns).some((name) => {
    const found = probe(props, "claimMatch", "claimPatterns", name);
    return found === undefined || !found.matchesEverything;
  });
}

/** An Identity's patterns must not accept every issuer, subject, audience or AWS principal. */
export const noMatchAllIdentityPattern = resourcePolicy<NoMatchAllIdentityPatternConfig>({
  ...POLICY_CARDS.noMatchAllIdentityPattern,
  types: [IRM_TYPES.identity],
  defaults: {},
  schema: {},
  validate: (args, _settings, report) => {
    const who = `Identity '${args.name}'`;
    const issuer = probe(args.props, "claimMatch", "issuerPattern");
    if (issuer?.matchesEverything) {
      report(
        `${who} has claimMatch.issuerPattern '${issuer.pattern}', which matches ${everything(issuer)}: a token from any OIDC issuer, one anyone can set up, could assume it. ` +
          `Fix: set claimMatch.issuer to the exact issuer URL.`,
      );
    } else if (issuer?.foreignIssuer !== undefined) {
      report(
        `${who} has claimMatch.issuerPattern '${issuer.pattern}', which leaves the issuer's host open (it matches ${issuer.foreignIssuer}): anyone who runs an OIDC issuer on a matching host could assume it. ` +
          `Fix: set claimMatch.issuer to the exact issuer URL, or spell the host out in the pattern.`,
      );
    }
    const subject = probe(args.props, "claimMatch", "subjectPattern");
    if (subject?.matchesEverything && !claimsPinToken(args.props)) {
      const exactIssuer = readString(args.props, "claimMatch", "issuer");
      const of = typeof exactIssuer === "string" ? ` of ${exactIssuer}` : "";
      report(
        `${who} has claimMatch.subjectPattern '${subject.pattern}', which matches ${everything(subject)}, and no claims pin the token: every workload that gets a token${of} could assume it. ` +
          `Fix: set claimMatch.subject to the workload's exact subject, or a pattern that pins it (e.g. 'system:serviceaccount:NAMESPACE:NAME'), or pin the token with claimMatch.claims.`,
      );
    }
    const audience = probe(args.props, "claimMatch", "audiencePattern");
    if (audience?.matchesEverything) {
      report(
        `${who} has claimMatch.audiencePattern '${audience.pattern}', which matches ${everything(audience)}: tokens minted for any other service could be replayed to assume it, which is weaker than naming no audience (then the API's own URL is required). ` +
          `Fix: set claimMatch.audience to the one audience the workload requests, or remove audiencePattern.`,
      );
    }
    const arn = probe(args.props, "awsIdentity", "arnPattern");
    const userId = probe(args.props, "awsIdentity", "userIdPattern");
    if (arn?.matchesEverything && userId?.matchesEverything) {
      const account = readString(args.props, "awsIdentity", "awsAccount");
      const of = typeof account === "string" ? ` ${account}` : "";
      report(
        `${who} has awsIdentity.arnPattern '${arn.pattern}' and userIdPattern '${userId.pattern}', which both match every value: any principal of AWS account${of} could assume it. ` +
          `Fix: set awsIdentity.arn to the role's ARN, or a pattern that pins the role (e.g. 'arn:aws:sts::ACCOUNT:assumed-role/ROLE/.*').`,
      );
    }
  },
});
