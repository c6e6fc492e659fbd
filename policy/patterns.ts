/**
 * Does an RE2 pattern of an Identity constrain anything? The API matches every
 * `*Pattern` against the whole value with RE2, so the pack compiles it with `re2js`
 * exactly as the emulator and the provider's `check` do (never with `RegExp`, whose
 * syntax differs), and tries it on probe values.
 *
 * Whether a regular expression accepts every string is decidable, but only by
 * building its automaton; probing is simpler, and what matters in practice is that
 * every value a token could carry passes. The probes are values with no whitespace,
 * as issuers, subjects, audiences, ARNs and user ids are: realistic shapes, one probe
 * holding every printable ASCII character (so a pattern that shuts out one character
 * is not "everything"), and pseudo-random strings from a fixed seed, so every run
 * probes the same values. A pattern counts as matching everything when it accepts
 * every probe; whether it also accepts the empty string is reported alongside, since
 * `.*` and `.+` are equally open to any real token.
 */
import { RE2JS } from "re2js";
import { MAX_LENGTH, MAX_PATTERN_COST, patternCost } from "../provider/checks";

/** Every printable ASCII character but the space: `!` to `~`. */
const PRINTABLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join("");

/** A small deterministic generator (mulberry32), so the random probes never change. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomProbes(count: number, seed: number): string[] {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * 48);
    return Array.from({ length }, () => PRINTABLE[Math.floor(next() * PRINTABLE.length)]).join("");
  });
}

/** Values shaped like what a pattern is matched against, plus every character and noise. */
export const PROBES: readonly string[] = [
  "a",
  "0",
  "-",
  "repo:acme/infra:ref:refs/heads/main",
  "repo:someone-else/anything:pull_request",
  "system:serviceaccount:kube-system:default",
  "https://token.actions.githubusercontent.com",
  "https://irm-policy-probe.invalid/oidc",
  "arn:aws:iam::123456789012:role/any-role",
  "AROAEXAMPLEEXAMPLE:session",
  "user@example.invalid",
  PRINTABLE,
  ...randomProbes(32, 0x1a2b3c4d),
];

/**
 * Issuers on a host no one vetted: a pattern that accepts one of them lets anyone who
 * stands up an OIDC issuer there mint tokens it accepts.
 */
export const FOREIGN_ISSUERS: readonly string[] = [
  "https://irm-policy-probe.invalid",
  "https://irm-policy-probe.invalid/",
  "https://irm-policy-probe.invalid/oidc",
  "https://login.irm-policy-probe.invalid/tenant/v2.0",
  "https://irm-policy-probe.invalid/realms/main",
  "https://accounts.irm-policy-probe.invalid/o/oauth2",
];

/** What probing found. */
export interface PatternBreadth {
  /** True when the pattern accepts every probe. */
  matchesEverything: boolean;
  /** True when it also accepts the empty value. */
  matchesEmpty: boolean;
  /** The first foreign issuer it accepts, if any. */
  foreignIssuer?: string;
}

/**
 * Probes `pattern`; `undefined` when it is not valid RE2, or longer or larger once
 * compiled than the provider accepts (the provider's `check` refuses these, naming the
 * field, so the pack need not).
 */
export function probePattern(pattern: string): PatternBreadth | undefined {
  const known = probed.get(pattern);
  if (known !== undefined || probed.has(pattern)) return known;
  const breadth = probeOnce(pattern);
  if (probed.size >= PROBED_CACHE_SIZE) {
    const oldest = probed.keys().next().value;
    if (oldest !== undefined) probed.delete(oldest);
  }
  probed.set(pattern, breadth);
  return breadth;
}

/**
 * Breadths already found, by pattern: a stack declares the same pattern on many
 * resources, and each policy asks again; each pattern is compiled and probed once.
 */
const probed = new Map<string, PatternBreadth | undefined>();
const PROBED_CACHE_SIZE = 1024;

