/**
 * Operations on one small stack (`bench/fixtures/operations`: one resource of every
 * type and one identity of every kind) run by the real Pulumi engine through the real
 * provider host:
 *
 * 1. requests per operation from the emulator's request log, beside the API's floor,
 *    and the lookups (`getRole`, `getRepo`, `getRepos` over 10,000 repositories);
 *    1b. the same runs, resource by resource, for the resources of the IAM addendum;
 * 2. provider overhead: create, update and read through the provider host beside the
 *    same request made by the SDK alone and by a bare undici call (medians, interleaved);
 * 3. the size of the provider text and of each resource in state.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { Agent } from "undici";
import type { LogEntry } from "../../harness/emulator";
import { startProviderHost } from "../../harness/provider-host";
import type * as Package from "../../provider/index";
import { IrmClient } from "../../sdk/index";
import {
  attributeRequests,
  type Expected,
  judge,
  leaksIn,
  outsideSecrets,
  type ResourceRef,
} from "../lib/attribution";
import {
  BENCH_KEEP_ALIVE_MS,
  type EmulatorProcess,
  startEmulatorProcess,
} from "../lib/emulator-process";
import { bareOk } from "../lib/http";
import {
  openRealEngine,
  type RealEngine,
  type RealRun,
  type RealRunKind,
} from "../lib/real-engine";
import { againstFloor, type Measurement, type Section } from "../lib/report";
import {
  type BenchStack,
  collectionOf,
  createBenchStack,
  describeRequests,
  FIXTURES_DIR,
  type StateResource,
  type TimedRun,
} from "../lib/stack";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const REPOS_FOR_GET_REPOS = 10_000;
const MAX_PAGE_SIZE = 200;
/** The project's goal for the provider text stored (twice) with every resource. */
const PROVIDER_SIZE_GOAL_BYTES = 128;

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

/**
 * Requests of one engine run against the floor: `floorPerResource` for each resource it
 * changed, one per distinct lookup, and one GET per group outside the stack that new
 * objects are placed in (`check` confirms such a parent exists before anything is made,
 * in preview too; a group the run itself creates needs no GET).
 */
function operationRow(
  id: string,
  label: string,
  run: TimedRun,
  touched: number,
  floorPerResource: number,
  lookups = 0,
  outsideParents = 0,
): Measurement {
  const failed = failedRequests(run.requests);
  if (failed.length > 0) {
    throw new Error(`${label}: ${failed.length} requests failed (${breakdown(failed)})`);
  }
  const floor = touched * floorPerResource + lookups + outsideParents;
  const lookupText =
    (lookups > 0 ? ` + ${lookups} distinct lookups` : "") +
    (outsideParents > 0
      ? ` + ${outsideParents} parent check${outsideParents === 1 ? "" : "s"}`
      : "");
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
  return run.changed;
}

/** What a variant of the fixture changes in one resource: an update's mask, or a replacement. */
type Change = { what: string; mask: string[] } | { what: string; replaces: true };

/** A resource of the fixture measured on its own, and what each variant changes in it. */
interface MeasuredResource {
  /** The resource's name in the fixture. */
  name: string;
  label: string;
  oneField: Change;
  twoFields: Change;
  /**
   * The floor of a create and of a refresh when it is not one request: a repo's README is
   * a resource of its own in the API (UpdateRepoReadme, GetRepoReadme).
   */
  floors?: { create: string[]; refresh: string[] };
}

/** An update in place, whose mask must be exactly `mask`. */
const patch = (...mask: string[]): Change => ({ what: mask.join(", "), mask });
/** A change the API cannot make in place: the resource is replaced. */
const replace = (...fields: string[]): Change => ({ what: fields.join(", "), replaces: true });

/**
 * The resources of the IAM addendum in `bench/fixtures/operations`, and what its
 * `one-field` and `two-fields` variants change in each (from the variant before).
 */
