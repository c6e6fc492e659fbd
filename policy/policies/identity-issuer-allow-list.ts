/**
 * `irm-identity-issuer-allow-list`: an Identity's `claimMatch.issuer` must be an
 * `https` URL (an `http` issuer's signing keys can be tampered with in transit) and
 * equal an allow-listed issuer exactly, as OIDC compares `iss` exactly.
 */
import { resourcePolicy, stringList } from "../define";
import { GITHUB_ACTIONS_ISSUER, POLICY_NAMES } from "../names";
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
  name: POLICY_NAMES.identityIssuerAllowList,
  description: "An Identity must trust an https OIDC issuer from the allow-list.",
  enforcementLevel: "mandatory",
  severity: "high",
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
    // Absent or not known yet: nothing to judge (the provider's check refuses a missing issuer).
    const issuer = readString(args.props, "claimMatch", "issuer");
    if (issuer === UNKNOWN || issuer === undefined) return;
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      report(
        `Identity '${args.name}' has claimMatch.issuer '${issuer}', which is not a URL. Fix: set the issuer's https URL, e.g. ${GITHUB_ACTIONS_ISSUER}.`,
      );
      return;
    }
    const loopbackHttp =
      settings.allowHttpLoopback && url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol !== "https:" && !loopbackHttp) {
      report(
        `Identity '${args.name}' trusts the issuer ${issuer} over ${url.protocol.replace(":", "")}; its signing keys could be tampered with in transit. Fix: use the issuer's https URL.`,
      );
    }
    if (!settings.allowedIssuers.includes(issuer)) {
      report(
        `Identity '${args.name}' trusts the issuer ${issuer}, which is not in the allow-list (${settings.allowedIssuers.join(", ") || "empty"}). ` +
          `Fix: use an allowed issuer, or add this exact URL to 'allowedIssuers' of policy ${POLICY_NAMES.identityIssuerAllowList}.`,
      );
    }
  },
});
