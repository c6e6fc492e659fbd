/** RE2 patterns of identities (addendum 6.6): re2js syntax, whole-value matching, bounds. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../emulator/errors";
import {
  compilePattern,
  fullMatch,
  MAX_PATTERN_LENGTH,
  requirePattern,
} from "../../emulator/patterns";

function refusal(pattern: string, field = "claimMatch.subjectPattern"): ApiError {
  try {
    requirePattern(field, pattern);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`pattern ${JSON.stringify(pattern)} was accepted`);
}

describe("RE2 syntax", () => {
  it.each([
    ["(?i)", "(?i)main", "MAIN"],
    ["(?s)", "(?s)a.b", "a\nb"],
    ["(?P<name>...)", "(?P<branch>main|dev)", "dev"],
    ["[[:alpha:]]", "[[:alpha:]]+", "Main"],
    ["\\pL", "\\pL+", "Ünïcode"],
    ["\\Q...\\E", "\\Qa.b\\E", "a.b"],
    ["a repeat count of 1000", "a{1000}", "a".repeat(1000)],
  ])("RE2-only or RE2-shared form %s is accepted and matches", (_what, pattern, value) => {
    expect(requirePattern("claimMatch.subjectPattern", pattern)).toBe(pattern);
    expect(fullMatch(pattern, value)).toBe(true);
  });

  it("\\Q...\\E quotes: the dot is literal", () => {
    expect(fullMatch("\\Qa.b\\E", "axb")).toBe(false);
  });

  it.each([
    ["lookahead", "(?=main)main", "invalid or unsupported Perl syntax: `(?=`"],
    ["negative lookahead", "(?!dev)main", "invalid or unsupported Perl syntax: `(?!`"],
    ["lookbehind", "(?<=x)main", "(?<="],
    ["negative lookbehind", "(?<!x)main", "(?<!"],
    ["a backreference", "(a)\\1", "invalid escape sequence: `\\1`"],
    ["a named backreference", "(?<n>a)\\k<n>", "invalid escape sequence: `\\k`"],
    ["an atomic group", "(?>main)", "invalid or unsupported Perl syntax: `(?>`"],
    ["a possessive quantifier", "a*+", "invalid nested repetition operator: `*+`"],
    ["a repeat count above 1000", "a{1001}", "invalid repeat count: `{1001}`"],
    ["nested repeats above 1000 in all", "(a{100}){100}", "invalid repeat count"],
    ["an unclosed group", "(main", "missing closing ): `(main`"],
    ["an unopened group", "main)", "unexpected ): `main)`"],
    ["an unclosed class", "[a-z", "missing closing ]: `[a-z`"],
  ])(
    "JavaScript-only or broken syntax, %s, is INVALID_ARGUMENT naming the field",
    (_what, pattern, message) => {
      const error = refusal(pattern, "claimMatch.claimPatterns.repo");
      expect(error.codeName).toBe("INVALID_ARGUMENT");
      expect(error.message).toMatch(
        /^Invalid argument: claimMatch\.claimPatterns\.repo: not a valid RE2 pattern: /,
      );
      expect(error.message).toContain(message);
    },
  );

  it(`a pattern longer than ${MAX_PATTERN_LENGTH} characters is refused before compiling`, () => {
    const atCap = "a".repeat(MAX_PATTERN_LENGTH);
    expect(requirePattern("awsIdentity.arnPattern", atCap)).toBe(atCap);
    const error = refusal(`${atCap}a`, "awsIdentity.arnPattern");
    expect(error.message).toBe(
      `Invalid argument: awsIdentity.arnPattern: must be at most ${MAX_PATTERN_LENGTH} characters`,
    );
  });
});

describe("whole-value matching", () => {
  it("a pattern matches the whole value, as if written ^(?:...)$", () => {
    expect(fullMatch("main", "main")).toBe(true);
    expect(fullMatch("main", "refs/heads/main")).toBe(false);
    expect(fullMatch("main", "mainline")).toBe(false);
    expect(fullMatch("b", "abc")).toBe(false);
    // Alternation is anchored as a whole, not only its first or last branch.
    expect(fullMatch("a|abc", "abc")).toBe(true);
    expect(fullMatch("abc|a", "abc")).toBe(true);
    expect(fullMatch("a|b", "ab")).toBe(false);
  });

  it("explicit ^ and $ are harmless", () => {
    expect(fullMatch("^repo:acme/.*$", "repo:acme/infra")).toBe(true);
    expect(fullMatch("^repo:acme/.*$", "xrepo:acme/infra")).toBe(false);
  });

  it("the chainctl-style subject pattern admits main and release branches only", () => {
    const pattern = "repo:acme/infra:ref:refs/heads/(main|release-.*)";
    expect(fullMatch(pattern, "repo:acme/infra:ref:refs/heads/main")).toBe(true);
    expect(fullMatch(pattern, "repo:acme/infra:ref:refs/heads/release-1.2")).toBe(true);
    expect(fullMatch(pattern, "repo:acme/infra:ref:refs/heads/feature")).toBe(false);
    expect(fullMatch(pattern, "repo:acme/infra:ref:refs/heads/main-evil")).toBe(false);
  });

  it("a compiled pattern is reused, and a broken one matches nothing", () => {
    expect(compilePattern("f", "x+")).toBe(compilePattern("g", "x+"));
    expect(fullMatch("(?=x)", "x")).toBe(false);
  });
});
