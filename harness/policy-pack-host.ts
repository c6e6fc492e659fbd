/**
 * Runs the policy pack the way the Pulumi engine does and talks to it over gRPC.
 *
 * The engine starts `node @pulumi/pulumi/cmd/run-policy-pack <engine address> <pack
 * folder>` with the pack folder as working directory (`PolicyPack` reads the pack's
 * version from `./package.json` there); the program prints its port on the first
 * line of stdout and serves the `Analyzer` service. The engine address is only
 * dropped by the launcher, so a dummy one is enough.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as analyzerService from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as analyzer from "@pulumi/pulumi/proto/analyzer_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { readPort } from "./provider-host";

const REPO_ROOT = path.resolve(__dirname, "..");
/** The shipped pack folder (`PulumiPolicy.yaml`, `package.json` → compiled program). */
export const PACK_DIR = path.join(REPO_ROOT, "policy");

/** What the engine knows about one resource, as it sends it to the pack. */
export interface EngineResource {
  type: string;
  name: string;
  urn: string;
  parent?: string;
  /** Inputs after `check`, as `analyze` receives them (unknowns as sentinels). */
  inputs: Record<string, unknown>;
  /** State, as `analyzeStack` receives it. */
  state: Record<string, unknown>;
  /** The resources (URNs) each input was computed from. */
  propertyDependencies: Record<string, string[]>;
  dependencies: string[];
}

/** One diagnostic of an `analyze` / `analyzeStack` answer, in plain form. */
export interface Diagnostic {
  policyName: string;
  policyPackName: string;
  urn: string;
  message: string;
  level: "advisory" | "mandatory" | "remediate" | "disabled";
}

const LEVELS: Record<number, Diagnostic["level"]> = {
  [analyzer.EnforcementLevel.ADVISORY]: "advisory",
  [analyzer.EnforcementLevel.MANDATORY]: "mandatory",
  [analyzer.EnforcementLevel.REMEDIATE]: "remediate",
  [analyzer.EnforcementLevel.DISABLED]: "disabled",
};

/** One policy's configuration as the engine sends it. */
export interface PolicySettings {
  enforcementLevel: Diagnostic["level"];
  [setting: string]: unknown;
}

export interface PolicyPackHost {
  info(): Promise<analyzer.AnalyzerInfo>;
  /**
   * Sends the pack's configuration: policy name → level and settings. The engine always
   * sends a level (the policy's own when the user set none): an absent one would read
   * as 0, which is ADVISORY.
   */
  configure(config: Record<string, PolicySettings>): Promise<void>;
  analyze(resource: EngineResource): Promise<Diagnostic[]>;
  analyzeStack(resources: EngineResource[]): Promise<Diagnostic[]>;
  close(): Promise<void>;
}

const toStruct = (value: object): Struct =>
  Struct.fromJavaScript(
    JSON.parse(JSON.stringify(value)) as Parameters<typeof Struct.fromJavaScript>[0],
  );

function options(resource: EngineResource): analyzer.AnalyzerResourceOptions {
  const opts = new analyzer.AnalyzerResourceOptions();
  opts.setProtect(false);
  opts.setIgnorechangesList([]);
  opts.setAliasesList([]);
  opts.setAdditionalsecretoutputsList([]);
  if (resource.parent) opts.setParent(resource.parent);
  return opts;
}

function diagnostics(response: analyzer.AnalyzeResponse): Diagnostic[] {
  return response.getDiagnosticsList().map((d) => ({
    policyName: d.getPolicyname(),
    policyPackName: d.getPolicypackname(),
    urn: d.getUrn(),
    message: d.getMessage(),
    level: LEVELS[d.getEnforcementlevel()],
  }));
}

/** Starts the pack program from `packDir` and connects to its Analyzer service. */
export async function startPolicyPack(packDir: string = PACK_DIR): Promise<PolicyPackHost> {
  const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));
  const launcher = path.join(
    path.dirname(requireFromRepo.resolve("@pulumi/pulumi/package.json")),
    "cmd",
    "run-policy-pack",
  );
  const child = spawn(process.execPath, [launcher, "127.0.0.1:1", packDir], {
    cwd: packDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderrText = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderrText += chunk;
  });
  const port = await readPort(child, () => stderrText, "policy pack");
  const client = new analyzerService.AnalyzerClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
  );

  const call = <Res>(invoke: (cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown) =>
    new Promise<Res>((resolve, reject) => {
      invoke((err, res) => {
        if (err) reject(new Error(`${err.details || err.message}\n${stderrText}`));
        else resolve(res);
      });
    });

  return {
    info: () => call<analyzer.AnalyzerInfo>((cb) => client.getAnalyzerInfo(new Empty(), cb)),

    async configure(config) {
      const req = new analyzer.ConfigureAnalyzerRequest();
      const levels: Record<string, analyzer.EnforcementLevel> = {
        advisory: analyzer.EnforcementLevel.ADVISORY,
        mandatory: analyzer.EnforcementLevel.MANDATORY,
        remediate: analyzer.EnforcementLevel.REMEDIATE,
        disabled: analyzer.EnforcementLevel.DISABLED,
      };
      for (const [policyName, { enforcementLevel, ...settings }] of Object.entries(config)) {
        const policyConfig = new analyzer.PolicyConfig();
        policyConfig.setEnforcementlevel(levels[enforcementLevel]);
        policyConfig.setProperties(toStruct(settings));
        req.getPolicyconfigMap().set(policyName, policyConfig);
      }
      await call<Empty>((cb) => client.configure(req, cb));
    },

    async analyze(resource) {
      const req = new analyzer.AnalyzeRequest();
      req.setType(resource.type);
      req.setName(resource.name);
      req.setUrn(resource.urn);
      req.setProperties(toStruct(resource.inputs));
      req.setOptions(options(resource));
      return diagnostics(await call<analyzer.AnalyzeResponse>((cb) => client.analyze(req, cb)));
    },

    async analyzeStack(resources) {
      const req = new analyzer.AnalyzeStackRequest();
      req.setResourcesList(
        resources.map((resource) => {
          const r = new analyzer.AnalyzerResource();
          r.setType(resource.type);
          r.setName(resource.name);
          r.setUrn(resource.urn);
          r.setProperties(toStruct(resource.state));
          r.setOptions(options(resource));
          if (resource.parent) r.setParent(resource.parent);
          r.setDependenciesList(resource.dependencies);
          for (const [property, urns] of Object.entries(resource.propertyDependencies)) {
            const deps = new analyzer.AnalyzerPropertyDependencies();
            deps.setUrnsList(urns);
            r.getPropertydependenciesMap().set(property, deps);
          }
          return r;
        }),
      );
      return diagnostics(
        await call<analyzer.AnalyzeResponse>((cb) => client.analyzeStack(req, cb)),
      );
    },

    async close() {
      client.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
