/**
 * `irm-identity-issuer-allow-list`: every issuer an Identity trusts must be an `https`
 * URL (an `http` issuer's signing keys can be tampered with in transit) and equal an
 * allow-listed issuer exactly, as OIDC compares `iss` exactly. That is
 * `claimMatch.issuer`, `staticKeys.issuer`, and every issuer `claimMatch.issuerPattern`
 * can match: the pattern is judged by what its compiled program accepts, not by how it
 * is spelt, so it passes only when it accepts a short list of values (literals and
 * alternations) each of which is allowed. A pattern that repeats or takes any
 * character (`https://token\.actions\.githubusercontent\.com.*`, which also matches
 * `...githubusercontent.com.attacker.example`) can match issuers nobody vetted.
 */
import { resourcePolicy, stringList } from "../define";
import { GITHUB_ACTIONS_ISSUER, POLICY_CARDS, POLICY_NAMES } from "../names";
import { acceptedValues, compileBounded } from "../patterns";
import { IRM_TYPES } from "../resource-types";
import { readString, UNKNOWN } from "../values";

export interface IdentityIssuerAllowListConfig {
  /** Exact issuer URLs identities may trust. */
  allowedIssuers: string[];
  /** Accepts `http://` issuers on loopback addresses (the local emulator's issuer). */
  allowHttpLoopback: boolean;
}

export const identityIssuerAllowListDefaults: IdentityIssuerAllowListConfig = {
  allowedIssuers: [GITHUB_ACTIONS_ISSUER],
  allowHttpLoopback: false,
};

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** An Identity's `claimMatch.issuer` must be an allowed https URL. */
export const identityIssuerAllowList = resourcePolicy({
  ...POLICY_CARDS.identityIssuerAllowList,
  types: [IRM_TYPES.identity],
  defaults: identityIssuerAllowListDefaults,
  schema: {
    allowedIssuers: stringList("Exact OIDC issuer URLs that identities may trust."),
    allowHttpLoopback: {
      type: "boolean",
      description: "Accept http:// issuers on 127.0.0.1, localhost or [::1] (local emulator only).",
    },
  },
  validate: (args, settings, report) => {
    const who = `Identity '${args.name}'`;
    /** Judges one issuer the identity trusts, named by the member that carries it. */
    const judge = (member: string, issuer: string) => {
      let url: URL;
      try {
        url = new URL(issuer);
      } catch {
        report(
          `${who} has ${member} '${issuer}', which is not a URL. Fix: set the issuer's https URL, e.g. ${GITHUB_ACTIONS_ISSUER}.`,
        );
        return;
      }
      const loopbackHttp =
        settings.allowHttpLoopback && url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
      if (url.protocol !== "https:" && !loopbackHttp) {
        report(
          `${who} trusts the issuer ${issuer} (${member}) over ${url.protocol.replace(":", "")}; its signing keys could be tampered with in transit. Fix: use the issuer's https URL.`,
        );
      }
      if (!settings.allowedIssuers.includes(issuer)) {
        report(
          `${who} trusts the issuer ${issuer} (${member}), which is not in the allow-list (${settings.allowedIssuers.join(", ") || "empty"}). ` +
            `Fix: use an allowed issuer, or add this exact URL to 'allowedIssuers' of policy ${POLICY_NAMES.identityIssuerAllowList}.`,
        );
      }
    };
    // Absent or not known yet: nothing to judge (the provider's check refuses a missing issuer).
    for (const path of [
      ["claimMatch", "issuer"],
      ["staticKeys", "issuer"],
    ]) {
      const issuer = readString(args.props, ...path);
      if (issuer !== UNKNOWN && issuer !== undefined) judge(path.join("."), issuer);
    }
    const pattern = readString(args.props, "claimMatch", "issuerPattern");
    if (pattern === UNKNOWN || pattern === undefined || pattern === "") return;
    const accepted = acceptedValues(pattern);
    if (accepted.finite) {
      for (const issuer of accepted.values) judge("claimMatch.issuerPattern", issuer);
      return;
    }
    const example = foreignMatch(pattern, settings.allowedIssuers);
    report(
      `${who} has claimMatch.issuerPattern '${pattern}', which can match issuers outside the allow-list` +
        `${example ? ` (it matches ${example})` : " (it accepts more values than can be listed)"}: anyone who runs an OIDC issuer there could assume it. ` +
        `Fix: set claimMatch.issuer to an allowed issuer's exact URL, or write the pattern as a list of allowed URLs (e.g. 'https://a\\.example|https://b\\.example').`,
    );
  },
});

/**
 * An issuer no one allowed that `pattern` accepts, derived from the allowed ones (a
 * longer host, another path, another scheme, a look-alike host), for the message.
 */
function foreignMatch(pattern: string, allowed: readonly string[]): string | undefined {
  const compiled = compileBounded(pattern);
  if (compiled === undefined) return undefined;
  const candidates: string[] = [];
  for (const issuer of allowed) {
    candidates.push(
      `${issuer}.attacker.example`,
      `${issuer.replace(/\/$/, "")}/attacker`,
      `${issuer}@attacker.example`,
      issuer.replace(/^https:/, "http:"),
      issuer.replace(/\./g, "-"),
      `https://attacker.example/${issuer}`,
    );
  }
  candidates.push("https://attacker.example", "https://attacker.example/oidc");
  return candidates.find((value) => !allowed.includes(value) && compiled.matches(value));
}
