/**
 * Which resource of a stack each logged request was for, so that a run's requests can
 * be set against the floor of every resource and not only of the whole stack.
 *
 * A read, update or delete names the object's uid in its path: it belongs to the
 * resource whose id that is (before or after the run, so the old half of a replacement
 * counts too). A create names only the parent (`POST /identities/<group uid>`): it
 * belongs to the resources the run created or replaced under that parent in that
 * collection, one POST each, in the order the engine started their steps. That order is
 * the order of the requests only when steps run one at a time (the mini engine's
 * `parallel: 1`, which the benchmark stacks use). A GET of an object that a later POST of
 * the run creates under (the check of a new object reads its parent, or container, to
 * refuse a missing one before any write) belongs to that create, not to the object read:
 * the engine checks the new half of a replacement again without its old inputs, so a
 * replaced object's check reads its container even when the container is unchanged.
 * Anything else (listings, lookups of objects outside the stack) is left unattributed,
 * and the stack's totals still count it.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { LogEntry } from "../../harness/emulator";
import { API_PATH, collectionOf } from "./stack";

/** What attribution needs of a resource in state (the mini engine's or a real checkpoint's). */
export interface ResourceRef {
  urn: string;
  type: string;
  id: string;
  inputs: Record<string, unknown>;
}

/** One step of a run, in the order the engine started it. */
export interface StepRef {
  op: string;
  urn: string;
}

/** Ops that create an object: a create, or the new half of a replacement. */
const CREATING_OPS = new Set(["create", "replace", "create-replacement"]);

/** The API collection of each resource type of the package, by the type token's last part. */
const COLLECTIONS: Record<string, string> = {
  Group: "groups",
  Identity: "identities",
  RoleBinding: "roleBindings",
  Role: "roles",
  IdentityProvider: "identityProviders",
  GroupInvite: "groupInvites",
  AccountAssociation: "accountAssociations",
  ExternalGroupRoleMapping: "externalGroupRoleMappings",
  Repo: "repos",
  Subscription: "subscriptions",
};

/** `groups` for `pulumi-nodejs:dynamic/irm:Group`; undefined for a type of another package. */
export function collectionOfType(type: string): string | undefined {
  const kind = type.match(/irm:([A-Za-z]+)$/)?.[1];
  return kind === undefined ? undefined : COLLECTIONS[kind];
}

/**
 * The path after the collection (`<uid>` or `<parent uid>`), decoded; `""` for a listing.
 * A repo's README (`repos/<uid>/readme`) is addressed to its repo.
 */
export function addressOf(entry: LogEntry): string {
  const match = entry.path.match(API_PATH);
  return match ? decodeURIComponent(match[2]).replace(/\/readme$/, "") : "";
}

/** The paths of an update mask (`updateMask=a,b` or repeated), sorted; empty without one. */
export function updateMaskOf(entry: LogEntry): string[] {
  const params = new URLSearchParams(entry.query);
  return [...params.getAll("updateMask"), ...params.getAll("update_mask")]
    .flatMap((value) => value.split(","))
    .map((path) => path.trim())
    .filter((path) => path.length > 0)
    .sort();
}

/** The resource's name: the last segment of its URN. */
export function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function parentOf(resource: ResourceRef): unknown {
  // A mapping is created under its identity provider.
  return (
    resource.inputs.parentUid ?? resource.inputs.groupUid ?? resource.inputs.identityProviderUid
  );
}

export interface Attribution {
  /** Requests per resource name, in log order. */
  byName: Map<string, LogEntry[]>;
  /** Requests addressed to no resource of the stack. */
  unattributed: LogEntry[];
}

/**
 * The requests of one run, by the resource they were for (see the module comment):
 * `before` and `after` are the resources in state before and after the run (the old
 * halves of replacements included), `steps` the run's steps in the order they started.
 */
