/**
 * Everything the emulator remembers: the collections with their indexes, the
 * cross-references role bindings need, and the seed of a fresh organisation.
 */
import { createHash, randomBytes } from "node:crypto";
import { IndexedCollection } from "./indexed-collection";
import { type CollectionName, KIND_ENTRIES, KIND_NAMES, type KINDS, type RecordOf } from "./kinds";
import { BUILT_IN_ROLES, type RoleBindingRecord } from "./model";

/** 16 lowercase hex characters: the segment a child adds to its parent's uid. */
export function childSegment(): string {
  return randomBytes(8).toString("hex");
}

/** 40 lowercase hex characters: root groups, roles and advisories. */
export function flatUid(): string {
  return randomBytes(20).toString("hex");
}

/** Built-in roles keep the same uid in every emulator, so tests and saved state agree. */
export function builtInRoleUid(name: string): string {
  return createHash("sha1").update(`irm built-in role ${name}`).digest("hex");
}

export type { CollectionName } from "./kinds";

/** One change as the `--data` journal stores it: a record's new value, or its removal. */
export type Change = ["put", CollectionName, { uid: string }] | ["del", CollectionName, string];

/** A collection of each kind, its field named as the kind (`state.groups`). */
export type Stores = { readonly [N in CollectionName]: IndexedCollection<RecordOf<N>> };

/** The collections of a saved state: those added later may be absent from older files. */
type SavedCollections = {
  [K in (typeof KINDS)[number] as K["addedLater"] extends false ? K["name"] : never]: RecordOf<
    K["name"]
  >[];
} & {
  [K in (typeof KINDS)[number] as K["addedLater"] extends true ? K["name"] : never]?: RecordOf<
    K["name"]
  >[];
};

/** Everything `--data` saves, as plain JSON. */
export type SavedState = SavedCollections & {
  version: 1;
  /** The last journal record this snapshot includes (absent in files of earlier versions: 0). */
  journalSeq?: number;
  clockOffsetMs: number;
  rootGroupUid: string;
  ownerIdentityUid: string;
  platformUserUid: string;
  /** Private JWKs of the API token key and the OIDC test issuer key. */
  keys: { api: Record<string, unknown>; oidc: Record<string, unknown> };
};

/** The records of collection `name` in `saved`, or undefined when the file has none. */
export function savedRecords(
  saved: SavedState,
  name: CollectionName,
): Array<{ uid: string }> | undefined {
  return (saved as unknown as Record<string, Array<{ uid: string }> | undefined>)[name];
}

/** A class whose instances hold one store per kind of `kinds.ts`, each indexed by its name key. */
function storesOfEveryKind(): new () => Stores {
  return class {
    constructor() {
      for (const entry of KIND_ENTRIES) {
        (this as Record<string, unknown>)[entry.name] = new IndexedCollection(entry.nameKey);
      }
    }
  } as unknown as new () => Stores;
}

export class State extends storesOfEveryKind() {
  /** Binding uids per identity uid and per role uid, for access checks and in-use checks. */
  private readonly bindingsByIdentity = new Map<string, Set<string>>();
  private readonly bindingsByRole = new Map<string, Set<string>>();

  /**
   * Each identity's own metadata (`identities:updateIdentityMetadata`), by identity uid:
   * profile fields the platform passes on to its own systems. Kept for the process's
   * life only, never in `--data` files.
   */
  readonly identityMetadata = new Map<string, Record<string, string | boolean>>();

  rootGroupUid = "";
  ownerIdentityUid = "";
  platformUserUid = "";

  /** Bumped on every change, so persistence knows when to write. */
  revision = 0;

  /** Uids inserted, replaced or deleted since the last `takeChanges`, per collection. */
  private readonly changed = new Map<CollectionName, Set<string>>();
  private changedCount = 0;

  constructor() {
    super();
    for (const name of KIND_NAMES) {
      this.collection(name).onChange = (uid) => this.noteChange(name, uid);
    }
  }

  touch(): void {
    this.revision++;
  }

  private noteChange(name: CollectionName, uid: string): void {
    let uids = this.changed.get(name);
    if (!uids) {
      uids = new Set();
      this.changed.set(name, uids);
    }
    if (!uids.has(uid)) {
      uids.add(uid);
      this.changedCount++;
    }
  }

  /** How many records changed since the last `takeChanges` (or `discardChanges`). */
  get pendingChangeCount(): number {
    return this.changedCount;
  }

  /**
   * The records changed since the last call, each at its current value (or removed),
   * and forgets them. Records are live objects: serialise them before anything else runs.
   */
  takeChanges(): Change[] {
    const changes: Change[] = [];
    for (const [name, uids] of this.changed) {
      const collection = this.collection(name);
      for (const uid of uids) {
        const record = collection.get(uid);
        changes.push(record ? ["put", name, record] : ["del", name, uid]);
      }
    }
    this.discardChanges();
    return changes;
  }

  /** A collection by name, as plain records (for the journal, which stores them as JSON). */
  collection(name: CollectionName): IndexedCollection<{ uid: string }> {
    return this[name] as unknown as IndexedCollection<{ uid: string }>;
  }

