/**
 * `irm-no-broad-identity-subject`: an Identity's `claimMatch.subject` must not be a
 * wildcard, and for GitHub Actions it must pin a repository and a ref or an
 * environment, so that one workload, not every workflow of an owner, can assume it.
 * A GitHub Actions `subjectPattern` is judged by what it can match, not how it is
 * spelt: a pattern that accepts a short list of subjects has each judged as above; any
 * other is tried on subjects of repositories it should not admit (another owner's,
 * another repository of the owner it names, a pull request of it), and refused when
 * it accepts one. (A pattern that matches everything is also reported by
 * `irm-no-match-all-identity-pattern`.)
 */
import { resourcePolicy, stringList } from "../define";
import { GITHUB_ACTIONS_ISSUER, POLICY_CARDS } from "../names";
import { acceptedValues, compileBounded } from "../patterns";
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
  ...POLICY_CARDS.noBroadIdentitySubject,
  types: [IRM_TYPES.identity],
  defaults: noBroadIdentitySubjectDefaults,
  schema: {
    githubActionsIssuers: stringList(
      "Issuers of GitHub Actions tokens (github.com's, plus any GitHub Enterprise Server issuer).",
    ),
  },
  validate: (args, settings, report) => {
    const pattern = readString(args.props, "claimMatch", "subjectPattern");
    const patternIssuer = readString(args.props, "claimMatch", "issuer");
    if (
      typeof pattern === "string" &&
      pattern !== "" &&
      typeof patternIssuer === "string" &&
      settings.githubActionsIssuers.includes(patternIssuer)
    ) {
      judgePattern(args.name, pattern, (subject) => judgeGithubSubject(args.name, subject), report);
    }
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
    const problem = judgeGithubSubject(args.name, subject);
    if (problem !== undefined) report(problem);
  },
});

/** What is wrong with a GitHub Actions subject, or undefined when it pins one workload. */
function judgeGithubSubject(name: string, subject: string): string | undefined {
  const parts = GITHUB_SUBJECT.exec(subject);
  if (!parts) {
    return (
      `Identity '${name}' trusts GitHub Actions but its subject '${subject}' does not pin a repository. ` +
      `Fix: use 'repo:OWNER/REPO:ref:refs/heads/BRANCH' or 'repo:OWNER/REPO:environment:NAME'.`
    );
  }
  if (!GITHUB_PINNED_CONTEXT.test(parts[3])) {
    return (
      `Identity '${name}' trusts GitHub Actions for repository ${parts[1]}/${parts[2]} in context '${parts[3]}', which pins neither a ref nor an environment. ` +
      `Fix: use 'repo:${parts[1]}/${parts[2]}:ref:refs/heads/BRANCH' or 'repo:${parts[1]}/${parts[2]}:environment:NAME'.`
    );
  }
  return undefined;
}

/** Owner and repository a subject pattern spells out literally, if it does. */
const LITERAL_REPOSITORY = /^\^?repo:([A-Za-z0-9_-]+)\/(?:([A-Za-z0-9_-]+):)?/;
/** The ref or environment a subject pattern ends with, when spelt out literally. */
const LITERAL_CONTEXT = /:(ref:refs\/[A-Za-z0-9_./-]+|environment:[A-Za-z0-9_.-]+)\$?$/;

/**
 * Judges a GitHub Actions subject pattern by what it matches: each subject of a short
 * list, else the first subject it should not admit that it accepts.
 */
function judgePattern(
  name: string,
  pattern: string,
  judge: (subject: string) => string | undefined,
  report: (message: string) => void,
): void {
  const accepted = acceptedValues(pattern);
  if (accepted.finite) {
    for (const subject of accepted.values) {
      const problem = judge(subject);
      if (problem !== undefined) {
        report(`${problem} (claimMatch.subjectPattern '${pattern}' matches it)`);
        return;
      }
    }
    return;
  }
  const compiled = compileBounded(pattern);
  if (compiled === undefined) return;
  const literal = LITERAL_REPOSITORY.exec(pattern);
  const owner = literal?.[1] ?? "irm-policy-probe-owner";
  const repository = literal?.[2] ?? "irm-policy-probe-repo";
  // Contexts to try: common ones, and the one the pattern ends with when it spells it out.
  const contexts = ["ref:refs/heads/main", "ref:refs/heads/master", "environment:production"];
  const ending = LITERAL_CONTEXT.exec(pattern.replace(/\\([.\-/])/g, "$1"));
  if (ending) contexts.push(ending[1]);
  const probes: Array<[string, string]> = [
    ...contexts.map((context): [string, string] => [
      `repo:irm-policy-probe-owner/anything:${context}`,
      "another owner's repository",
    ]),
    ...contexts.map((context): [string, string] => [
      `repo:${owner}/irm-policy-probe-repo:${context}`,
      `every repository of ${owner}`,
    ]),
    [`repo:${owner}/${repository}:pull_request`, "a pull request, which pins no ref"],
  ];
  const hit = probes.find(([subject]) => compiled.matches(subject));
  if (hit !== undefined) {
    report(
      `Identity '${name}' trusts GitHub Actions with claimMatch.subjectPattern '${pattern}', which admits ${hit[1]} (it matches '${hit[0]}'). ` +
        `Fix: use claimMatch.subject 'repo:OWNER/REPO:ref:refs/heads/BRANCH', or a pattern that pins the repository and the ref or environment.`,
    );
  }
}