const ADDENDUM_RESOURCES: MeasuredResource[] = (
  [
    ["deployer", "`Role`", patch("description"), patch("name", "capabilities")],
    [
      "team-sso",
      "`IdentityProvider`",
      patch("oidc.client_secret"),
      patch("description", "oidc.additional_scopes"),
    ],
    ["new-hire", "`GroupInvite`", replace("email"), replace("ttl", "singleUse")],
    ["team-accounts", "`AccountAssociation`", patch("description"), patch("amazon", "google")],
    [
      "ci-pattern",
      "`Identity` (subjectPattern, audience)",
      patch("claim_match.subject_pattern"),
      patch("claim_match.subject_pattern", "claim_match.audience"),
    ],
    [
      "signer",
      "`Identity` (staticKeys)",
      patch("static_keys.issuer_keys"),
      patch("static_keys.issuer_keys", "static_keys.audiences"),
    ],
    [
      "aws-deployer",
      "`Identity` (awsIdentity)",
      patch("aws_identity.arn"),
      patch("aws_identity.arn", "aws_identity.user_id_pattern"),
    ],
    [
      "ingester",
      "`Identity` (servicePrincipal)",
      patch("description"),
      patch("name", "description"),
    ],
  ] as const
).map(
  ([name, label, oneField, twoFields]): MeasuredResource => ({
    name,
    label,
    oneField,
    twoFields,
  }),
);

/**
 * The kinds the registry writes and event subscriptions added, in the same fixture. A
 * repo's README (declared, unchanged by the variants) is its own request at create and
 * refresh; a subscription and a mapping have no update in the API.
 */
const NEWER_RESOURCES: MeasuredResource[] = [
  {
    name: "web",
    label: "`Repo` (with a README)",
    oneField: patch("description"),
    twoFields: patch("catalog_tier", "aliases"),
    floors: { create: ["POST", "PATCH"], refresh: ["GET", "GET"] },
  },
  {
    name: "hooks",
    label: "`Subscription`",
    oneField: replace("sink"),
    // Its one field again: a subscription has no second one.
    twoFields: replace("sink"),
  },
  {
    name: "staff",
    label: "`ExternalGroupRoleMapping`",
    oneField: replace("externalGroupId"),
    twoFields: replace("externalGroupId", "roleUid"),
  },
];

const MEASURED_RESOURCES = [...ADDENDUM_RESOURCES, ...NEWER_RESOURCES];

/** One engine run of the fixture, with the state before and after it. */
interface MeasuredRun {
  id: string;
  label: string;
  run: RealRun;
  before: ResourceRef[];
  after: ResourceRef[];
  /** The floor of one resource in this run, and the label's tail saying what changed. */
  expected(resource: MeasuredResource): { expected: Expected; what?: string };
}

function changeExpected(change: Change): { expected: Expected; what: string } {
  return "replaces" in change
    ? {
        expected: { methods: ["POST", "DELETE"] },
        what: `${change.what}; replaces it: no update in the API, floor DELETE + POST`,
      }
    : { expected: { methods: ["PATCH"], mask: change.mask }, what: change.what };
}

/** Each addendum resource's requests in each run, against its floor, by the request log. */
function perResourceRows(runs: MeasuredRun[]): { rows: Measurement[]; unattributed: string[] } {
  const rows: Measurement[] = [];
  const unattributed: string[] = [];
  const attributions = runs.map((measured) => ({
    measured,
    attribution: attributeRequests(
      measured.run.requests,
      measured.before,
      measured.after,
      measured.run.order,
    ),
  }));
  for (const { measured, attribution } of attributions) {
    // Steps run one at a time: the next attributed request names the step that sent it.
    const ownerOf = new Map<number, string>();
    for (const [name, entries] of attribution.byName) {
      for (const entry of entries) ownerOf.set(entry.seq, `${name}'s ${entry.method}`);
    }
    const seqs = [...ownerOf.keys()].sort((a, b) => a - b);
    for (const entry of attribution.unattributed) {
      const next = seqs.find((seq) => seq > entry.seq);
      unattributed.push(
        `${measured.label}: ${describeRequests([entry]).join("")}` +
          (next === undefined ? "" : ` (just before ${ownerOf.get(next)})`),
      );
    }
  }
  for (const resource of MEASURED_RESOURCES) {
    for (const { measured, attribution } of attributions) {
      const { expected, what } = measured.expected(resource);
      const requests = attribution.byName.get(resource.name) ?? [];
      const judgement = judge(requests, expected);
      const row = againstFloor(
        `${resource.name}-${measured.id}`,
        `${resource.label}: ${measured.label}${what ? ` (${what})` : ""}`,
        requests.length,
        expected.methods.length,
        "requests",
        [breakdown(requests), ...judgement.differences].join("; "),
      );
      rows.push({ ...row, met: row.met === true && judgement.met });
    }
  }
  return { rows, unattributed };
}

