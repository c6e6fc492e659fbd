/**
 * RE2 patterns of identities (addendum 6.6): every `*Pattern` member and every
 * `claimPatterns` value. They are compiled with `re2js`, a pure JavaScript port of
 * RE2, never with `RegExp`, whose syntax differs (lookaround and backreferences are
 * JavaScript-only; `(?P<name>...)`, `[[:alpha:]]` and `\Q...\E` are RE2-only), and they
 * match the whole value, as if written `^(?:...)$`.
 *
 * Bounds: a pattern is at most {@link MAX_PATTERN_LENGTH} characters, and RE2 itself
 * refuses repeat counts above 1000 (also nested ones whose product exceeds it), so
 * compiling and matching stay linear in the pattern and the value. Length alone does
 * not bound the work: `\pL{1000}` is ten characters but compiles to a thousand copies
 * of a class of some 1,300 ranges (about 70 ms to compile, 250 ms per match of a
 * 1,000-character value). So the compiled program is bounded too:
 * {@link MAX_PATTERN_COST} (instructions plus their rune-range bounds).
 */
import { RE2JS } from "re2js";
import {
  MAX_PATTERN_COST,
  MAX_PATTERN_LENGTH,
  patternCost,
} from "../sdk/resources/identity-bounds";
import { invalidArgument } from "./errors";

// The bounds are stated once for the provider's checks and for this
// stand-in (`sdk/resources/identity-bounds.ts`); what is refused, and how, is decided here.
export { MAX_PATTERN_LENGTH };

/** Compiled patterns by source, so an exchange does not compile the same pattern again. */
const compiled = new Map<string, RE2JS>();
/** Enough for every pattern a test or a demo uses; the oldest entry goes first. */
const CACHE_SIZE = 512;

/**
 * Compiles `pattern`, or throws INVALID_ARGUMENT on `field`:
 * `<field>: not a valid RE2 pattern: <compiler message>` (the message names the
 * offending part of the pattern, never anything else), or
 * `<field>: must be at most 1024 characters`.
 */
export function compilePattern(field: string, pattern: string): RE2JS {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw invalidArgument(field, `must be at most ${MAX_PATTERN_LENGTH} characters`);
  }
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalidArgument(field, `not a valid RE2 pattern: ${message}`);
  }
  const cost = patternCost(regex);
  if (cost > MAX_PATTERN_COST) {
    throw invalidArgument(
      field,
      `compiles to a program of ${cost} units, more than ${MAX_PATTERN_COST} (a large class such as \\pL repeated many times); write a smaller pattern`,
    );
  }
  if (compiled.size >= CACHE_SIZE) {
    const oldest = compiled.keys().next().value;
    if (oldest !== undefined) compiled.delete(oldest);
  }
  compiled.set(pattern, regex);
  return regex;
}

/** Validates `pattern` as {@link compilePattern} does and answers it unchanged. */
export function requirePattern(field: string, pattern: string): string {
  compilePattern(field, pattern);
  return pattern;
}

/**
 * Whether `pattern` matches the whole of `value` (RE2 `matches`: anchored at both
 * ends, so `a|abc` matches `abc` and `b` does not). `pattern` was validated when it
 * was stored; a stored pattern that no longer compiles matches nothing.
 */
export function fullMatch(pattern: string, value: string): boolean {
  try {
    return compilePattern("pattern", pattern).matches(value);
  } catch {
    return false;
  }
}
