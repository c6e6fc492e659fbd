/**
 * A store of records keyed by uid, indexed so that scoped lists cost about the
 * number of matches: a sorted array of every uid (descendants of X are the
 * contiguous range of uids starting with `X/`), a sorted array of uids per parent
 * (children of X) and a map from name to uids.
 */
import { parentOf } from "../sdk/uids";

export interface UidRange {
  /** Sorted ascending uids; only `[start, end)` belongs to the range. */
  readonly uids: readonly string[];
  readonly start: number;
  readonly end: number;
}

/** First index in `sorted` whose value is >= `value` (or > it when `strict`). */
export function lowerBound(sorted: readonly string[], value: string, strict = false): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const before = strict ? sorted[mid] <= value : sorted[mid] < value;
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(sorted: string[], value: string): void {
  sorted.splice(lowerBound(sorted, value), 0, value);
}

function removeSorted(sorted: string[], value: string): void {
  const at = lowerBound(sorted, value);
  if (sorted[at] === value) sorted.splice(at, 1);
}

/** A record's sort key for one `order_by` field; ties are broken by uid. */
export interface OrderEntry {
  readonly key: string;
  readonly uid: string;
}

export function compareOrderEntries(a: OrderEntry, b: OrderEntry): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  if (a.uid !== b.uid) return a.uid < b.uid ? -1 : 1;
  return 0;
}

