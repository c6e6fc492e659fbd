/**
 * The native plugin's own cost, as the engine runs it (`plugin/pulumi-resource-irm`, the
 * built package): which modules it loads (never the whole of `@pulumi/pulumi`, a
 * function call included), and what the checks ask the API after the program's lookups
 * (nothing the lookups already answered).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as messages from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { type PluginProcess, startPlugin } from "./support";

type Plain = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: generated protobuf messages
type Message = any;

describe("the native plugin, lean", () => {
  let emulator: TestEmulator;
  let plugin: PluginProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-plugin-lean-"));
  const modulesFile = path.join(dir, "modules.json");

  const call = (method: string, request: Message): Promise<Message> => plugin.call(method, request);
  const struct = (plain: Plain) => Struct.fromJavaScript(plain as never);
  const invoke = async (tok: string, args: Plain) => {
    const request = new messages.InvokeRequest();
    request.setTok(tok);
    request.setArgs(struct(args));
    return (await call("invoke", request)).getReturn().toJavaScript() as Plain;
  };
  const check = async (type: string, news: Plain) => {
    const request = new messages.CheckRequest();
    request.setUrn(`urn:pulumi:dev::p::${type}::r`);
    request.setOlds(struct({}));
    request.setNews(struct(news));
    const response = await call("check", request);
    return {
      inputs: response.getInputs()?.toJavaScript() as Plain,
      failures: response.getFailuresList().map((f: Message) => f.getReason()),
    };
  };
  /** A preload that records, as the plugin exits, every module file it loaded into `file`. */
  const recorder = (file: string) => {
    const preload = path.join(dir, `record-${path.basename(file, ".json")}.cjs`);
    fs.writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(file)}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    return preload;
  };
  /** The loaded files below `folder` (`/`-separated), named from there. */
  const filesUnder = (loaded: string[], folder: string) =>
    loaded
      .map((file) => file.split(path.sep).join("/"))
      .filter((file) => file.includes(`/${folder}`))
      .map((file) => file.slice(file.lastIndexOf(`/${folder}`) + folder.length + 1));
  const requests = async () =>
    (await emulator.requests()).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    plugin = await startPlugin(["--require", recorder(modulesFile)]);
    const request = new messages.ConfigureRequest();
    request.setArgs(struct({ apiUrl: emulator.url, token: emulator.token }));
    request.setAcceptsecrets(true);
    await call("configure", request);
  }, 30_000);

  afterAll(async () => {
    plugin?.close();
    await emulator?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("checks a binding of a role the program looked up, and an object under a group it looked up, without a request", async () => {
    const root = emulator.rootGroupUid;
    expect((await invoke("irm:index:getGroup", { uid: root })).uid).toBe(root);
    const viewer = await invoke("irm:index:getRole", { name: "viewer" });
    const custom = await invoke("irm:index:getRoles", {});
    expect(await requests()).toEqual([
      `GET /iam/v2beta1/groups/${root}`,
      "GET /iam/v2beta1/roles?name=viewer&page_size=200",
      "GET /iam/v2beta1/roles?page_size=200",
    ]);
    expect((custom.items as Plain[]).length).toBeGreaterThan(0);
    await emulator.clearRequests();

    const group = await check("irm:index:Group", { parentUid: root, name: "team" });
    expect(group.failures).toEqual([]);
    const binding = await check("irm:index:RoleBinding", {
      groupUid: root,
      identityUid: `${root}/0123456789abcdef`,
      roleUid: viewer.uid,
    });
    expect(binding.failures).toEqual([]);
    // What a policy judges the binding by, as a check that reads the role records it.
    expect(binding.inputs.checkedRole).toEqual({ uid: viewer.uid, name: "viewer", builtIn: true });
    expect(await requests()).toEqual([]);

    // A role a listing answered is known too.
    const owner = (custom.items as Plain[]).find((role) => role.name === "owner");
    expect(owner).toBeDefined();
    const other = await check("irm:index:RoleBinding", {
      groupUid: root,
      identityUid: `${root}/0123456789abcdef`,
      roleUid: owner?.uid,
    });
    expect(other.inputs.checkedRole).toMatchObject({ uid: owner?.uid, name: "owner" });
    expect(await requests()).toEqual([]);

    // A role is no container: a group declared under a role's uid is still asked about,
    // though a lookup answered that uid (the API's answer decides, not the lookup's).
    await check("irm:index:Group", { parentUid: viewer.uid, name: "team" });
    expect(await requests()).toEqual([`GET /iam/v2beta1/groups/${viewer.uid}`]);
  });

  it("serves functions without loading the whole of @pulumi/pulumi", async () => {
    await invoke("irm:index:getRepos", {});
    plugin.kill();
    expect(await plugin.exited).toBe(0);
    const loaded = JSON.parse(fs.readFileSync(modulesFile, "utf8")) as string[];
    const fromPulumi = filesUnder(loaded, `node_modules/@pulumi/pulumi/`);
    // Its protocol modules only (the gRPC service and messages).
    expect(fromPulumi.length).toBeGreaterThan(0);
    expect(fromPulumi.filter((file) => !file.startsWith("proto/"))).toEqual([]);
    // Nor a TypeScript compiler.
    expect(filesUnder(loaded, "node_modules/typescript/")).toEqual([]);
  });

  it("answers the schema alone without loading the handlers, the checks or the API client", async () => {
    // The engine starts a plugin process for the program's schema only (the YAML host).
    const file = path.join(dir, "schema-only.json");
    const alone = await startPlugin(["--require", recorder(file)]);
    const schema = (await alone.call("getSchema", new messages.GetSchemaRequest())).getSchema();
    expect(Object.keys(JSON.parse(schema).resources)).toContain("irm:index:Group");
    alone.kill();
    expect(await alone.exited).toBe(0);
    alone.close();
    const loaded = JSON.parse(fs.readFileSync(file, "utf8")) as string[];
    const ours = loaded
      .filter((file) => file.startsWith(path.join(REPO_ROOT, "dist") + path.sep))
      .map((file) => path.relative(path.join(REPO_ROOT, "dist"), file).split(path.sep).join("/"));
    expect(ours.sort()).toEqual(
      [
        "provider/native/main.js",
        "provider/native/protocol.js",
        "provider/native/server.js",
        // The engine's address, watched as the dynamic provider host does.
        "provider/engine-watch.js",
      ].sort(),
    );
  });

  it("a handler module that fails to load is named in the answer, not an unknown error", async () => {
    // A broken install, as a preload makes it: the handlers' module throws when required.
    const preload = path.join(dir, "break-service.cjs");
    fs.writeFileSync(
      preload,
      `const Module = require("node:module");
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "./service") throw new Error("service.js is missing");
  return load.call(this, request, ...rest);
};
`,
    );
    const broken = await startPlugin(["--require", preload]);
    try {
      const request = new messages.ConfigureRequest();
      request.setArgs(struct({ apiUrl: emulator.url, token: emulator.token }));
      const error = await broken.call("configure", request).then(
        () => undefined,
        (failure: Error) => failure,
      );
      expect(error?.message).toContain(
        "pulumi-resource-irm could not load its handlers: service.js is missing",
      );
      expect(error?.message).not.toContain(emulator.token);
    } finally {
      broken.close();
    }
  });
});
