/**
 * Operations on one small stack (`bench/fixtures/operations`: a group,
 * two identities, a binding) run by the mini engine through the real provider host:
 *
 * 1. requests per operation from the emulator's request log, beside the API's floor,
 *    and the lookups (`getRole`, `getRepo`, `getRepos` over 10,000 repositories);
 * 2. provider overhead: create, update and read through the provider host beside the
 *    same request made by the SDK alone and by a bare undici call (medians, interleaved);
 * 3. the size of the serialized provider and of each resource in state.
 */
import * as path from "node:path";
import { Agent } from "undici";
import type { LogEntry } from "../../harness/emulator";
import type { StateResource } from "../../harness/lifecycle/engine";
import { startProviderHost } from "../../harness/provider-host";
import type * as Package from "../../provider/index";
import { IrmClient } from "../../sdk/index";
import {
  BENCH_KEEP_ALIVE_MS,
  type EmulatorProcess,
  startEmulatorProcess,
} from "../lib/emulator-process";
import { bareOk } from "../lib/http";
import { againstFloor, type Measurement, type Section } from "../lib/report";
import {
  type BenchStack,
  collectionOf,
  createBenchStack,
  FIXTURES_DIR,
  type TimedRun,
} from "../lib/stack";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const REPOS_FOR_GET_REPOS = 10_000;
const MAX_PAGE_SIZE = 200;
/** The project's goal for the serialized provider stored with every resource. */
const PROVIDER_SIZE_GOAL_BYTES = 2048;

interface Role {
  uid: string;
}

async function roleUid(emu: EmulatorProcess, dispatcher: Agent, name: string): Promise<string> {
  const page = await bareOk<{ roles: Role[] }>(
    dispatcher,
    "GET",
    `${emu.url}/iam/v2beta1/roles?name=${encodeURIComponent(name)}`,
    emu.token,
  );
  if (page.roles.length !== 1) throw new Error(`role ${name}: ${page.roles.length} found`);
  return page.roles[0].uid;
}

/** `groups POST×1, identities POST×2`: what a run sent, by collection and method. */
function breakdown(requests: LogEntry[]): string {
  const counts = new Map<string, number>();
  for (const entry of requests) {
    const key = `${collectionOf(entry)} ${entry.method}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts].map(([key, count]) => `${key}×${count}`);
  const masks = requests
    .filter((entry) => entry.method === "PATCH")
    .map((entry) => `${collectionOf(entry)}: ${decodeURIComponent(entry.query)}`);
  return (
    (parts.length === 0 ? "no request" : parts.join(", ")) +
    (masks.length > 0 ? `; masks ${masks.join("; ")}` : "")
  );
}

function failedRequests(requests: LogEntry[]): LogEntry[] {
  return requests.filter((entry) => entry.status !== 200);
}

/** Requests of one engine run against the floor: `floorPerResource` for each resource it changed. */
function operationRow(
  id: string,
  label: string,
  run: TimedRun,
  touched: number,
  floorPerResource: number,
  lookups = 0,
): Measurement {
  const failed = failedRequests(run.requests);
  if (failed.length > 0) {
    throw new Error(`${label}: ${failed.length} requests failed (${breakdown(failed)})`);
  }
  const floor = touched * floorPerResource + lookups;
  const lookupText = lookups > 0 ? ` + ${lookups} distinct lookups` : "";
  return againstFloor(
    id,
    `${label} (${touched} resource${touched === 1 ? "" : "s"}${lookupText})`,
    run.requests.length,
    floor,
    "requests",
    breakdown(run.requests),
  );
}

function changedCount(run: TimedRun): number {
  return run.result.steps.filter((step) => step.op !== "same").length;
}

async function lookupRows(
  emu: EmulatorProcess,
  stack: BenchStack,
  viewerUid: string,
): Promise<Measurement[]> {
  const pkg = stack.project.require("pulumi-irm") as typeof Package;
  const opts = { settings: { apiUrl: emu.url, token: emu.token } };
  const catalog = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "catalog" }] }))
    .groups[0];
  await emu.seed({
    generate: { kind: "repos", count: REPOS_FOR_GET_REPOS, parentUid: catalog, namePrefix: "app" },
  });
  const rows: Measurement[] = [];
  const measure = async (
    id: string,
    label: string,
    floor: number,
    lookup: () => Promise<number>,
  ): Promise<void> => {
    await emu.clearRequests();
    const found = await lookup();
    const requests = await emu.requests();
    rows.push(
      againstFloor(
        id,
        label,
        requests.length,
        floor,
        "requests",
        `${found} found; ${breakdown(requests)}`,
      ),
    );
  };
  await measure("get-role", '`getRole({ name: "viewer" })`', 1, async () => {
    const role = await pkg.getRole({ name: "viewer" }, opts);
    if (role.uid !== viewerUid) throw new Error("getRole found another role");
    return 1;
  });
  await measure("get-repo", "`getRepo({ name, groupUid })` among 10,000", 1, async () => {
    const repo = await pkg.getRepo({ name: "app-04242", groupUid: catalog }, opts);
    if (repo.name !== "app-04242") throw new Error("getRepo found another repo");
    return 1;
  });
  await measure(
    "get-repos-10000",
    "`getRepos({ groupUid })` over 10,000 repos",
    Math.ceil(REPOS_FOR_GET_REPOS / MAX_PAGE_SIZE),
    async () => {
      const repos = await pkg.getRepos({ groupUid: catalog }, opts);
      if (repos.length !== REPOS_FOR_GET_REPOS) throw new Error(`getRepos found ${repos.length}`);
      return repos.length;
    },
  );
  return rows;
}

/** State of the resource whose URN ends with `::name`. */
function resourceNamed(resources: StateResource[], name: string): StateResource {
  const found = resources.find((resource) => resource.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no resource ${name} in state`);
  return found;
}

