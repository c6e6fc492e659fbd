/**
 * The exporter writes what the API answers into code: it must be safe for any string
 * the API can answer. Names, descriptions and claim keys carrying comment terminators,
 * quotes, backticks, every kind of line break (U+2028 and U+2029 too) and magic keys
 * (`__proto__`), and group names that are module-scope or reserved names (`exports`,
 * `require`, `module`, `global this`, ...), are exported; the program is compiled as the
 * Pulumi language host compiles it (CommonJS) and loaded with a recording stand-in of
 * the package: it must load, run no statement of the API's text, and declare each
 * object with exactly the API's values. It also type-checks against the installed
 * package. An API URL carrying credentials never reaches a file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../exporter/program";
import { projectFiles } from "../../exporter/project";
import type { LiveIdentityProvider, LiveOrganisation } from "../../exporter/read";
import { renderIndex } from "../../exporter/render";
import { createConsumerProject } from "../../harness/installed-package";
import type { Group, Identity, Role, RoleBinding } from "../../sdk/index";
import { typeCheck } from "../support/export";

const ROOT = "a".repeat(40);
const TIME = "2026-11-22T10:00:00.000Z";
let counter = 0;
const segment = () => (++counter).toString(16).padStart(16, "0");

/** Each tries to end the string, comment or line it is written in and run a statement. */
const HOSTILE = [
  "*/ globalThis.pwned = 1; /*",
  "x\u2028globalThis.pwned = 2; //",
  "x\u2029globalThis.pwned = 3; //",
  "x\r\nglobalThis.pwned = 4; //",
  "x\rglobalThis.pwned = 5; //",
  `"'\`\${(globalThis.pwned = 6)}\`\\`,
  '"); globalThis.pwned = 7; ("',
  "'); globalThis.pwned = 8; ('",
  "\\u0022); globalThis.pwned = 9; //",
  "</script><!-- --> \u0085 \ufeff \u0000 \ud800",
];
/** Group names that, made into variables, shadow what the module needs. */
const SCOPE_NAMES = [
  "exports",
  "require",
  "module",
  "global this",
  "process",
  "console",
  "default",
  "pulumi",
  "irm",
  "config",
  "options",
  "let",
  "yield",
  "static",
  "arguments",
  "eval",
  "await",
  "undefined",
  "nan",
];

function group(parent: string, name: string, description = ""): Group {
  return {
    uid: `${parent}/${segment()}`,
    name,
    description,
    resourceLimits: {},
    verified: false,
    createTime: TIME,
    updateTime: TIME,
  };
}

function hostileOrganisation(): LiveOrganisation {
  // Exported from a group below the root: the root is then named in a doc comment.
  const top: Group = { ...group(ROOT, HOSTILE[0], HOSTILE[1]) };
  const groups: Group[] = [
    ...HOSTILE.map((text, i) => group(top.uid, `${text} ${i}`, HOSTILE[(i + 3) % HOSTILE.length])),
  ];
  // Each with a child, so that it is referred to by a variable.
  for (const name of SCOPE_NAMES) {
    const named = group(top.uid, name);
    groups.push(named, group(named.uid, `${name} child`));
  }
  const viewer: Role = {
    uid: "f".repeat(40),
    name: "viewer",
    description: "",
    capabilities: ["CAP_IAM_GROUPS_LIST"],
    parentUid: "",
    createTime: TIME,
    updateTime: TIME,
  } as Role;
  const custom: Role = {
    uid: `${top.uid}/${segment()}`,
    name: HOSTILE[2],
    description: HOSTILE[0],
    capabilities: ["CAP_IAM_GROUPS_LIST"],
    parentUid: top.uid,
    createTime: TIME,
    updateTime: TIME,
  } as Role;
  const identities: Identity[] = HOSTILE.map(
    (text, i) =>
      ({
        uid: `${top.uid}/${segment()}`,
        name: `exports ${i}`,
        description: text,
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: text,
          claims: { __proto__: text, constructor: "c", prototype: "p", [text]: "v" },
          claimPatterns: { ["__proto__"]: "a.*" },
        },
        createTime: TIME,
        updateTime: TIME,
      }) as unknown as Identity,
  );
  // Object literals above would have set prototypes: make the keys own members.
  for (const identity of identities) {
    const claimMatch = (identity as unknown as { claimMatch: Record<string, unknown> }).claimMatch;
    const claims = JSON.parse(
      `{"__proto__": ${JSON.stringify(identity.description)}, "constructor": "c", "prototype": "p"}`,
    );
    claims[identity.description] = "v";
    claimMatch.claims = claims;
    claimMatch.claimPatterns = JSON.parse('{"__proto__": "a.*"}');
  }
  const providers: LiveIdentityProvider[] = HOSTILE.slice(0, 4).map((text) => ({
    uid: `${top.uid}/${segment()}`,
    name: text,
    description: text,
    defaultRole: custom.uid,
    oidc: {
      issuer: "https://idp.example",
      clientId: text,
      additionalScopes: [text],
      groupsClaim: "groups",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
    },
  }));
  const bindings: RoleBinding[] = identities.map((who) => ({
    uid: `${top.uid}/${segment()}`,
    identity: { uid: who.uid, name: who.name, description: "", subject: "", issuer: "" },
    group: { uid: top.uid, name: top.name, description: "" },
    role: { uid: viewer.uid, name: "viewer", description: "" },
    createTime: TIME,
  }));
  return {
    top,
    topIsRoot: false,
    groups,
    identities,
    bindings,
    roles: [viewer, custom],
    identityProviders: providers,
    externalGroupRoleMappings: [],
    accountAssociations: [],
    repos: [],
    subscriptions: [],
    groupInvites: [],
    requests: {},
  };
}

