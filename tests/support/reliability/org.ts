/**
 * The generated organisation of the reliability suite (`fixtures/big-org`): a stack of
 * it on the real Pulumi engine (`createEngineStack`, package installed from its packed
 * tarball), and the checks every fault scenario ends with: each declared object exists
 * exactly once, and the stack's state equals the service.
 */
import * as path from "node:path";
import type { TestEmulator } from "../../../harness/emulator";
import type { StateResource, Step } from "../../../harness/stack";
import { groupOutputs } from "../../../provider/handlers/group";
import { identityOutputs } from "../../../provider/handlers/identity";
import { roleBindingOutputs } from "../../../provider/handlers/role-binding";
import type { Group, Identity, IrmClient, RoleBinding } from "../../../sdk/index";
import { isBuiltInRoleUid } from "../../../sdk/index";
import { createEngineStack, type EngineStack } from "../engine-stack";

/** Resources per team in the fixture program: two groups, an identity, two bindings. */
export const RESOURCES_PER_TEAM = 5;

export const TYPE = {
  group: "pulumi-nodejs:dynamic/irm:Group",
  identity: "pulumi-nodejs:dynamic/irm:Identity",
  binding: "pulumi-nodejs:dynamic/irm:RoleBinding",
} as const;

/** Program folders of the suite's fixtures. */
export const FIXTURES = {
  bigOrg: path.join(__dirname, "..", "..", "reliability", "fixtures", "big-org"),
  oneGroup: path.join(__dirname, "..", "..", "reliability", "fixtures", "one-group"),
} as const;

export interface BigOrgOptions {
  /** Names the scratch folder. */
  name: string;
  emulator: TestEmulator;
  teams: number;
  /** Goes into every description; a new revision updates 3 resources per team. */
  revision?: string;
  /** Environment of the engine, program and provider host (retries, timeouts). */
  env?: Record<string, string>;
}

/**
 * A stack of the fixture program on the engine, configured for `emulator` (`irm:apiUrl`,
 * the secret `irm:token`, the root and the emulator's OIDC issuer for claim matches).
 */
export function bigOrgStack(options: BigOrgOptions): Promise<EngineStack> {
  return createEngineStack({
    name: options.name,
    program: FIXTURES.bigOrg,
    emulator: options.emulator,
    projectConfig: {
      rootUid: options.emulator.rootGroupUid,
      issuer: options.emulator.issuer,
      teams: String(options.teams),
      revision: options.revision ?? "1",
    },
    env: options.env,
  });
}

/** Steps of one op in a run. */
export function opsCount(steps: Step[], op: Step["op"]): number {
  return steps.filter((s) => s.op === op).length;
}