function sizeRows(resources: StateResource[]): Measurement[] {
  const rows: Measurement[] = [];
  const byType = new Map<string, StateResource>();
  for (const resource of resources)
    if (!byType.has(resource.type)) byType.set(resource.type, resource);
  for (const [type, resource] of byType) {
    const shortType = type.split(":").pop() ?? type;
    const providerText = String(resource.inputs.__provider ?? "");
    const providerBytes = Buffer.byteLength(providerText);
    rows.push({
      id: `provider-bytes-${shortType}`,
      label: `serialized provider (\`__provider\`), ${shortType}`,
      value: providerBytes,
      unit: "B",
      goal: `< ${PROVIDER_SIZE_GOAL_BYTES} B`,
      met: providerBytes < PROVIDER_SIZE_GOAL_BYTES,
      detail: "stored in the inputs and again in the outputs of every resource",
    });
    const resourceBytes = Buffer.byteLength(JSON.stringify(resource));
    rows.push({
      id: `resource-bytes-${shortType}`,
      label: `one resource in state (URN, id, inputs, outputs, dependencies), ${shortType}`,
      value: resourceBytes,
      unit: "B",
      detail: `${Math.round(((2 * providerBytes) / resourceBytes) * 100)}% of it is the two copies of \`__provider\``,
    });
  }
  return rows;
}

interface OverheadSamples {
  bare: number[];
  sdk: number[];
  host: number[];
}

