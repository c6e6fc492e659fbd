/**
 * Names of the generated program: a Pulumi resource name (`payments-api`) and a
 * TypeScript variable (`paymentsApi`) for each object, derived from the object's
 * name. The same organisation always gets the same names: collisions are resolved
 * by qualifying every colliding object with its parents' names, then with a piece of
 * its uid, never by the order objects were read in.
 */

/** Words of an API name (`^[a-z0-9 ._-]+$`): split at spaces, dots, underscores and dashes. */
export function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** `payments api` -> `paymentsApi`; a leading digit gets `fallback` in front (`group2024`). */
export function identifierOf(words: readonly string[], fallback: string): string {
  const all = words.length === 0 || /^[0-9]/.test(words[0]) ? [fallback, ...words] : words;
  return all.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join("");
}

/** `payments api` -> `payments-api`. */
export function resourceNameOf(words: readonly string[], fallback: string): string {
  return words.length === 0 ? fallback : words.join("-");
}

/**
 * Names a variable of the generated program must never take: JavaScript's and
 * TypeScript's reserved and contextual words (strict mode's included), what a CommonJS
 * module has in scope (`exports`, `require`, `module`, `__filename`, `__dirname`;
 * declaring `const exports` breaks the compiled program at load time), the globals a
 * program may use, and the program's own names (its imports and constants).
 */
export const RESERVED: ReadonlySet<string> = new Set([
  ...[
    "break case catch class const continue debugger default delete do else enum export extends",
    "false finally for function if import in instanceof new null return super switch this throw",
    "true try typeof var void while with as implements interface let package private protected",
    "public static yield any boolean number string symbol type from of async await constructor",
    "declare get set module namespace require undefined arguments eval",
    "abstract accessor asserts bigint global infer intrinsic is keyof never object out override",
    "readonly satisfies unique unknown using",
    "exports __filename __dirname globalThis process console Buffer setTimeout setInterval",
    "setImmediate clearTimeout clearInterval clearImmediate queueMicrotask structuredClone",
    "NaN Infinity Object Array String Number Boolean Symbol BigInt Promise Error JSON Math Date",
    "RegExp Map Set WeakMap WeakSet Proxy Reflect Function URL",
  ]
    .join(" ")
    .split(" "),
  // Names the generated program itself uses.
  "pulumi",
  "irm",
  "config",
  "options",
]);

/** One object to name: the word lists to try, most readable first. */
export interface NameCandidate<T> {
  item: T;
  /**
   * Word lists, each more qualified than the one before (`[ci]`, `[platform, ci]`,
   * ...). The last one is followed by two uid-qualified forms, so names always end up
   * unique.
   */
  levels: string[][];
  /** The object's uid; its last segment makes the final, unique form. */
  uid: string;
}

export interface AssignedName {
  /** Resource name: unique among resources of the same type. */
  resourceName: string;
  /** Words of the resource name, for deriving a variable. */
  words: string[];
}

/** The end of the uid's last segment (a whole segment at most). */
function uidPiece(uid: string, length: number): string {
  const last = uid.slice(uid.lastIndexOf("/") + 1);
  return last.slice(-length);
}

function wordsAt<T>(candidate: NameCandidate<T>, level: number): string[] {
  const { levels } = candidate;
  if (level < levels.length) return levels[level];
  const most = levels[levels.length - 1] ?? [];
  return [...most, uidPiece(candidate.uid, level === levels.length ? 8 : 40)];
}

/**
 * Unique names within one resource type. Every member of a collision moves up a
 * level together, so a name never depends on which object was seen first.
 */
export function assignNames<T>(
  candidates: ReadonlyArray<NameCandidate<T>>,
  fallback: string,
): Map<T, AssignedName> {
  const level = candidates.map(() => 0);
  const keyOf = (i: number) => identifierOf(wordsAt(candidates[i], level[i]), fallback);
  for (;;) {
    const byKey = new Map<string, number[]>();
    candidates.forEach((_, i) => {
      const key = keyOf(i);
      byKey.set(key, [...(byKey.get(key) ?? []), i]);
    });
    let moved = false;
    for (const members of byKey.values()) {
      if (members.length < 2) continue;
      for (const i of members) {
        // The full-uid form is unique already; nothing is past it.
        if (level[i] <= candidates[i].levels.length) {
          level[i] += 1;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  const names = new Map<T, AssignedName>();
  candidates.forEach((candidate, i) => {
    const words = wordsAt(candidate, level[i]);
    names.set(candidate.item, { resourceName: resourceNameOf(words, fallback), words });
  });
  return names;
}

/** Hands out variable names unique across the whole program. */
export class VariableNames {
  private readonly taken = new Set(RESERVED);

  /**
   * The variable for these words; when it is taken (by another kind of object or a
   * reserved word), `kind` is added (`configGroup`), then a piece of the uid.
   */
  claim(words: readonly string[], kind: string, uid: string): string {
    const forms = [
      identifierOf(words, kind),
      identifierOf([...words, kind], kind),
      identifierOf([...words, kind, uidPiece(uid, 8)], kind),
      identifierOf([...words, kind, uidPiece(uid, 40)], kind),
    ];
    const free = forms.find((form) => !this.taken.has(form)) ?? forms[forms.length - 1];
    this.taken.add(free);
    return free;
  }
}