  /** Forgets the changes noted so far (they are in a snapshot now). */
  discardChanges(): void {
    this.changed.clear();
    this.changedCount = 0;
  }

  /** Replays one journal change, keeping every index (and the binding cross-references) right. */
  applyChange(change: Change): void {
    const [op, name] = change;
    if (!KIND_NAMES.includes(name)) throw new Error(`unknown collection ${String(name)}`);
    if (op === "del") {
      const uid = change[2];
      if (name === "roleBindings") this.deleteBinding(uid);
      else this.collection(name).delete(uid);
      return;
    }
    if (op !== "put") throw new Error(`unknown change ${String(op)}`);
    const record = change[2];
    if (typeof record?.uid !== "string") throw new Error("a put without a uid");
    if (name === "roleBindings") {
      const binding = record as RoleBindingRecord;
      if (this.roleBindings.has(binding.uid)) this.replaceBinding(binding);
      else this.addBinding(binding);
      return;
    }
    const collection = this.collection(name);
    if (collection.has(record.uid)) collection.replace(record);
    else collection.insert(record);
  }

  addBinding(binding: RoleBindingRecord): void {
    this.roleBindings.insert(binding);
    this.indexBinding(binding);
  }

  replaceBinding(binding: RoleBindingRecord): void {
    const previous = this.roleBindings.get(binding.uid);
    if (previous) this.unindexBinding(previous);
    this.roleBindings.replace(binding);
    this.indexBinding(binding);
  }

  deleteBinding(uid: string): void {
    const removed = this.roleBindings.delete(uid);
    if (removed) this.unindexBinding(removed);
  }

  bindingsOfIdentity(identityUid: string): RoleBindingRecord[] {
    const uids = this.bindingsByIdentity.get(identityUid);
    if (!uids) return [];
    const bindings: RoleBindingRecord[] = [];
    for (const uid of uids) {
      const binding = this.roleBindings.get(uid);
      if (binding) bindings.push(binding);
    }
    return bindings;
  }

  countBindingsOfRole(roleUid: string): number {
    return this.bindingsByRole.get(roleUid)?.size ?? 0;
  }

  countBindingsOfIdentity(identityUid: string): number {
    return this.bindingsByIdentity.get(identityUid)?.size ?? 0;
  }

  private indexBinding(binding: RoleBindingRecord): void {
    addTo(this.bindingsByIdentity, binding.identityUid, binding.uid);
    addTo(this.bindingsByRole, binding.roleUid, binding.uid);
  }

  private unindexBinding(binding: RoleBindingRecord): void {
    removeFrom(this.bindingsByIdentity, binding.identityUid, binding.uid);
    removeFrom(this.bindingsByRole, binding.roleUid, binding.uid);
  }

  /** Seeds a fresh organisation; `issuer` is the emulator's own OIDC issuer. */
  seed(now: string, issuer: string, withSamples = true): void {
    const stamp = { createTime: now, updateTime: now };
    this.rootGroupUid = flatUid();
    this.groups.insert({
      uid: this.rootGroupUid,
      name: "example-org",
      description: "Root organisation seeded by the emulator",
      resourceLimits: { clusters: 5, idps: 3, repositories: 100 },
      verified: true,
      ...stamp,
    });
    for (const role of BUILT_IN_ROLES) {
      this.roles.insert({
        uid: builtInRoleUid(role.name),
        name: role.name,
        description: role.description,
        capabilities: [...role.capabilities],
        ...stamp,
      });
    }
    /** An identity in the root for `subject` of the emulator's issuer, bound there to `role`. */
    const rootIdentity = (name: string, description: string, subject: string, role: string) => {
      const uid = `${this.rootGroupUid}/${childSegment()}`;
      this.identities.insert({ uid, name, description, claimMatch: { issuer, subject }, ...stamp });
      this.addBinding({
        uid: `${this.rootGroupUid}/${childSegment()}`,
        identityUid: uid,
        roleUid: builtInRoleUid(role),
        ...stamp,
      });
      return uid;
    };
    this.ownerIdentityUid = rootIdentity(
      "bootstrap-owner",
      "Owner of the root organisation; the bootstrap token acts as it",
      "bootstrap-owner",
      "owner",
    );
    this.platformUserUid = rootIdentity(
      "platform-user",
      "Any user of the platform may assume this identity",
      "*",
      "viewer",
    );
    if (withSamples) this.seedSamples(now);
    this.touch();
  }