/** Last segment of a URN: the resource name steps carry. */
export function nameOfUrn(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

/** What the comparison needs of a state resource. */
export type StateObject = Pick<StateResource, "urn" | "type" | "id" | "outputs">;

/** Every group, identity and role binding below `rootUid`, as the service has them. */
export interface ServiceSnapshot {
  groups: Group[];
  identities: Identity[];
  bindings: RoleBinding[];
  /** Name of each built-in role the bindings name, by uid (`""` for a custom role). */
  builtInRoleNames: Map<string, string>;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

export async function serviceSnapshot(
  client: IrmClient,
  rootUid: string,
): Promise<ServiceSnapshot> {
  const params = { descendantsOf: rootUid, pageSize: 200 };
  const bindings = await all(client.iam.roleBindings.list(params));
  const builtInRoleNames = new Map<string, string>();
  for (const uid of new Set(bindings.map((b) => b.role.uid))) {
    const role = await client.iam.roles.get(uid);
    builtInRoleNames.set(uid, isBuiltInRoleUid(role.uid) ? role.name : "");
  }
  return {
    groups: await all(client.iam.groups.list(params)),
    identities: await all(client.iam.identities.list(params)),
    bindings,
    builtInRoleNames,
  };
}

/** A comparison with nothing to report. */
export const CLEAN: Reconciliation = {
  lost: [],
  duplicates: [],
  untracked: [],
  drifted: [],
  staleHydrated: [],
};

/** How the comparison with the service came out; every list must be empty. */
export interface Reconciliation {
  /** State resources whose object the service does not have. */
  lost: string[];
  /** Names of declared objects the service holds more than once. */
  duplicates: string[];
  /** Objects of the program's teams the service holds but state does not know. */
  untracked: string[];
  /** State resources whose recorded outputs differ from the service's object. */
  drifted: Array<{ urn: string; state: unknown; service: unknown }>;
  /**
   * Role bindings that differ only in the hydrated copies of their identity, group or
   * role: an update of those objects reaches a binding's state at the next refresh.
   */
  staleHydrated: string[];
}

function withoutProvider(outputs: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _provider, ...rest } = outputs;
  return rest;
}

/** Objects that belong to the fixture's teams (seed data and test identities excluded). */
function isTeamObject(uid: string, teamUids: Set<string>): boolean {
  for (const team of teamUids) if (uid === team || uid.startsWith(`${team}/`)) return true;
  return false;
}

/**
 * Compares a stack's state with the service: same objects (by uid), each once, and
 * the outputs state records are exactly what the provider derives from the service's
 * current object.
 */
export function reconcile(state: StateObject[], service: ServiceSnapshot): Reconciliation {
  const byUid = new Map<string, { type: string; outputs: Record<string, unknown> }>();
  for (const group of service.groups) {
    byUid.set(group.uid, { type: TYPE.group, outputs: { ...groupOutputs(group) } });
  }
  for (const identity of service.identities) {
    byUid.set(identity.uid, { type: TYPE.identity, outputs: { ...identityOutputs(identity) } });
  }
  for (const binding of service.bindings) {
    const outputs = roleBindingOutputs(binding, service.builtInRoleNames.get(binding.role.uid));
    byUid.set(binding.uid, { type: TYPE.binding, outputs: { ...outputs } });
  }

  const result: Reconciliation = {
    lost: [],
    duplicates: [],
    untracked: [],
    drifted: [],
    staleHydrated: [],
  };
  const teamUids = new Set(
    state.filter((r) => r.type === TYPE.group && r.id.split("/").length === 2).map((r) => r.id),
  );
  const tracked = new Set<string>();
  for (const resource of state) {
    tracked.add(resource.id);
    const live = byUid.get(resource.id);
    if (!live || live.type !== resource.type) {
      result.lost.push(resource.urn);
      continue;
    }
    const recorded = withoutProvider(resource.outputs);
    // lastSeenTime moves whenever the identity authenticates: not state's to track.
    delete recorded.lastSeenTime;
    delete live.outputs.lastSeenTime;
    // checkedRole is the provider's record of the role its check read, for policy packs
    // (`provider/handlers/checked-role.ts`): no field of the binding on the service.
    delete recorded.checkedRole;
    if (same(recorded, live.outputs)) continue;
    if (
      resource.type === TYPE.binding &&
      same(withoutHydrated(recorded), withoutHydrated(live.outputs))
    ) {
      result.staleHydrated.push(resource.urn);
    } else {
      result.drifted.push({ urn: resource.urn, state: recorded, service: live.outputs });
    }
  }
  for (const uid of byUid.keys()) {
    if (!tracked.has(uid) && isTeamObject(uid, teamUids)) result.untracked.push(uid);
  }

  // Declared names are unique per parent in the fixture: a second one is a duplicate.
  const seen = new Map<string, number>();
  const key = (kind: string, parent: string, name: string) => `${kind} ${parent} ${name}`;
  for (const group of service.groups) {
    const k = key("group", group.uid.slice(0, group.uid.lastIndexOf("/")), group.name);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const identity of service.identities) {
    const k = key("identity", identity.uid.slice(0, identity.uid.lastIndexOf("/")), identity.name);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const binding of service.bindings) {
    const k = key(
      "binding",
      binding.uid.slice(0, binding.uid.lastIndexOf("/")),
      `${binding.identity.uid} ${binding.role.uid}`,
    );
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const [k, count] of seen) if (count > 1) result.duplicates.push(`${k} (x${count})`);
  return result;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function withoutHydrated(outputs: Record<string, unknown>): Record<string, unknown> {
  const { identity: _identity, group: _group, role: _role, ...rest } = outputs;
  return rest;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, sortKeys(v)]),
  );
}

/** Resources of each type a run of `teams` teams declares. */
export function expectedCounts(teams: number): Record<string, number> {
  return { [TYPE.group]: 2 * teams, [TYPE.identity]: teams, [TYPE.binding]: 2 * teams };
}

/** Resources of each type in a stack's state. */
export function countsByType(state: StateObject[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const resource of state) counts[resource.type] = (counts[resource.type] ?? 0) + 1;
  return counts;
}
