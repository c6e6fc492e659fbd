/** How responses show an identity's relationship, and what a role binding shows of it. */
import type { JsonObject } from "../requests";
import { type AwsIdentity, kindOf, type Relationship, type StaticKeys } from "./shapes";

/**
 * The relationship as responses show it (6.7): only the key of the identity's kind;
 * in `claimMatch` only the members set (`claims`, `claimPatterns` when non-empty), so
 * an exact-match identity keeps its shape `{issuer, subject}`; `staticKeys` whole;
 * `awsIdentity` with `awsAccount` and the member set of each pair.
 */
export function relationshipOut(record: Relationship): JsonObject {
  const kind = kindOf(record);
  switch (kind) {
    case "claimMatch": {
      const match = record.claimMatch ?? {};
      const out: JsonObject = {};
      for (const key of [
        "issuer",
        "issuerPattern",
        "subject",
        "subjectPattern",
        "audience",
        "audiencePattern",
      ] as const) {
        if (match[key]) out[key] = match[key];
      }
      if (match.claims && Object.keys(match.claims).length > 0) out.claims = { ...match.claims };
      if (match.claimPatterns && Object.keys(match.claimPatterns).length > 0) {
        out.claimPatterns = { ...match.claimPatterns };
      }
      return { claimMatch: out };
    }
    case "staticKeys": {
      const keys = record.staticKeys as StaticKeys;
      return {
        staticKeys: {
          issuer: keys.issuer,
          subject: keys.subject,
          issuerKeys: keys.issuerKeys,
          expirationTime: keys.expirationTime,
          audiences: [...(keys.audiences ?? [])],
        },
      };
    }
    case "awsIdentity": {
      const aws = record.awsIdentity as AwsIdentity;
      const out: JsonObject = { awsAccount: aws.awsAccount };
      for (const key of ["arn", "arnPattern", "userId", "userIdPattern"] as const) {
        if (aws[key]) out[key] = aws[key];
      }
      return { awsIdentity: out };
    }
    case "servicePrincipal":
      return { servicePrincipal: record.servicePrincipal };
  }
}

/**
 * The `issuer` and `subject` a role binding shows of its identity (6.7): the exact
 * values of `claimMatch` or `staticKeys`, `""` for a pattern and for the other kinds.
 */
export function bindingIssuerSubject(record: Relationship): { issuer: string; subject: string } {
  if (record.staticKeys) {
    return { issuer: record.staticKeys.issuer, subject: record.staticKeys.subject };
  }
  if (record.claimMatch && kindOf(record) === "claimMatch") {
    return { issuer: record.claimMatch.issuer ?? "", subject: record.claimMatch.subject ?? "" };
  }
  return { issuer: "", subject: "" };
}