/** The compiled pattern, or undefined when the provider's `check` refuses it anyway. */
export function compileBounded(pattern: string): RE2JS | undefined {
  // Bounded work whatever reaches the pack: longer or larger ones are not probed.
  if (pattern.length > MAX_LENGTH.pattern) return undefined;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    return undefined;
  }
  return patternCost(compiled) > MAX_PATTERN_COST ? undefined : compiled;
}

function probeOnce(pattern: string): PatternBreadth | undefined {
  const compiled = compileBounded(pattern);
  if (compiled === undefined) return undefined;
  return {
    matchesEverything: PROBES.every((probe) => compiled.matches(probe)),
    matchesEmpty: compiled.matches(""),
    foreignIssuer: FOREIGN_ISSUERS.find((issuer) => compiled.matches(issuer)),
  };
}

/** What a pattern accepts, when it accepts few enough values to list. */
export type PatternValues = { finite: true; values: string[] } | { finite: false };

/** The most values {@link acceptedValues} lists before it gives up. */
const MAX_LISTED_VALUES = 64;
/** The most steps it takes walking the compiled program. */
const MAX_LIST_STEPS = 20_000;

/**
 * Every value `pattern` accepts, read off its compiled RE2 program rather than its
 * spelling, when they are few (at most 64, each at most 2048 characters): a pattern
 * written as a list of literals, however spelt (`https://token\.actions\.github(usercontent)\.com`,
 * `(?:a|b)`, `[x]`), lists them; one that repeats (`.*`, `+`, `{2,}`), takes any
 * character, or accepts many values is `{ finite: false }`. So a policy can judge what
 * a pattern can match: every listed value, and nothing else.
 */
export function acceptedValues(pattern: string): PatternValues {
  const compiled = compileBounded(pattern);
  if (compiled === undefined) return { finite: false };
  const prog = (
    compiled as unknown as {
      re2Input: {
        prog: {
          start: number;
          inst: Array<{ op: number; out: number; arg: number; runes: ArrayLike<number> }>;
        };
      };
    }
  ).re2Input.prog;
  const found = new Set<string>();
  let steps = 0;
  // Depth-first over (instruction, text so far); a loop makes the text grow without end.
  const stack: Array<[number, string]> = [[prog.start, ""]];
  while (stack.length > 0) {
    const [pc, text] = stack.pop() as [number, string];
    steps += 1;
    if (steps > MAX_LIST_STEPS || text.length > 2048 || found.size > MAX_LISTED_VALUES) {
      return { finite: false };
    }
    const inst = prog.inst[pc];
    switch (inst.op) {
      case 1: // ALT
      case 2: // ALT_MATCH
        stack.push([inst.out, text], [inst.arg, text]);
        break;
      case 3: // CAPTURE
      case 4: // EMPTY_WIDTH (a superset: what it excludes is filtered below)
      case 7: // NOP
        stack.push([inst.out, text]);
        break;
      case 5: // FAIL
        break;
      case 6: // MATCH
        found.add(text);
        break;
      case 8: // RUNE: ranges [lo, hi, ...]
      case 9: {
        // RUNE1
        const runes = Array.from(inst.runes);
        const chars: string[] = [];
        if (runes.length === 1) {
          const char = String.fromCodePoint(runes[0]);
          chars.push(char);
          // Case folded: every case of it.
          if ((inst.arg & 1) !== 0) chars.push(char.toUpperCase(), char.toLowerCase());
        } else {
          for (let i = 0; i + 1 < runes.length; i += 2) {
            if (runes[i + 1] - runes[i] > MAX_LISTED_VALUES) return { finite: false };
            for (let r = runes[i]; r <= runes[i + 1]; r += 1) chars.push(String.fromCodePoint(r));
          }
        }
        for (const char of new Set(chars)) stack.push([inst.out, text + char]);
        break;
      }
      default: // any character, look-behind: not a short list
        return { finite: false };
    }
  }
  const values = [...found].filter((value) => compiled.matches(value)).sort();
  return values.length > MAX_LISTED_VALUES ? { finite: false } : { finite: true, values };
}