/** First index in `sorted` whose entry is >= `entry` (or > it when `strict`). */
export function entryBound(
  sorted: readonly OrderEntry[],
  entry: OrderEntry,
  strict = false,
): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareOrderEntries(sorted[mid], entry);
    if (order < 0 || (strict && order === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface OrderIndex<T> {
  keyOf: (record: T) => string;
  /** Every record as (key, uid), sorted by key then uid. */
  entries: OrderEntry[];
}

export class IndexedCollection<T extends { uid: string }> {
  private readonly byUid = new Map<string, T>();
  private readonly sortedUids: string[] = [];
  private readonly childrenByParent = new Map<string, string[]>();
  private readonly uidsByName = new Map<string, Set<string>>();
  /** Sorted (key, uid) arrays per `order_by` field, built on first use, then kept current. */
  private readonly orderIndexes = new Map<string, OrderIndex<T>>();
  /**
   * Told the uid of every record inserted, replaced or deleted, so `--data` can journal
   * exactly what changed (emulator/persistence.ts). A record changed in place, without
   * `replace`, is not seen here.
   */
  onChange: ((uid: string) => void) | undefined;

  /**
   * @param nameOf the value the `name` filter matches (e.g. `advisoryId` for advisories).
   * @param parentOfRecord the scope parent; by default the uid's parent path (`""` for a
   *   flat uid, the key the records without a parent are indexed under).
   */
  constructor(
    private readonly nameOf: (record: T) => string,
    private readonly parentOfRecord: (record: T) => string = (record) => parentOf(record.uid) ?? "",
  ) {}

  get size(): number {
    return this.byUid.size;
  }

  get(uid: string): T | undefined {
    return this.byUid.get(uid);
  }

  has(uid: string): boolean {
    return this.byUid.has(uid);
  }

  values(): IterableIterator<T> {
    return this.byUid.values();
  }

  insert(record: T): void {
    if (this.byUid.has(record.uid)) throw new Error(`duplicate uid ${record.uid}`);
    this.byUid.set(record.uid, record);
    insertSorted(this.sortedUids, record.uid);
    const parent = this.parentOfRecord(record);
    let siblings = this.childrenByParent.get(parent);
    if (!siblings) {
      siblings = [];
      this.childrenByParent.set(parent, siblings);
    }
    insertSorted(siblings, record.uid);
    this.addName(record);
    this.addOrderEntries(record);
    this.onChange?.(record.uid);
  }

  /** Inserts many records with one sort per index instead of one splice per record. */
  insertMany(records: readonly T[]): void {
    if (records.length < 64) {
      for (const record of records) this.insert(record);
      return;
    }
    const touchedParents = new Set<string>();
    for (const record of records) {
      if (this.byUid.has(record.uid)) throw new Error(`duplicate uid ${record.uid}`);
      this.byUid.set(record.uid, record);
      this.sortedUids.push(record.uid);
      const parent = this.parentOfRecord(record);
      let siblings = this.childrenByParent.get(parent);
      if (!siblings) {
        siblings = [];
        this.childrenByParent.set(parent, siblings);
      }
      siblings.push(record.uid);
      touchedParents.add(parent);
      this.addName(record);
      this.onChange?.(record.uid);
    }
    this.sortedUids.sort();
    for (const parent of touchedParents) this.childrenByParent.get(parent)?.sort();
    for (const index of this.orderIndexes.values()) {
      for (const record of records)
        index.entries.push({ key: index.keyOf(record), uid: record.uid });
      index.entries.sort(compareOrderEntries);
    }
  }

  /** Replaces a record in place (same uid and parent); keeps the name index right. */
  replace(record: T): void {
    const previous = this.byUid.get(record.uid);
    if (!previous) throw new Error(`unknown uid ${record.uid}`);
    this.removeName(previous);
    this.removeOrderEntries(previous);
    this.byUid.set(record.uid, record);
    this.addName(record);
    this.addOrderEntries(record);
    this.onChange?.(record.uid);
  }

  delete(uid: string): T | undefined {
    const record = this.byUid.get(uid);
    if (!record) return undefined;
    this.byUid.delete(uid);
    removeSorted(this.sortedUids, uid);
    const parent = this.parentOfRecord(record);
    const siblings = this.childrenByParent.get(parent);
    if (siblings) {
      removeSorted(siblings, uid);
      if (siblings.length === 0) this.childrenByParent.delete(parent);
    }
    this.removeName(record);
    this.removeOrderEntries(record);
    this.onChange?.(uid);
    return record;
  }

  /** Every uid, sorted. */
  all(): UidRange {
    return { uids: this.sortedUids, start: 0, end: this.sortedUids.length };
  }

  /** Uids strictly below `ancestor` in the uid path (`ancestor/...`), sorted. */
  descendantsOf(ancestor: string): UidRange {
    const prefix = `${ancestor}/`;
    const start = lowerBound(this.sortedUids, prefix);
    // "0" is the character after "/", so every uid with the prefix sorts before prefix-with-"0".
    const end = lowerBound(this.sortedUids, `${ancestor}0`);
    return { uids: this.sortedUids, start, end };
  }

  /** Uids whose scope parent is exactly `parent`, sorted. */
  childrenOf(parent: string): UidRange {
    const children = this.childrenByParent.get(parent) ?? [];
    return { uids: children, start: 0, end: children.length };
  }

  hasChildren(parent: string): boolean {
    return (this.childrenByParent.get(parent)?.length ?? 0) > 0;
  }

  countChildren(parent: string): number {
    return this.childrenByParent.get(parent)?.length ?? 0;
  }

  /** The scope parent of a record (what `childrenOf` groups by). */
  scopeParentOf(record: T): string {
    return this.parentOfRecord(record);
  }

  /**
   * Every record as (key, uid) sorted by `keyOf` then uid, for lists ordered by a field
   * other than uid. Built (one sort) on the first list ordered by `field`, then kept up
   * to date by every change, so such a page costs about the page, not the collection.
   * `keyOf` must always give the same key for the same record and `field`.
   */
  orderedBy(field: string, keyOf: (record: T) => string): readonly OrderEntry[] {
    let index = this.orderIndexes.get(field);
    if (!index) {
      const entries: OrderEntry[] = [];
      for (const record of this.byUid.values())
        entries.push({ key: keyOf(record), uid: record.uid });
      entries.sort(compareOrderEntries);
      index = { keyOf, entries };
      this.orderIndexes.set(field, index);
    }
    return index.entries;
  }

  /** Uids whose name (as `nameOf` defines it) is exactly `name`, sorted. */
  named(name: string): string[] {
    return [...(this.uidsByName.get(name) ?? [])].sort();
  }

  private addName(record: T): void {
    const name = this.nameOf(record);
    let uids = this.uidsByName.get(name);
    if (!uids) {
      uids = new Set();
      this.uidsByName.set(name, uids);
    }
    uids.add(record.uid);
  }

  private addOrderEntries(record: T): void {
    for (const index of this.orderIndexes.values()) {
      const entry = { key: index.keyOf(record), uid: record.uid };
      index.entries.splice(entryBound(index.entries, entry), 0, entry);
    }
  }

  private removeOrderEntries(record: T): void {
    for (const index of this.orderIndexes.values()) {
      const entry = { key: index.keyOf(record), uid: record.uid };
      const at = entryBound(index.entries, entry);
      if (at < index.entries.length && compareOrderEntries(index.entries[at], entry) === 0) {
        index.entries.splice(at, 1);
      }
    }
  }

  private removeName(record: T): void {
    const name = this.nameOf(record);
    const uids = this.uidsByName.get(name);
    if (!uids) return;
    uids.delete(record.uid);
    if (uids.size === 0) this.uidsByName.delete(name);
  }
}