  /** A few registry repos (some public) with tags under the root, and advisories. */
  private seedSamples(now: string): void {
    const stamp = { createTime: now, updateTime: now };
    const repos = [
      {
        name: "nginx",
        description: "Web server",
        public: true,
        tier: "CATALOG_TIER_APPLICATION",
        tags: ["1.27", "1.27.3", "latest"],
      },
      {
        name: "python",
        description: "Python runtime",
        public: true,
        tier: "CATALOG_TIER_BASE",
        tags: ["3.13", "latest"],
      },
      {
        name: "internal-api",
        description: "Private service",
        public: false,
        tier: "CATALOG_TIER_APPLICATION",
        tags: ["v1", "v2"],
      },
    ];
    for (const repo of repos) {
      const repoUid = `${this.rootGroupUid}/${childSegment()}`;
      this.repos.insert({
        uid: repoUid,
        name: repo.name,
        description: repo.description,
        catalogTier: repo.tier,
        aliases: [],
        public: repo.public,
        ...stamp,
      });
      for (const tag of repo.tags) {
        this.tags.insert({
          uid: `${repoUid}/${childSegment()}`,
          name: tag,
          digest: `sha256:${createHash("sha256").update(`${repo.name}:${tag}`).digest("hex")}`,
          deprecated: tag === "1.27",
          ...stamp,
        });
      }
    }
    const advisories = [
      {
        advisoryId: "CVE-2026-0001",
        artifactName: "openssl",
        componentName: "openssl",
        componentLocation: "/usr/lib/libssl.so.3",
        aliases: ["GHSA-0001"],
        fixed: "3.5.1-r0",
        score: "9.8",
      },
      {
        advisoryId: "CVE-2026-0002",
        artifactName: "zlib",
        componentName: "zlib",
        componentLocation: "/usr/lib/libz.so.1",
        aliases: [],
        fixed: undefined,
        score: "7.5",
      },
      {
        advisoryId: "CVE-2026-0003",
        artifactName: "python-3.13",
        componentName: "openssl",
        componentLocation: "/usr/lib/python3.13/lib-dynload/_ssl.cpython-313-x86_64-linux-gnu.so",
        aliases: [],
        fixed: "3.13.2-r1",
        score: "5.3",
      },
    ].map(({ fixed, score, ...advisory }) => ({
      ...advisory,
      author: "advisories@example.org",
      artifactType: "apk",
      artifactArchitecture: "x86_64",
      componentType: "apk",
      events: [
        {
          uid: flatUid(),
          createTime: now,
          author: "advisories@example.org",
          reviewState: "REVIEW_STATE_APPROVED",
          ...(fixed === undefined
            ? { detection: { manual: {} } }
            : { fixed: { fixedVersion: fixed, note: "" } }),
        },
      ],
      severities: [{ type: "TYPE_CVSS_V3", score }],
    }));
    for (const advisory of advisories) {
      this.advisories.insert({ uid: flatUid(), ...advisory, ...stamp });
    }
    this.touch();
  }

  toSaved(clockOffsetMs: number, keys: SavedState["keys"], journalSeq = 0): SavedState {
    const saved: Record<string, unknown> = {
      version: 1,
      journalSeq,
      clockOffsetMs,
      rootGroupUid: this.rootGroupUid,
      ownerIdentityUid: this.ownerIdentityUid,
      platformUserUid: this.platformUserUid,
      keys,
    };
    for (const name of KIND_NAMES) saved[name] = [...this.collection(name).values()];
    return saved as SavedState;
  }

  /** Loads a saved state, already brought to today's shapes (see `migrate.ts`). */
  load(saved: SavedState): void {
    this.rootGroupUid = saved.rootGroupUid;
    this.ownerIdentityUid = saved.ownerIdentityUid;
    this.platformUserUid = saved.platformUserUid;
    for (const entry of KIND_ENTRIES) {
      // A collection older files lack is read as none; any other must be there.
      const records = savedRecords(saved, entry.name) ?? (entry.addedLater ? [] : undefined);
      if (entry.name === "roleBindings") {
        for (const binding of records as RoleBindingRecord[]) this.addBinding(binding);
      } else {
        this.collection(entry.name).insertMany(records as { uid: string }[]);
      }
    }
    this.refreshBuiltInRoles();
    this.discardChanges();
  }

  /**
   * Built-in roles are defined by the code, not by the data file: a file written by an
   * earlier version keeps their uids and times but takes today's capabilities and
   * description (the capability set grew with identity providers, invites and account
   * associations).
   */
  private refreshBuiltInRoles(): void {
    for (const definition of BUILT_IN_ROLES) {
      const uid = builtInRoleUid(definition.name);
      const stored = this.roles.get(uid);
      if (!stored) continue;
      const same =
        stored.description === definition.description &&
        JSON.stringify(stored.capabilities) === JSON.stringify(definition.capabilities);
      if (same) continue;
      this.roles.replace({
        ...stored,
        description: definition.description,
        capabilities: [...definition.capabilities],
      });
    }
  }

  /** After a restart on another address, the built-in identities follow the new issuer. */
  retargetIssuer(issuer: string): void {
    for (const uid of [this.ownerIdentityUid, this.platformUserUid]) {
      const identity = this.identities.get(uid);
      if (identity) identity.claimMatch = { ...identity.claimMatch, issuer };
    }
  }
}

function addTo(index: Map<string, Set<string>>, key: string, value: string): void {
  let values = index.get(key);
  if (!values) {
    values = new Set();
    index.set(key, values);
  }
  values.add(value);
}

function removeFrom(index: Map<string, Set<string>>, key: string, value: string): void {
  const values = index.get(key);
  if (!values) return;
  values.delete(value);
  if (values.size === 0) index.delete(key);
}
