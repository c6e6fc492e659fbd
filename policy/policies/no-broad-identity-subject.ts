/**
 * `irm-no-broad-identity-subject`: an Identity's `claimMatch.subject` must not be a
 * wildcard, and for GitHub Actions it must pin a repository and a ref or an
 * environment, so that one workload, not every workflow of an owner, can assume it.
 * (Subject *patterns* are judged by `irm-no-match-all-identity-pattern`.)
 */
import { resourcePolicy, stringList } from "../define";
import { GITHUB_ACTIONS_ISSUER, POLICY_NAMES } from "../names";
import { IRM_TYPES } from "../resource-types";
import { readString, UNKNOWN } from "../values";

export interface NoBroadIdentitySubjectConfig {
  /** Issuers whose subjects follow GitHub Actions' `repo:OWNER/REPO:...` format. */
  githubActionsIssuers: string[];
}

export const noBroadIdentitySubjectDefaults: NoBroadIdentitySubjectConfig = {
  githubActionsIssuers: [GITHUB_ACTIONS_ISSUER],
};

/** `repo:OWNER/REPO:` followed by the rest of a GitHub Actions subject. */
const GITHUB_SUBJECT = /^repo:([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+):(.+)$/;
/** The rest pins a git ref (`ref:refs/heads/main`) or a deployment environment. */
const GITHUB_PINNED_CONTEXT = /^(ref:refs\/\S+|environment:[^:]+)$/;

/** An Identity's `claimMatch.subject` must not be a wildcard, and must pin repository and ref/environment for GitHub Actions. */
export const noBroadIdentitySubject = resourcePolicy({
  name: POLICY_NAMES.noBroadIdentitySubject,
  description:
    "An Identity's subject must not use wildcards; for GitHub Actions it must pin a repository and a ref or an environment.",
  enforcementLevel: "mandatory",
  severity: "high",
  types: [IRM_TYPES.identity],
  defaults: noBroadIdentitySubjectDefaults,
  schema: {
    githubActionsIssuers: stringList(
      "Issuers of GitHub Actions tokens (github.com's, plus any GitHub Enterprise Server issuer).",
    ),
  },
  validate: (args, settings, report) => {
    const subject = readString(args.props, "claimMatch", "subject");
    if (subject === UNKNOWN || subject === undefined) return;
    if (subject.includes("*")) {
      report(
        `Identity '${args.name}' matches the subject '${subject}', a wildcard: any token of its issuer with a matching subject could assume it. ` +
          `Fix: set the exact subject of the one workload that needs it.`,
      );
      return;
    }
    const issuer = readString(args.props, "claimMatch", "issuer");
    if (typeof issuer !== "string" || !settings.githubActionsIssuers.includes(issuer)) return;
    const parts = GITHUB_SUBJECT.exec(subject);
    if (!parts) {
      report(
        `Identity '${args.name}' trusts GitHub Actions but its subject '${subject}' does not pin a repository. ` +
          `Fix: use 'repo:OWNER/REPO:ref:refs/heads/BRANCH' or 'repo:OWNER/REPO:environment:NAME'.`,
      );
      return;
    }
    if (!GITHUB_PINNED_CONTEXT.test(parts[3])) {
      report(
        `Identity '${args.name}' trusts GitHub Actions for repository ${parts[1]}/${parts[2]} in context '${parts[3]}', which pins neither a ref nor an environment. ` +
          `Fix: use 'repo:${parts[1]}/${parts[2]}:ref:refs/heads/BRANCH' or 'repo:${parts[1]}/${parts[2]}:environment:NAME'.`,
      );
    }
  },
});
