/**
 * Policies judge what a pattern can match, not how it is spelt: an issuer pattern that
 * does not pin the host, the allow-list dodged by writing an allowed issuer as a
 * pattern or as `staticKeys.issuer`, and a GitHub subject pattern that admits every
 * repository (of anyone, or of one owner) are each reported; patterns that accept only
 * what the policy allows pass.
 */
import { describe, expect, it } from "vitest";
import {
  GITHUB_ACTIONS_ISSUER,
  IRM_TYPES,
  identityIssuerAllowList,
  noBroadIdentitySubject,
} from "../../policy/policies";
import { GITHUB, ROOT_UID, runResourcePolicy } from "../support/policy-harness";

const identity = (props: Record<string, unknown>, policy = identityIssuerAllowList()) =>
  runResourcePolicy(policy, IRM_TYPES.identity, "ci", {
    parentUid: ROOT_UID,
    name: "ci",
    ...props,
  }).map((f) => f.message);

describe("the issuer allow-list judges every issuer an identity trusts", () => {
  it.each([
    [
      "a pattern that leaves the host open",
      "https://token\\.actions\\.githubusercontent\\.com.*",
      "githubusercontent.com.attacker.example",
    ],
    [
      "an unescaped dot",
      "https://token.actions.githubusercontent.com",
      "can match issuers outside the allow-list",
    ],
    [
      "a path left open",
      "https://token\\.actions\\.githubusercontent\\.com(/.*)?",
      "githubusercontent.com/attacker",
    ],
    [
      "an allowed issuer or another",
      `${GITHUB_ACTIONS_ISSUER.replace(/\./g, "\\.")}|https://evil\\.example`,
      "https://evil.example",
    ],
    [
      "a case-insensitive spelling",
      "(?i)https://token\\.actions\\.githubusercontent\\.com",
      "issuerPattern",
    ],
  ])("%s: reported", (_what, issuerPattern, shown) => {
    const messages = identity({
      claimMatch: { issuerPattern, subject: "repo:a/b:ref:refs/heads/main" },
    });
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join("\n")).toContain(shown);
  });

  it("a pattern accepting only allowed issuers passes, however spelt", () => {
    for (const issuerPattern of [
      "https://token\\.actions\\.githubusercontent\\.com",
      "https://token[.]actions[.]githubusercontent[.]com",
      "(?:https://token\\.actions\\.githubusercontent\\.com)",
    ]) {
      expect(identity({ claimMatch: { issuerPattern, subject: "x" } }), issuerPattern).toEqual([]);
    }
  });

  it("staticKeys.issuer is judged like claimMatch.issuer", () => {
    const messages = identity({
      staticKeys: { issuer: "https://ci.attacker.example", subject: "deploy", issuerKeys: "{}" },
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("staticKeys.issuer");
    expect(messages[0]).toContain("not in the allow-list");
    expect(
      identity({ staticKeys: { issuer: GITHUB_ACTIONS_ISSUER, subject: "d", issuerKeys: "{}" } }),
    ).toEqual([]);
  });
});

describe("a GitHub subject pattern must pin one repository and a ref or environment", () => {
  const check = (subjectPattern: string) =>
    identity({ claimMatch: { issuer: GITHUB, subjectPattern } }, noBroadIdentitySubject());

  it.each([
    ["every repository of everyone", "repo:.*:ref:refs/heads/main", "another owner's repository"],
    [
      "every repository of one owner",
      "repo:acme/.*:ref:refs/heads/main",
      "every repository of acme",
    ],
    [
      "every repository of one owner, spelt as a class",
      "repo:acme/[^:]+:environment:production",
      "every repository of acme",
    ],
    ["pull requests too", "repo:acme/infra:.*", "a pull request"],
    [
      "a list with a repository-wide subject",
      "repo:acme/infra:ref:refs/heads/main|repo:acme/infra:pull_request",
      "pins neither a ref nor an environment",
    ],
  ])("%s: reported", (_what, pattern, shown) => {
    const messages = check(pattern);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(shown);
  });

  it("patterns that pin the repository and the ref pass", () => {
    for (const pattern of [
      "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      "repo:acme/infra:environment:(staging|production)",
      "repo:acme/infra:ref:refs/tags/v[0-9]+\\.[0-9]+\\.[0-9]+",
    ]) {
      expect(check(pattern), pattern).toEqual([]);
    }
  });
});