/** Create, update and read of a group through three layers, interleaved per sample. */
async function providerOverhead(
  context: SuiteContext,
  emu: EmulatorProcess,
  stack: BenchStack,
): Promise<Measurement[]> {
  const warmup = context.pick(15, 5);
  const samples = context.pick(300, 30);
  const team = resourceNamed(stack.state.resources, "team");
  const host = await startProviderHost({ cwd: stack.project.dir, projectName: stack.projectName });
  const client = new IrmClient({ baseUrl: emu.url, token: emu.token, env: {} });
  const agent = new Agent({ keepAliveTimeout: BENCH_KEEP_ALIVE_MS });
  const root = emu.rootGroupUid;
  const groupsUrl = `${emu.url}/iam/v2beta1/groups`;
  const create: OverheadSamples = { bare: [], sdk: [], host: [] };
  const update: OverheadSamples = { bare: [], sdk: [], host: [] };
  const read: OverheadSamples = { bare: [], sdk: [], host: [] };
  /** Host calls that send no request: the cost of the gRPC hop and the host itself. */
  const hostOnly = { check: [] as number[], diff: [] as number[] };
  try {
    await host.configure({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
    // One group per layer to update and read, so the layers never wait on each other.
    const target = await bareOk<{ uid: string }>(agent, "POST", `${groupsUrl}/${root}`, emu.token, {
      name: "overhead-target",
    });
    const targetUrl = `${groupsUrl}/${target.uid}`;
    const hostCreated = await host.create(team.urn, { ...team.inputs, name: "overhead-host" });
    let hostOutputs = hostCreated.properties;
    const hostInputs = { ...team.inputs, name: "overhead-host" };
    const time = async (into: number[], keep: boolean, action: () => Promise<unknown>) => {
      const start = now();
      await action();
      if (keep) into.push(now() - start);
    };
    for (let i = 0; i < warmup + samples; i++) {
      const keep = i >= warmup;
      const name = `overhead-${i}`;
      const description = `revision ${i}`;
      await time(create.bare, keep, () =>
        bareOk(agent, "POST", `${groupsUrl}/${root}`, emu.token, { name, description: "" }),
      );
      await time(create.sdk, keep, () => client.iam.groups.create(root, { name, description: "" }));
      await time(create.host, keep, () => host.create(team.urn, { ...team.inputs, name }));

      await time(update.bare, keep, () =>
        bareOk(agent, "PATCH", `${targetUrl}?updateMask=description`, emu.token, { description }),
      );
      await time(update.sdk, keep, () =>
        client.iam.groups.update(target.uid, { description }, { updateMask: ["description"] }),
      );
      await time(update.host, keep, async () => {
        hostOutputs = await host.update(hostCreated.id, team.urn, hostOutputs, {
          ...hostInputs,
          description,
        });
      });

      await time(hostOnly.check, keep, () => host.check(team.urn, team.inputs, hostInputs));
      await time(hostOnly.diff, keep, () =>
        host.diff(hostCreated.id, team.urn, hostOutputs, { ...hostInputs, description }),
      );

      await time(read.bare, keep, () => bareOk(agent, "GET", targetUrl, emu.token));
      await time(read.sdk, keep, () => client.iam.groups.get(target.uid));
      await time(read.host, keep, () => host.read(hostCreated.id, team.urn, hostOutputs));
    }
  } finally {
    await agent.close();
    await client.close();
    await host.close();
  }
  const rows: Measurement[] = [];
  const hop = median(hostOnly.check);
  rows.push(
    {
      id: "host-check",
      label: "check of a group through the provider host (no request)",
      value: hop,
      unit: "ms",
      detail: `median of ${samples}: the engine-to-host gRPC round trip, Struct encoding and input validation`,
    },
    {
      id: "host-diff",
      label: "diff of a group through the provider host (no request)",
      value: median(hostOnly.diff),
      unit: "ms",
      detail: `median of ${samples}`,
    },
  );
  for (const [operation, recorded] of [
    ["create", create],
    ["update", update],
    ["read", read],
  ] as const) {
    const bare = median(recorded.bare);
    const sdk = median(recorded.sdk);
    const viaHost = median(recorded.host);
    rows.push(
      {
        id: `host-${operation}`,
        label: `${operation} of a group through the provider host`,
        value: viaHost,
        unit: "ms",
        floor: bare,
        ratio: viaHost / bare,
        detail:
          `median of ${samples}; ${(viaHost - bare).toFixed(2)} ms over the bare call, of which ` +
          `${hop.toFixed(2)} ms is the host's gRPC hop (see check) and ${(viaHost - bare - hop).toFixed(2)} ms the rest`,
      },
      {
        id: `sdk-${operation}`,
        label: `${operation} of a group through the SDK alone`,
        value: sdk,
        unit: "ms",
        floor: bare,
        ratio: sdk / bare,
        detail: `median of ${samples}; bare undici call: ${bare.toFixed(3)} ms`,
      },
    );
  }
  return rows;
}

/**
 * The org-hierarchy example as users run it: its whole state's size, and the requests
 * of its `up` and no-op `up` beside the floor (one per resource created, plus each
 * distinct lookup the program makes once).
 */
async function exampleRows(
  context: SuiteContext,
  emu: EmulatorProcess,
): Promise<{ requests: Measurement[]; sizes: Measurement[] }> {
  context.log("operations: examples/org-hierarchy");
  const stack = createBenchStack({
    scratchName: "bench-org-hierarchy",
    programDir: path.join(REPO_ROOT, "examples", "org-hierarchy"),
    emulator: emu,
    projectConfig: { rootGroupUid: emu.rootGroupUid },
  });
  const created = await stack.up();
  const state = stack.state;
  const noop = await stack.up();
  const distinctLookups = (run: TimedRun) =>
    new Set(
      run.requests
        .filter((entry) => entry.method === "GET")
        .map((entry) => `${entry.path}?${entry.query}`),
    ).size;
  const resources = state.resources.length;
  const stateBytes = Buffer.byteLength(JSON.stringify(state));
  const providerBytes = state.resources.reduce(
    (sum, resource) =>
      sum +
      Buffer.byteLength(String(resource.inputs.__provider ?? "")) +
      Buffer.byteLength(String(resource.outputs.__provider ?? "")),
    0,
  );
  await stack.destroy();
  stack.removeProject();
  return {
    requests: [
      operationRow(
        "example-up",
        "`examples/org-hierarchy`: `up` of a new stack",
        created,
        changedCount(created),
        1,
        distinctLookups(created),
      ),
      operationRow(
        "example-noop-up",
        "`examples/org-hierarchy`: no-op `up`",
        noop,
        resources,
        0,
        distinctLookups(noop),
      ),
    ],
    sizes: [
      {
        id: "example-state-bytes",
        label: `whole state of \`examples/org-hierarchy\` (${resources} resources)`,
        value: stateBytes,
        unit: "B",
        detail:
          `${Math.round(stateBytes / resources)} B per resource; ${Math.round((providerBytes / stateBytes) * 100)}% ` +
          "of it is `__provider` text",
      },
    ],
  };
}

function measuredValue(rows: Measurement[], id: string): number {
  const row = rows.find((m) => m.id === id);
  if (!row) throw new Error(`no measurement ${id}`);
  return row.value;
}

function overheadFindings(rows: Measurement[]): string[] {
  const hop = measuredValue(rows, "host-check");
  const parts = (["create", "update", "read"] as const).map((operation) => {
    const viaHost = measuredValue(rows, `host-${operation}`);
    const sdk = measuredValue(rows, `sdk-${operation}`);
    const bare = rows.find((m) => m.id === `sdk-${operation}`)?.floor ?? 0;
    return { operation, viaHost, sdk, bare };
  });
  const sdkExtra = Math.max(...parts.map((p) => p.sdk - p.bare));
  return [
    `The SDK alone costs what a bare undici call costs (at most ${sdkExtra.toFixed(2)} ms more per call here, ` +
      "within the noise of this machine).",
    `Through the host, each operation costs about one gRPC round trip more (${hop.toFixed(2)} ms, the cost of a ` +
      "`check` that sends no request) than the SDK call it makes: " +
      parts
        .map(
          (p) =>
            `${p.operation} ${p.viaHost.toFixed(2)} ms ≈ ${hop.toFixed(2)} + ${p.sdk.toFixed(2)} ms`,
        )
        .join(", ") +
      ". That hop (the engine's gRPC call to the dynamic-provider host, with each side encoding the inputs and " +
      "outputs, `__provider` text included, as protobuf Structs) is how the Pulumi engine runs every dynamic " +
      "provider; this package cannot remove it, only keep its own part (validation, diff, one request) small.",
    "In a real `pulumi up` the engine runs independent steps in parallel, so these latencies overlap; what adds " +
      "up is the request count of section 1.",
  ];
}

function sizeFindings(rows: Measurement[]): string[] {
  const providerRows = rows.filter((m) => m.id.startsWith("provider-bytes-"));
  const largest = Math.max(...providerRows.map((m) => m.value));
  return [
    `The largest serialized provider is ${largest} B, ${PROVIDER_SIZE_GOAL_BYTES - largest} B under the goal. ` +
      'The package\'s own part is one line per method (`(...a) => require("pulumi-irm/provider/runtime").group.create(...a)`); ' +
      "most of the text is the wrapper Pulumi's closure serialization writes around each of the eight functions " +
      "(seven methods and the handler). There is little left to take out: a new method or a longer package " +
      "name would cross 2 KB.",
    "The text is stored twice per resource (inputs and outputs: the engine needs it to update and delete after " +
      "the program changed), so it is most of each resource's state; a dynamic provider cannot store it once.",
    "The mini engine keeps URN, type, id, inputs, outputs and dependencies per resource; a Pulumi checkpoint adds a " +
      "few fields (parent, provider reference, property dependencies, timestamps), so real state is a little larger.",
  ];
}

async function run(context: SuiteContext): Promise<Section[]> {
  const emu = await startEmulatorProcess();
  const dispatcher = new Agent({ keepAliveTimeout: BENCH_KEEP_ALIVE_MS });
  try {
    const viewer = await roleUid(emu, dispatcher, "viewer");
    const stack = createBenchStack({
      scratchName: "bench-operations",
      programDir: path.join(FIXTURES_DIR, "operations"),
      emulator: emu,
      projectConfig: {
        rootGroupUid: emu.rootGroupUid,
        baseRoleUid: viewer,
        otherRoleUid: await roleUid(emu, dispatcher, "editor"),
        thirdRoleUid: await roleUid(emu, dispatcher, "registry.pull"),
        variant: "base",
      },
    });
    context.log("operations: create, no-op, update one and two fields, refresh, delete");
    const created = await stack.up();
    const noop = await stack.up();
    const oneField = await stack.up({ variant: "one-field" });
    const twoFields = await stack.up({ variant: "two-fields" });
    const refreshed = await stack.refresh();
    const sizes = sizeRows(stack.state.resources);
    context.log("operations: provider overhead");
    const overhead = await providerOverhead(context, emu, stack);
    const resourceCount = stack.state.resources.length;
    const destroyed = await stack.destroy();

    const operations: Measurement[] = [
      operationRow("create", "create (`up` of a new stack)", created, changedCount(created), 1),
      operationRow(
        "update-one-field",
        "update one field of each",
        oneField,
        changedCount(oneField),
        1,
      ),
      operationRow(
        "update-two-fields",
        "update two fields of each",
        twoFields,
        changedCount(twoFields),
        1,
      ),
      operationRow("noop-up", "no-op `up`", noop, resourceCount, 0),
      operationRow("refresh", "refresh", refreshed, resourceCount, 1),
      operationRow("delete", "delete (`destroy`)", destroyed, destroyed.result.steps.length, 1),
    ];
    context.log("operations: lookups");
    operations.push(...(await lookupRows(emu, stack, viewer)));
    stack.removeProject();
    const example = await exampleRows(context, emu);
    operations.push(...example.requests);
    sizes.push(...example.sizes);

    const aboveFloor = operations.filter((m) => m.met === false);
    const requestNotes = [
      aboveFloor.length === 0
        ? "Every operation and lookup measured here is at the API's floor (ratio 1.0)."
        : `Above the floor: ${aboveFloor.map((m) => `${m.label} (${m.value} for ${m.floor})`).join("; ")}.`,
      "A no-op `up` sends nothing: the provider's diff compares the new inputs with the outputs kept in state, " +
        "field by field, without reading the service (`refresh` is the explicit read).",
      "A create is one POST and an update one PATCH whose `updateMask` names exactly the changed fields (masks " +
        "above): the API answers the full object, so nothing is read back. Only after an unknown outcome (the " +
        "connection lost once a create was sent) does the provider look the object up before creating again; " +
        "that recovery path is not part of these figures.",
      "Lookups use the API's `name` filter (one request for `getRole` and `getRepo`) and pages of 200 for listings.",
      "`examples/org-hierarchy` repeats its four distinct lookups on every run, no-op or not: a Pulumi program " +
        "keeps nothing between runs, so its floor counts one request per distinct lookup.",
    ];
    const overheadNotes = overheadFindings(overhead);
    const sizeNotes = sizeFindings(sizes);

    return [
      {
        id: "requests-per-operation",
        title: "1. Requests per operation",
        method:
          "`bench/fixtures/operations` (a group, two identities, a role binding) runs through the project's mini " +
          "engine (`harness/lifecycle`) with the package installed as users install it: every resource goes " +
          "through the real dynamic-provider host over gRPC, as `pulumi up` runs it. Requests come from the " +
          "emulator's request log of each run; the floor is one request per resource the run changes (create: " +
          "one POST, update: one PATCH naming every changed field, refresh: one GET, delete: one DELETE), none for " +
          "a no-op `up`. Lookups run the installed package's functions as a program does; a listing's floor is " +
          `one page of ${MAX_PAGE_SIZE} (the API's maximum) per ${MAX_PAGE_SIZE} items.`,
        measurements: operations,
        notes: requestNotes,
      },
      {
        id: "provider-overhead",
        title: "2. Provider overhead",
        method:
          "Create, update (one field) and read of a group, each made three ways in turn, sample after sample: a bare " +
          "undici call to the emulator (the floor), the SDK alone, and a gRPC call to the real dynamic-provider host " +
          "(`@pulumi/pulumi/cmd/dynamic-provider`, started on the consumer project, holding the serialized provider " +
          "from state) which runs the provider and its SDK. The emulator runs in its own process. Medians; the ratio " +
          "is each layer's median over the bare median. The project sets no goal for this ratio.",
        measurements: overhead,
        notes: overheadNotes,
      },
      {
        id: "state-size",
        title: "3. Size in state",
        method:
          "From the state the mini engine kept for `bench/fixtures/operations`: the serialized provider text of each " +
          "type and the JSON of one resource of each type.",
        measurements: sizes,
        notes: sizeNotes,
      },
    ];
  } finally {
    await dispatcher.close();
    await emu.close();
  }
}

export const operationsSuite: Suite = {
  name: "operations",
  sectionIds: ["requests-per-operation", "provider-overhead", "state-size"],
  run,
};
