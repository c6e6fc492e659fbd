/**
 * The bounds this project holds an identity's members to, stated once (the issuer
 * keys' length is the API decisions' bound; the pattern bounds are the project's own,
 * as the published definitions leave them open): the provider's checks refuse a value
 * beyond them before any request (so a preview fails where the write would), the
 * emulator, standing in for the service, refuses such a write, and the SDK's reader
 * holds an answer's issuer keys to theirs. Each layer words its own
 * refusal. Not part of the SDK's public surface (`sdk/index.ts` exports none of it).
 *
 * A pattern's length alone does not bound the work of compiling and matching it:
 * `\pL{1000}` is ten characters but compiles to a thousand copies of a class of some
 * 1,300 ranges. So its compiled program is bounded too, by {@link patternCost}.
 */
import type { RE2JS } from "re2js";

/** `staticKeys.issuerKeys`, a JWKS document, is at most this many characters. */
export const MAX_ISSUER_KEYS_LENGTH = 65_536;

/**
 * The longest RE2 pattern, in characters. Real subject patterns are a line long
 * (`repo:acme/infra:ref:refs/heads/(main|release-.*)`); 1024 leaves room for long
 * alternations while the worst pattern of that length still compiles quickly.
 */
export const MAX_PATTERN_LENGTH = 1024;

/**
 * The largest compiled program of a pattern, counted by {@link patternCost}. Real
 * patterns cost tens to a few hundred (`repo:acme/infra:ref:refs/heads/(main|release-.*)`
 * 97, `[a-z0-9-]{1,100}` 801, `\pL+` about 1,400); at this bound a pattern compiles in a
 * few milliseconds, while `\pL{1000}` costs over a million.
 */
export const MAX_PATTERN_COST = 10_000;

/**
 * Entries a `claims` or `claimPatterns` map may hold: with each pattern's program
 * bounded, this bounds the work of one write and one exchange.
 */
export const MAX_CLAIM_ENTRIES = 32;

/**
 * The size of a pattern compiled with `re2js`: one per instruction of its program plus
 * one per rune-range bound of its character classes.
 */
export function patternCost(regex: RE2JS): number {
  const prog = (regex as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog;
  const instructions = (prog?.inst ?? []) as Array<{ runes?: ArrayLike<number> | null }>;
  let cost = 0;
  for (const inst of instructions) cost += 1 + (inst.runes?.length ?? 0);
  return cost;
}