/** The resources of a real checkpoint (`pulumi stack export`) as attribution reads them. */
function resourceRefs(resources: Array<Record<string, unknown>>): ResourceRef[] {
  return resources.map((resource) => ({
    urn: String(resource.urn),
    type: String(resource.type),
    id: String(resource.id ?? ""),
    inputs: (resource.inputs ?? {}) as Record<string, unknown>,
  }));
}

const PER_RESOURCE_ID = "requests-per-resource";
const PER_RESOURCE_TITLE =
  "1b. Requests per operation, resource by resource: the IAM addendum, the registry and event subscriptions";

/**
 * The fixture whole (the identity provider and the invite included) on the real engine,
 * one step at a time, each addendum resource's requests held to its own floor; the
 * client secrets and invite codes looked for wherever the benchmark writes.
 */
async function perResourceSection(
  engine: RealEngine,
  emu: EmulatorProcess,
  projectConfig: Record<string, string>,
): Promise<{ section: Section; sizes: Measurement[] }> {
  // New on every run, so a leak cannot hide behind a value seen before.
  const clientSecrets = {
    idpClientSecret: randomBytes(24).toString("base64url"),
    idpClientSecretRotated: randomBytes(24).toString("base64url"),
  };
  const runs: MeasuredRun[] = [];
  const codes = new Set<string>();
  let created: Array<Record<string, unknown>> = [];
  /** Where the client secrets and invite codes must not appear, by what it is. */
  const written: Record<string, unknown> = {};
  const stack = await engine.createStack({
    name: "bench-operations",
    programDir: path.join(FIXTURES_DIR, "operations"),
    emulator: emu,
    projectConfig,
  });
  try {
    await stack.setConfig(clientSecrets, { secret: true });
    let state: ResourceRef[] = [];
    const measure = async (
      id: string,
      label: string,
      kind: RealRunKind,
      expected: MeasuredRun["expected"],
    ) => {
      const run = await stack.run(kind, { parallel: 1 });
      const exported = await stack.exportResources();
      if (id === "create") created = exported;
      written[`request log of ${id}`] = run.requests;
      // Secrets may be in state only as Pulumi secrets (the export shows them in their envelope).
      written[`checkpoint after ${id}, outside secrets`] = outsideSecrets(exported);
      const after = resourceRefs(exported);
      runs.push({ id, label, run, before: state, after, expected });
      state = after;
      const code = kind === "destroy" ? undefined : (await stack.outputs()).inviteCode;
      if (typeof code === "string" && code.length > 0) codes.add(code);
    };
    await measure("create", "create", "up", (resource) => ({
      expected: { methods: resource.floors?.create ?? ["POST"] },
    }));
    await measure("noop-up", "no-op `up`", "up", () => ({ expected: { methods: [] } }));
    await stack.setConfig({ variant: "one-field" });
    await measure("update-one-field", "update one field", "up", (resource) =>
      changeExpected(resource.oneField),
    );
    await stack.setConfig({ variant: "two-fields" });
    await measure("update-two-fields", "update two fields", "up", (resource) =>
      changeExpected(resource.twoFields),
    );
    await measure("refresh", "refresh", "refresh", (resource) => ({
      expected: { methods: resource.floors?.refresh ?? ["GET"] },
    }));
    await measure("delete", "delete", "destroy", () => ({ expected: { methods: ["DELETE"] } }));
  } finally {
    stack.dispose();
  }

  const { rows, unattributed } = perResourceRows(runs);
  const above = rows.filter((m) => m.met === false);
  const section: Section = {
    id: PER_RESOURCE_ID,
    title: PER_RESOURCE_TITLE,
    method:
      `The whole of \`bench/fixtures/operations\` on the real Pulumi engine (CLI ${engine.cli.version}, ` +
      "`--parallel 1`, the package installed as users install it), through the runs of section 1. Each request of " +
      "the emulator's log is set against the resource it was for: a read, update or delete names the object's " +
      "uid; a create names its parent, and is matched to the resources the run created there in the order the " +
      "engine, running one step at a time, started them. Each custom role, identity provider, group invite, " +
      "account association and identity of a kind the addendum adds, and the repo, the event subscription and " +
      "the external group role mapping, is then held to its own floor: create one " +
      "POST, update one PATCH whose `updateMask` is exactly the fields the variant changed (named in each row; " +
      "another mask misses even at one request), no-op `up` nothing, refresh one GET, delete one DELETE; a " +
      "repo with a README adds the README's own PATCH at create and GET at refresh. The " +
      "identity provider's client secrets (secret config, made anew each run) and every invite code the runs " +
      "made are looked for in each request line of the log (method, path, query), in the checkpoint after each " +
      "run outside its Pulumi secrets, and in these results; the benchmark stops if one appears.",
    measurements: rows,
    notes: [
      above.length === 0
        ? "Every resource measured here is at its floor in every run, with exactly the expected update mask."
        : `Not at the floor: ${above.map((m) => `${m.label} (${m.detail})`).join("; ")}.`,
      "A group invite has no update in the API (`PATCH` is UNIMPLEMENTED): any change replaces it, the new " +
        "invite (with a new code) created before the old one is deleted, so the floor of a change is one POST " +
        "and one DELETE.",
      "A subscription and an external group role mapping have no update in the API either (a subscription has " +
        "one field, its sink, changed in both variants): a change replaces them, create before delete, so the " +
        "floor is one POST and one DELETE. A repo's README is a resource of its own in the API " +
        "(`UpdateRepoReadme`, `GetRepoReadme`): the floor of a repo that declares one is POST + PATCH at create " +
        "and two GETs at refresh; an update leaves it alone unless it changed.",
      "A new object's check reads its parent (its container) once per provider process to refuse a missing " +
        "one before any write; the engine checks the new half of a replacement again without its old inputs, so " +
        "a replaced subscription, invite or mapping reads its container unless the run already saw it. Such a " +
        "read counts for the create that follows under that container, not for the object read.",
      "An identity provider's client secret is sent only when it changes, as the one path `oidc.client_secret`; " +
        "the API never answers it, so a refresh keeps the value in state without reading it back.",
      unattributed.length === 0
        ? "No request of these runs went to anything but the stack's own objects."
        : `Requests addressed to no object of the stack: ${unattributed.join("; ")}.`,
    ],
  };

  // The client secrets and the invite codes must be nowhere the benchmark writes.
  if (codes.size === 0) throw new Error("operations: the runs left no invite code to look for");
  written.results = section;
  const secrets: Record<string, string> = {
    "the client secret": clientSecrets.idpClientSecret,
    "the rotated client secret": clientSecrets.idpClientSecretRotated,
  };
  [...codes].forEach((code, i) => {
    secrets[`invite code ${i + 1}`] = code;
  });
  const leaked = leaksIn(secrets, written);
  if (leaked.length > 0) {
    // Names where, never the value.
    throw new Error(`operations: a client secret or invite code appeared in ${leaked.join("; ")}`);
  }
  return { section, sizes: checkpointSizeRows(created, SECRET_OUTPUT_TYPES) };
}