export function attributeRequests(
  requests: LogEntry[],
  before: ResourceRef[],
  after: ResourceRef[],
  steps: StepRef[],
): Attribution {
  const known = [...before, ...after];
  const byAddress = new Map<string, string>();
  for (const resource of known) {
    const collection = collectionOfType(resource.type);
    if (collection && resource.id) {
      byAddress.set(`${collection} ${resource.id}`, resourceName(resource.urn));
    }
  }
  // Creates waiting for their POST, by collection and parent, in the order of their steps.
  const pendingCreates = new Map<string, string[]>();
  const creating = new Set<string>();
  for (const step of steps) {
    // The real engine reports a replacement as `create-replacement` and `replace`: one create.
    if (!CREATING_OPS.has(step.op) || creating.has(step.urn)) continue;
    creating.add(step.urn);
    const resource = after.find((r) => r.urn === step.urn);
    const collection = resource && collectionOfType(resource.type);
    if (!resource || !collection) continue;
    const key = `${collection} ${String(parentOf(resource))}`;
    pendingCreates.set(key, [...(pendingCreates.get(key) ?? []), resourceName(step.urn)]);
  }

  const byName = new Map<string, LogEntry[]>();
  const unattributed: LogEntry[] = [];
  for (const [index, entry] of requests.entries()) {
    const key = `${collectionOf(entry)} ${addressOf(entry)}`;
    let name: string | undefined;
    if (entry.method === "POST") name = pendingCreates.get(key)?.shift();
    if (entry.method === "GET") name = containerCheckOf(entry, requests.slice(index + 1));
    // An association is created at its group's uid, which is also its own.
    if (name === undefined && addressOf(entry) !== "") name = byAddress.get(key);
    if (name === undefined) unattributed.push(entry);
    else byName.set(name, [...(byName.get(name) ?? []), entry]);
  }
  return { byName, unattributed };

  /** The create whose check read `entry`'s object as its container: the next POST under it. */
  function containerCheckOf(entry: LogEntry, later: LogEntry[]): string | undefined {
    const container = addressOf(entry);
    if (container === "") return undefined;
    const post = later.find(
      (next) =>
        next.method === "POST" &&
        addressOf(next) === container &&
        (pendingCreates.get(`${collectionOf(next)} ${container}`)?.length ?? 0) > 0,
    );
    return post && pendingCreates.get(`${collectionOf(post)} ${container}`)?.[0];
  }
}

/** What one resource should send in one run: the floor's requests, and an update's mask. */
export interface Expected {
  /** Methods of the floor, e.g. `["PATCH"]`, `["POST", "DELETE"]`, `[]`. */
  methods: string[];
  /** For an update: the mask paths, exactly (order does not matter). */
  mask?: string[];
}

export interface Judgement {
  /** Whether the requests are the floor exactly: the same methods, and the expected mask. */
  met: boolean;
  /** How they differ from the floor, in words; empty when they do not. */
  differences: string[];
}

/** The requests one resource sent in one run, against what the floor allows. */
export function judge(requests: LogEntry[], expected: Expected): Judgement {
  const differences: string[] = [];
  const methods = requests.map((entry) => entry.method).sort();
  const floor = [...expected.methods].sort();
  if (methods.join(" ") !== floor.join(" ")) {
    differences.push(
      `sent ${methods.length === 0 ? "nothing" : methods.join(" + ")} where the floor is ` +
        `${floor.length === 0 ? "nothing" : floor.join(" + ")}`,
    );
  }
  const failed = requests.filter((entry) => entry.status !== 200);
  if (failed.length > 0) {
    differences.push(`${failed.length} answered ${failed.map((entry) => entry.status).join(", ")}`);
  }
  if (expected.mask) {
    const want = [...expected.mask].sort().join(",");
    for (const entry of requests.filter((e) => e.method === "PATCH")) {
      const mask = updateMaskOf(entry).join(",");
      if (mask !== want) differences.push(`mask ${mask || "(none)"} where it should be ${want}`);
    }
  }
  return { met: differences.length === 0, differences };
}

/**
 * Where values that must never be written appear: `secrets` by what they are (never the
 * value itself), `places` by name, each a string or a JSON value searched leaf by leaf.
 * Answers `<place>: <what> at <JSON path>` lines, so a leak can be found without being
 * repeated.
 */
export function leaksIn(
  secrets: Record<string, string>,
  places: Record<string, unknown>,
): string[] {
  const found: string[] = [];
  const visit = (place: string, value: unknown, at: string): void => {
    if (typeof value === "string") {
      for (const [what, secret] of Object.entries(secrets)) {
        if (secret.length > 0 && value.includes(secret))
          found.push(`${place}: ${what} at ${at || "."}`);
      }
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(place, item, `${at}[${i}]`);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        visit(place, key, `${at}.${key} (key)`);
        visit(place, item, `${at}.${key}`);
      }
    }
  };
  for (const [place, value] of Object.entries(places)) visit(place, value, "");
  return found;
}

/** The key and value that mark a Pulumi secret in state and exports. */

/**
 * `value` with every Pulumi secret envelope (`{"4dabf…": "1b47…", ciphertext | plaintext |
 * value}`) replaced by `"[secret]"`: what is left is what state keeps in the open. (An
 * export with `--show-secrets`, as the Automation API makes, holds secrets as `plaintext`
 * inside their envelopes.)
 */
export function outsideSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(outsideSecrets);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[specialSigKey] === specialSecretSig) return "[secret]";
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, outsideSecrets(v)]));
}