interface Declared {
  type: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * Compiles the program as the Pulumi language host does (TypeScript to CommonJS) and
 * runs it in a fresh context with stand-ins of `pulumi-irm` and `@pulumi/pulumi` that
 * record every declaration. Answers the declarations and the context's globals.
 */
function load(index: string): { declared: Declared[]; context: Record<string, unknown> } {
  const compiled = ts.transpileModule(index, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  expect(compiled.diagnostics ?? []).toEqual([]);
  const declared: Declared[] = [];
  const resource = (type: string) =>
    class {
      uid: string;
      constructor(name: string, args: Record<string, unknown>) {
        declared.push({ type, name, args });
        this.uid = `uid-of-${type}-${name}`;
      }
    };
  const irm = {
    Group: resource("Group"),
    Identity: resource("Identity"),
    Role: resource("Role"),
    RoleBinding: resource("RoleBinding"),
    IdentityProvider: resource("IdentityProvider"),
    AccountAssociation: resource("AccountAssociation"),
    getRoleOutput: (args: { name: string }) => ({ uid: `role-${args.name}` }),
  };
  const pulumi = {
    Config: class {
      get(_key: string) {
        return undefined;
      }
      requireSecret(key: string) {
        return `secret-${key}`;
      }
      getSecret(key: string) {
        return `secret-${key}`;
      }
    },
  };
  const context: Record<string, unknown> = {};
  vm.createContext(context);
  const wrapper = vm.runInContext(
    `(function (exports, require, module, __filename, __dirname) {${compiled.outputText}\n})`,
    context,
    { filename: "index.js" },
  ) as (...args: unknown[]) => void;
  const module = { exports: {} };
  const requireStub = (name: string) => {
    if (name === "pulumi-irm") return irm;
    if (name === "@pulumi/pulumi") return pulumi;
    throw new Error(`unexpected require(${name})`);
  };
  wrapper(module.exports, requireStub, module, "/project/index.js", "/project");
  return { declared, context };
}

/** An own-member copy of a value, so `__proto__` members compare as members. */
const members = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("a program exported from hostile names", () => {
  const live = hostileOrganisation();
  const program = buildProgram(live, { declareCustomRoles: true });
  const index = renderIndex(program, { protect: true, retain: false });
  let cleanup: (() => void) | undefined;
  afterAll(() => cleanup?.());

  it("loads, runs none of the API's text, and declares every object with the API's values", () => {
    const { declared, context } = load(index);
    expect(context.pwned).toBeUndefined();
    const byAdopt = new Map(declared.map((d) => [d.args.adoptUid as string, d]));
    for (const g of [live.top, ...live.groups]) {
      const d = byAdopt.get(g.uid);
      expect(d?.type).toBe("Group");
      expect(d?.args.name).toBe(g.name);
      expect(d?.args.description ?? "").toBe(g.description);
    }
    for (const identity of live.identities) {
      const d = byAdopt.get(identity.uid);
      expect(d?.args.description).toBe(identity.description);
      expect(members(d?.args.claimMatch)).toEqual(
        members((identity as unknown as { claimMatch: unknown }).claimMatch),
      );
      const claims = (d!.args.claimMatch as { claims: object }).claims;
      expect(Object.hasOwn(claims, "__proto__")).toBe(true);
    }
    for (const provider of live.identityProviders) {
      const d = byAdopt.get(provider.uid);
      expect(d?.args.name).toBe(provider.name);
      expect(d?.args.description).toBe(provider.description);
      expect((d!.args.oidc as { clientId: string }).clientId).toBe(provider.oidc.clientId);
    }
    const role = byAdopt.get(live.roles[1].uid);
    expect(role?.args.name).toBe(live.roles[1].name);
    expect(declared.filter((d) => d.type === "RoleBinding")).toHaveLength(live.bindings.length);
  });

  it("never names a variable after a reserved or module-scope name", () => {
    const variables = [...index.matchAll(/^const ([A-Za-z_$][\w$]*)[ :]/gm)].map((m) => m[1]);
    for (const name of [
      "exports",
      "require",
      "module",
      "globalThis",
      "process",
      "console",
      "default",
      "let",
      "yield",
      "static",
      "arguments",
      "eval",
      "await",
      "undefined",
    ]) {
      expect(variables).not.toContain(name);
    }
    // The groups named so are declared under other names; the program's own names once each.
    expect(variables).toEqual(expect.arrayContaining(["exportsGroup", "requireGroup"]));
    for (const own of ["config", "options"]) {
      expect(variables.filter((v) => v === own)).toHaveLength(1);
    }
  });

  it("keeps every line break and comment terminator of the API's text out of the code", () => {
    expect(index).not.toMatch(/[\u2028\u2029]/);
    for (const line of index.split("\n")) {
      if (line.trimStart().startsWith("/**")) expect(line.match(/\*\//g)).toHaveLength(1);
    }
  });

  it("type-checks against the installed package", async () => {
    const project = createConsumerProject({
      name: "export-hostile",
      files: {
        "index.ts": index,
        "tsconfig.json": JSON.stringify({
          compilerOptions: {
            strict: true,
            module: "commonjs",
            moduleResolution: "node",
            target: "ES2022",
            esModuleInterop: true,
            skipLibCheck: true,
            types: ["node"],
          },
          files: ["index.ts"],
        }),
      },
    });
    cleanup = project.remove;
    expect(fs.existsSync(path.join(project.dir, "index.ts"))).toBe(true);
    const checked = await typeCheck(project.dir);
    expect(checked.output).toBe("");
  }, 120_000);
});

/**
 * The value of `key:` in a Pulumi.yaml written by the export: a YAML double-quoted
 * scalar of printable ASCII whose only escapes are `\"`, `\\`, `\uXXXX` and
 * `\UXXXXXXXX` (refused otherwise), decoded as YAML decodes them.
 */
function yamlValue(text: string, key: string): string {
  const line = text.split("\n").find((l) => l.trimStart().startsWith(`${key}:`));
  const quoted = line?.slice(line.indexOf(":") + 1).trim() ?? "";
  expect(quoted).toMatch(
    /^"(?:[\x20-\x21\x23-\x5b\x5d-\x7e]|\\["\\]|\\u[0-9a-f]{4}|\\U[0-9a-f]{8})*"$/,
  );
  const json = quoted.replace(/\\U([0-9a-f]{8})/g, (_, hex: string) => {
    const char = String.fromCodePoint(Number.parseInt(hex, 16));
    return JSON.stringify(char).slice(1, -1);
  });
  return JSON.parse(json) as string;
}

describe("the project files of a hostile organisation", () => {
  const live = hostileOrganisation();
  const program = buildProgram(live, { declareCustomRoles: true });
  const files = projectFiles(
    program,
    {
      projectName: "hostile",
      apiUrl: "https://robot:s3cr3t-pass@api.example:8443/base/?token=s3cr3t-query#s3cr3t-frag",
      protect: false,
      retain: false,
    },
    { name: "pulumi-irm", version: "1.0.0", pulumiRange: "^3.0.0" },
  );

  it("write no credential of the API URL", () => {
    for (const [file, text] of Object.entries(files)) {
      expect(text, file).not.toContain("s3cr3t");
      expect(text, file).not.toContain("robot");
    }
    expect(yamlValue(files["Pulumi.yaml"], "value")).toBe("https://api.example:8443/base/");
  });

  it("write Pulumi.yaml whose description reads back as the API's text", () => {
    expect(files["Pulumi.yaml"]).not.toMatch(/[\u0080-\uffff\r]/);
    expect(yamlValue(files["Pulumi.yaml"], "description")).toContain(live.top.name);
    expect(files["Pulumi.yaml"].split("\n")[0]).toBe("name: hostile");
  });

  it("write a README whose lines the API's text cannot break", () => {
    const readme = files["README.md"];
    expect(readme).not.toMatch(/[\u2028\u2029\u0085\r]/);
    expect(readme).not.toContain("globalThis.pwned = 4; //\n");
  });
});