/** The types section 1 leaves out (they name secret outputs): sized from section 1b's checkpoint. */
const SECRET_OUTPUT_TYPES = ["IdentityProvider", "GroupInvite"];

/** `sizeRows` for resources of a real checkpoint (`pulumi stack export`), of the given types. */
function checkpointSizeRows(
  resources: Array<Record<string, unknown>>,
  types: string[],
): Measurement[] {
  const rows: Measurement[] = [];
  for (const shortType of types) {
    const resource = resources.find((r) => String(r.type).endsWith(`:${shortType}`));
    if (!resource) throw new Error(`operations: no ${shortType} in the real checkpoint`);
    const provider = (resource.inputs as Record<string, unknown> | undefined)?.__provider;
    if (typeof provider !== "string") {
      throw new Error(
        `operations: the ${shortType}'s __provider is not plain text in the checkpoint`,
      );
    }
    rows.push(
      ...typeSizeRows(shortType, provider, resource, {
        kept: "one resource in a real checkpoint (`pulumi stack export --show-secrets`)",
        providerNote: "from the real engine's checkpoint (section 1b); ",
        resourceNote: "; secrets in plain text inside their secret envelopes",
      }),
    );
  }
  return rows;
}

async function lookupRows(
  emu: EmulatorProcess,
  stack: BenchStack,
  viewerUid: string,
): Promise<Measurement[]> {
  const pkg = stack.require("pulumi-irm") as typeof Package;
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

/** Where the size rows of a type come from, in their labels and details. */
interface SizeSource {
  /** What the resource's JSON is (`one resource in state (...)`). */
  kept: string;
  providerNote: string;
  resourceNote: string;
}

/** A type's provider text and one resource of it as `source` keeps it, in bytes. */
function typeSizeRows(
  shortType: string,
  provider: string,
  resource: unknown,
  source: SizeSource,
): Measurement[] {
  const providerBytes = Buffer.byteLength(provider);
  const resourceBytes = Buffer.byteLength(JSON.stringify(resource));
  return [
    {
      id: `provider-bytes-${shortType}`,
      label: `provider text (\`__provider\`), ${shortType}`,
      value: providerBytes,
      unit: "B",
      goal: `< ${PROVIDER_SIZE_GOAL_BYTES} B`,
      met: providerBytes < PROVIDER_SIZE_GOAL_BYTES,
      detail: `${source.providerNote}stored in the inputs and again in the outputs of every resource`,
    },
    {
      id: `resource-bytes-${shortType}`,
      label: `${source.kept}, ${shortType}`,
      value: resourceBytes,
      unit: "B",
      detail:
        `${Math.round(((2 * providerBytes) / resourceBytes) * 100)}% of it is the two copies of ` +
        `\`__provider\`${source.resourceNote}`,
    },
  ];
}

function sizeRows(resources: StateResource[]): Measurement[] {
  const rows: Measurement[] = [];
  const byType = new Map<string, StateResource>();
  for (const resource of resources)
    if (!byType.has(resource.type)) byType.set(resource.type, resource);
  for (const [type, resource] of byType) {
    const shortType = type.split(":").pop() ?? type;
    rows.push(
      ...typeSizeRows(shortType, String(resource.inputs.__provider ?? ""), resource, {
        kept: "one resource in state (URN, id, inputs, outputs, dependencies)",
        providerNote: "",
        resourceNote: "",
      }),
    );
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
  const team = resourceNamed(stack.resources, "team");
  const host = await startProviderHost({ cwd: stack.dir, projectName: stack.projectName });
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
  engine: RealEngine,
  emu: EmulatorProcess,
): Promise<{ requests: Measurement[]; sizes: Measurement[] }> {
  context.log("operations: examples/org-hierarchy");
  const stack = await createBenchStack(engine, {
    name: "bench-org-hierarchy",
    programDir: path.join(REPO_ROOT, "examples", "org-hierarchy"),
    emulator: emu,
    projectConfig: { rootGroupUid: emu.rootGroupUid },
  });
  const created = await stack.up();
  const state = { resources: created.resources };
  const noop = await stack.up();
  // The program's lookups; the GET of the root group is the parent check, counted apart.
  const parentCheck = `/iam/v2beta1/groups/${emu.rootGroupUid}`;
  const distinctLookups = (run: TimedRun) =>
    new Set(
      run.requests
        .filter((entry) => entry.method === "GET" && entry.path !== parentCheck)
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
  stack.dispose();
  return {
    requests: [
      operationRow(
        "example-up",
        "`examples/org-hierarchy`: `up` of a new stack",
        created,
        changedCount(created),
        1,
        distinctLookups(created),
        1, // the root group, the one parent outside the stack
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

/** The smallest and largest share of the two `__provider` copies in one resource, as "a to b %". */
function shareRange(rows: Measurement[]): string {
  const shares = rows
    .filter((m) => m.id.startsWith("provider-bytes-"))
    .flatMap((m) => {
      const resource = rows.find(
        (r) => r.id === m.id.replace("provider-bytes-", "resource-bytes-"),
      );
      return resource && resource.value > 0 ? [(200 * m.value) / resource.value] : [];
    });
  if (shares.length === 0) return "an unmeasured share";
  return `${Math.round(Math.min(...shares))} to ${Math.round(Math.max(...shares))} %`;
}

function sizeFindings(rows: Measurement[]): string[] {
  const providerRows = rows.filter((m) => m.id.startsWith("provider-bytes-"));
  const largest = Math.max(...providerRows.map((m) => m.value));
  return [
    `The largest provider text is ${largest} B, ${PROVIDER_SIZE_GOAL_BYTES - largest} B under the goal. ` +
      'It is a fixed module per type (`provider/shim.ts`): `const r=require("pulumi-irm/provider/runtime");' +
      "exports.handler=()=>({...r.group,configure:r.configure})`, set by the resource classes instead of " +
      "Pulumi's closure serializer, which wrote about 2 KB per type.",
    "The text is stored twice per resource (inputs and outputs: the engine needs it to update and delete after " +
      `the program changed); a dynamic provider cannot store it once. The two copies are ${shareRange(rows)} ` +
      "of a resource's state here.",
    "One resource's JSON here is the checkpoint's URN, name, type, id, inputs, outputs, flags and dependencies; the " +
      "checkpoint itself adds a few fields (parent, provider reference, property dependencies, timestamps).",
  ];
}

async function run(context: SuiteContext): Promise<Section[]> {
  const engine = openRealEngine();
  if (!engine) {
    throw new Error("operations: no Pulumi CLI found (npm run pulumi:install provides one)");
  }
  const emu = await startEmulatorProcess();
  const dispatcher = new Agent({ keepAliveTimeout: BENCH_KEEP_ALIVE_MS });
  try {
    const viewer = await roleUid(emu, dispatcher, "viewer");
    const projectConfig = {
      rootGroupUid: emu.rootGroupUid,
      baseRoleUid: viewer,
      otherRoleUid: await roleUid(emu, dispatcher, "editor"),
      thirdRoleUid: await roleUid(emu, dispatcher, "registry.pull"),
      variant: "base",
    };
    const stack = await createBenchStack(engine, {
      name: "bench-operations-all",
      programDir: path.join(FIXTURES_DIR, "operations"),
      emulator: emu,
      // The identity provider and the invite (secret outputs) are measured resource by
      // resource in section 1b; section 1 keeps the figures it has always had.
      projectConfig: { ...projectConfig, secretOutputs: "false" },
    });
    context.log("operations: create, no-op, update one and two fields, refresh, delete");
    const created = await stack.up();
    const noop = await stack.up();
    const oneField = await stack.up({ variant: "one-field" });
    const twoFields = await stack.up({ variant: "two-fields" });
    const refreshed = await stack.refresh();
    const sizes = sizeRows(stack.resources);
    context.log("operations: provider overhead");
    const overhead = await providerOverhead(context, emu, stack);
    const resourceCount = stack.resources.length;
    const destroyed = await stack.destroy();

    const operations: Measurement[] = [
      // The root group is the one parent outside the stack.
      operationRow(
        "create",
        "create (`up` of a new stack)",
        created,
        changedCount(created),
        1,
        0,
        1,
      ),
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
      operationRow("delete", "delete (`destroy`)", destroyed, destroyed.changed, 1),
    ];
    context.log("operations: lookups");
    operations.push(...(await lookupRows(emu, stack, viewer)));
    stack.dispose();
    const example = await exampleRows(context, engine, emu);
    operations.push(...example.requests);
    sizes.push(...example.sizes);
    context.log("operations: the IAM addendum's resources on the real engine");
    const perResource = await perResourceSection(engine, emu, projectConfig);
    sizes.push(...perResource.sizes);

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
    const sections: Section[] = [
      {
        id: "requests-per-operation",
        title: "1. Requests per operation",
        method:
          "`bench/fixtures/operations` (a group, a role binding, a custom role, an account association and six " +
          "identities: two exact, one by pattern, one with static keys, one AWS, one service principal; its " +
          "identity provider and group invite, which name secret outputs, are measured in section 1b) runs on " +
          "the real Pulumi engine (`pulumi up|refresh|destroy --skip-preview`) with the package installed as " +
          "users install it: every resource goes " +
          "through the real dynamic-provider host over gRPC. Requests come from the " +
          "emulator's request log of each run; the floor is one request per resource the run changes (create: " +
          "one POST, update: one PATCH naming every changed field, refresh: one GET, delete: one DELETE), none for " +
          "a no-op `up`. Lookups run the installed package's functions as a program does; a listing's floor is " +
          `one page of ${MAX_PAGE_SIZE} (the API's maximum) per ${MAX_PAGE_SIZE} items.`,
        measurements: operations,
        notes: requestNotes,
      },
      perResource.section,
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
          "From the real engine's checkpoint of `bench/fixtures/operations` (`pulumi stack export`): the serialized " +
          "provider text of each type and the JSON of one resource of each type; for the identity provider and the " +
          "group invite, from the checkpoint of section 1b.",
        measurements: sizes,
        notes: sizeNotes,
      },
    ];
    return sections;
  } finally {
    await dispatcher.close();
    await emu.close();
    engine.close();
  }
}

export const operationsSuite: Suite = {
  name: "operations",
  sectionIds: ["requests-per-operation", PER_RESOURCE_ID, "provider-overhead", "state-size"],
  run,
};
