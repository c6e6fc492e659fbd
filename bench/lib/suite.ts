/** What every benchmark suite gets and gives back. */
import type { Section } from "./report";

export interface SuiteContext {
  /** Fewer repetitions and sizes: a smoke run, not the figures of record. */
  quick: boolean;
  /** Progress line on stderr (never a token). */
  log(message: string): void;
  /** Pick the full or the quick variant of a setting. */
  pick<T>(full: T, quick: T): T;
}

export interface Suite {
  /** Short name for `--only`. */
  name: string;
  /**
   * Ids of the sections the suite writes. Results written before sections named their
   * suite are matched to it by these (or by an id equal to the suite's name) when a
   * later `--record` replaces the suite's sections.
   */
  sectionIds?: readonly string[];
  run(context: SuiteContext): Promise<Section[]>;
}
