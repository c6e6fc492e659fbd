/**
 * Runs a Pulumi program under `pulumi.runtime.setMocks` and prints, as JSON on the
 * last line of stdout, what the engine would know about each of its resources: the
 * type, name, URN, parent, inputs (unknowns kept as the engine's sentinels),
 * property dependencies, and the state `analyzeStack` would receive.
 *
 *   node --import tsx tests/support/policy-capture-program.ts <preview|up> <program file> <project>
 *
 * Lookups in the program are plain HTTP calls, so a local (seeded) emulator is
 * started and the program reaches it through `irm:` config; the project's
 * `rootGroupUid` config is the emulator's root organisation. Each run is its own
 * process: mocks and the Pulumi runtime are process-wide. The output holds no token.
 *
 * State, as the engine records it for dynamic resources: in preview a create has no
 * provider call (dynamic providers do not support preview), so its state is its
 * inputs; after `up` it is the provider's outputs, faked here with fresh uids,
 * timestamps and, for a RoleBinding, the name of a built-in role (`builtInRoleName`).
 *
 * Inputs are the provider's checked inputs, as the engine hands them to the pack: a
 * RoleBinding or IdentityProvider whose role uid is known carries what the provider's
 * check reads of that role (`checkedRole`, `provider/handlers/checked-role.ts`), here
 * read from the emulator. Outputs never carry it.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator } from "../../emulator/index";
import type { EngineResource } from "../../harness/policy-pack-host";
import { IRM_TYPES } from "../../policy/policies";
import { IrmClient, type Role } from "../../sdk/index";
import { isBuiltInRoleUid } from "../../sdk/uids";

type Phase = "preview" | "up";
type Props = Record<string, unknown>;

/** The parts of a RegisterResourceRequest this capture reads (typed loosely on purpose: proto internals). */
interface RegisterRequest {
  getType(): string;
  getName(): string;
  getParent(): string;
  getObject(): { toJavaScript(): Props } | undefined;
  getDependenciesList(): string[];
  getPropertydependenciesMap(): {
    forEach(cb: (deps: { getUrnsList(): string[] }, key: string) => void): void;
  };
}
interface RegisterResponse {
  getUrn(): string;
}
type Callback = (err: Error | null, res?: RegisterResponse) => void;
interface MockMonitorLike {
  registerResource(req: RegisterRequest, cb: Callback): Promise<void>;
}

async function main(): Promise<void> {
  const [phase, programArg, project] = process.argv.slice(2) as [Phase, string, string];
  if ((phase !== "preview" && phase !== "up") || !programArg || !project) {
    throw new Error("usage: capture-program.ts <preview|up> <program file> <project>");
  }
  const program = path.resolve(programArg);

  const emulator = await startEmulator();
  const client = new IrmClient({ baseUrl: emulator.url, token: emulator.bootstrap.token });
  const builtInRoleNames = new Map<string, string>();
  const roles = new Map<string, Role>();
  for await (const role of client.iam.roles.list({ pageSize: 200 })) {
    roles.set(role.uid, role);
    // A built-in role's uid is flat; a custom role's is a child of its group.
    if (isBuiltInRoleUid(role.uid)) builtInRoleNames.set(role.uid, role.name);
  }
  /** The input naming the role each kind grants, whose role the provider's check reads. */
  const roleInputs: Record<string, string> = {
    [IRM_TYPES.roleBinding]: "roleUid",
    [IRM_TYPES.identityProvider]: "defaultRole",
  };
  const checked = (type: string, inputs: Props): Props => {
    const role = roles.get(String(inputs[roleInputs[type] ?? ""]));
    if (role === undefined) return inputs;
    const { uid, name, capabilities } = role;
    const builtIn = isBuiltInRoleUid(uid);
    return {
      ...inputs,
      checkedRole: builtIn
        ? { uid, name, builtIn }
        : { uid, name, builtIn, capabilities: [...capabilities].sort() },
    };
  };

  const states = new Map<string, Props>();
  let serial = 0;
  const fakeUid = (parentUid: string) =>
    `${parentUid}/${(0xfeed000000000000n + BigInt(++serial)).toString(16)}`;

  const upState = (type: string, inputs: Props): Props => {
    const time = "2026-11-21T23:00:00.000Z";
    const parentUid = String(
      inputs.parentUid ?? inputs.groupUid ?? emulator.bootstrap.rootGroupUid,
    );
    const state: Props = { ...inputs, uid: fakeUid(parentUid), createTime: time, updateTime: time };
    if (type !== IRM_TYPES.roleBinding) return state;
    delete state.updateTime;
    // As the provider records it: the role's name only when it is a built-in role.
    return { ...state, builtInRoleName: builtInRoleNames.get(String(inputs.roleUid)) ?? "" };
  };

  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        const inputs = args.inputs as Props;
        const state = phase === "up" ? upState(args.type, inputs) : { ...inputs };
        states.set(`${args.type}::${args.name}`, state);
        // As the engine: a create's id is unknown in preview (an empty id reads as unknown).
        return { id: phase === "preview" ? "" : String(state.uid ?? `${args.name}-id`), state };
      },
      call: () => ({}),
    },
    project,
    "dev",
    phase === "preview",
  );
  pulumi.runtime.setAllConfig({
    "irm:apiUrl": emulator.url,
    "irm:token": emulator.bootstrap.token,
    [`${project}:rootGroupUid`]: emulator.bootstrap.rootGroupUid,
  });

  // Wrap the mock monitor to see what the engine sees: raw inputs with unknown
  // sentinels, property dependencies and the URN it assigns.
  const settings = require("@pulumi/pulumi/runtime/settings") as { getMonitor(): MockMonitorLike };
  const monitor = settings.getMonitor();
  const register = monitor.registerResource.bind(monitor);
  const captured: EngineResource[] = [];
  monitor.registerResource = (req, cb) =>
    register(req, (err, res) => {
      if (!err && res) {
        const propertyDependencies: Record<string, string[]> = {};
        req.getPropertydependenciesMap().forEach((deps, key) => {
          propertyDependencies[key] = deps.getUrnsList();
        });
        const inputs = checked(req.getType(), req.getObject()?.toJavaScript() ?? {});
        captured.push({
          type: req.getType(),
          name: req.getName(),
          urn: res.getUrn(),
          parent: req.getParent() || undefined,
          inputs,
          state: {},
          propertyDependencies,
          dependencies: req.getDependenciesList(),
        });
      }
      cb(err, res);
    });

  const loaded = require(program) as unknown;
  const result = typeof loaded === "function" ? (loaded as () => unknown)() : loaded;
  await result;
  const runtime = require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };
  await runtime.waitForRPCs();

  for (const resource of captured) {
    const state = states.get(`${resource.type}::${resource.name}`) ?? {};
    // In preview the state is the inputs as sent, sentinels included.
    resource.state = phase === "preview" ? { ...resource.inputs } : state;
  }
  await emulator.close();
  const output = { rootGroupUid: emulator.bootstrap.rootGroupUid, resources: captured };
  process.stdout.write(`\n${JSON.stringify(output)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
