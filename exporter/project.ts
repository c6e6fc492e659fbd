/**
 * The files of the generated project and how they reach the disk: generated in
 * memory, then written into a temporary folder beside `--out` and renamed into place,
 * so a failure leaves nothing behind.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ExportedProgram } from "./declarations";
import { declaredCounts, describeCounts } from "./kinds";
import { ExportError } from "./read";
import { type RenderOptions, renderIndex } from "./render";

/** For the benchmark, which counts in the same words. */
export { countOf } from "./kinds";

/** What this package declares about itself, for the generated package.json. */
export interface PackageFacts {
  name: string;
  version: string;
  /** Range of `@pulumi/pulumi` this package supports (its peer dependency). */
  pulumiRange: string;
  typescriptVersion?: string;
  nodeTypesVersion?: string;
}

/** This package's own package.json, found by walking up from this file (source or dist). */
export function packageFacts(): PackageFacts {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as {
        name: string;
        version: string;
        peerDependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      if (manifest.name === "pulumi-irm") {
        return {
          name: manifest.name,
          version: manifest.version,
          pulumiRange: manifest.peerDependencies?.["@pulumi/pulumi"] ?? "^3.200.0",
          typescriptVersion: manifest.devDependencies?.typescript,
          nodeTypesVersion: manifest.devDependencies?.["@types/node"],
        };
      }
    }
    if (path.dirname(dir) === dir)
      throw new Error("irm-export: cannot find pulumi-irm's package.json");
  }
}

/** A Pulumi project name: letters, digits, `-`, `_`, `.`; at most 100 characters. */
const PROJECT_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The default project name: `irm-<group name>`. */
export function defaultProjectName(groupName: string): string {
  const slug = groupName
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `irm-${slug || "organisation"}`.slice(0, 100);
}

export function checkProjectName(name: string): void {
  if (!PROJECT_NAME.test(name)) {
    throw new ExportError(
      `--name: must be 1 to 100 letters, digits, '-', '_' or '.', got ${JSON.stringify(name)}`,
      2,
    );
  }
}

const caret = (version: string | undefined, fallback: string) =>
  version === undefined ? fallback : version.startsWith("^") ? version : `^${version}`;

export interface ProjectSettings extends RenderOptions {
  projectName: string;
  /** The API the organisation was read from; written as the `irm:apiUrl` default. */
  apiUrl: string;
}

/**
 * The API URL as a file may hold it: without user name, password, query or fragment,
 * any of which may carry a credential (`https://user:token@host`, `?token=`). Only
 * the scheme, host, port and path are kept.
 */
export function publicApiUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ExportError("the API URL is not a URL; it is not written into the project", 2);
  }
  const bare = apiUrl.replace(/[?#].*$/s, "");
  const path = url.pathname === "/" && !bare.endsWith("/") ? "" : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * A YAML double-quoted scalar holding exactly `text`: every character outside
 * printable ASCII is escaped (`\u2028`, `\x85`, ...), so no line break, separator or
 * character YAML forbids is ever written raw; a lone surrogate, which YAML cannot
 * hold, becomes U+FFFD.
 */
export function yamlString(text: string): string {
  let out = '"';
  for (const char of text.replace(/\p{Surrogate}/gu, "\uFFFD")) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

/**
 * Text from the API in a Markdown line: line breaks of every kind become spaces, and
 * what would end a table cell or open an HTML tag is escaped.
 */
function markdownText(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029\u0085]+/g, " ")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;");
}

/**
 * The package's recommended start for a TypeScript program: the CLI transpiles only
 * (`noCheck` in the tsconfig it is pointed to, which `@pulumi/pulumi`'s program runner
 * reads as ts-node's `transpileOnly`), and the types are checked by `npm run typecheck`
 * (`tsc --noEmit` over `tsconfig.json`, which editors read too). Skipping the check on
 * every run saves the type-check of the program and its packages' types, paid by each
 * `preview` and twice by `up`.
 */
export const PULUMI_TSCONFIG = "tsconfig.pulumi.json";

/** `runtime.options` lines of `Pulumi.yaml` for that start (indented under `options:`). */
export const TYPESCRIPT_RUNTIME_OPTIONS = ["typescript: true", `tsconfig: ${PULUMI_TSCONFIG}`];

/** The text of `tsconfig.pulumi.json`: the project's tsconfig, transpile only. */
export const PULUMI_TSCONFIG_TEXT = `${JSON.stringify(
  { extends: "./tsconfig.json", compilerOptions: { noCheck: true } },
  null,
  2,
)}\n`;

/** The `typecheck` script a project runs in CI and before `pulumi up`. */
export const TYPECHECK_SCRIPT = "tsc --noEmit";

/** `compilerOptions` of the generated project's `tsconfig.json` (`tsc` builds into `bin/`). */
export const PROJECT_COMPILER_OPTIONS = {
  strict: true,
  outDir: "bin",
  target: "ES2022",
  module: "commonjs",
  moduleResolution: "node",
  esModuleInterop: true,
  skipLibCheck: true,
  isolatedModules: true,
  sourceMap: true,
  types: ["node"],
};

/** Every file of the project, by relative path. Contains no token. */
export function projectFiles(
  program: ExportedProgram,
  settings: ProjectSettings,
  facts: PackageFacts,
): Record<string, string> {
  const what = program.top.isRoot ? "organisation" : "group";
  const description = `The ${what} "${program.top.name}" (${program.top.uid}), exported by irm-export.`;
  const apiUrl = publicApiUrl(settings.apiUrl);
  const pulumiYaml = [
    `name: ${settings.projectName}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    ...TYPESCRIPT_RUNTIME_OPTIONS.map((line) => `    ${line}`),
    `description: ${yamlString(description)}`,
    "config:",
    "  irm:apiUrl:",
    `    value: ${yamlString(apiUrl)}`,
    "",
  ].join("\n");
  const manifest = {
    name: settings.projectName,
    private: true,
    main: "index.ts",
    scripts: { typecheck: TYPECHECK_SCRIPT },
    dependencies: {
      "@pulumi/pulumi": facts.pulumiRange,
      [facts.name]: `^${facts.version}`,
    },
    devDependencies: {
      "@types/node": caret(facts.nodeTypesVersion, "^20.19.0"),
      typescript: caret(facts.typescriptVersion, "^5.9.0"),
    },
  };
  const tsconfig = { compilerOptions: PROJECT_COMPILER_OPTIONS, files: ["index.ts"] };
  const counts = describeCounts(declaredCounts(program));
  const secrets = program.clientSecrets;
  const readme = [
    `# ${settings.projectName}`,
    "",
    `${markdownText(description)} It declares ${counts}, each with \`adoptUid\`: the first`,
    "`pulumi up` takes the existing objects over without creating or changing any.",
    "",
    "```sh",
    "npm install",
    "npm run typecheck   # the types; `pulumi` itself only transpiles (tsconfig.pulumi.json)",
    "pulumi stack init <stack>",
    "pulumi config set --secret irm:token <an API token>   # or export IRM_TOKEN",
    ...secrets.map(
      (s) =>
        `pulumi config set --secret ${s.configKey} <client secret of ${s.resourceName}>${s.optional ? "   # optional (PKCE)" : ""}`,
    ),
    "pulumi preview   # every resource shows as a create: that is the adoption, no request changes anything",
    "pulumi up",
    "```",
    "",
    ...(secrets.length > 0
      ? [
          "## Client secrets",
          "",
          "The API never answers an identity provider's client secret, so the export cannot",
          "write it: the program reads it from `pulumi config` under a key made from the",
          "provider's uid, which stays the same across re-exports. Set each key with",
          "`pulumi config set --secret <key> <secret>`. When it is set, the first `up` sends it",
          "to the provider once (one `PATCH` with `updateMask=oidc.client_secret`); after that it",
          "is sent again only when the value in config changes. It is stored in the stack as a",
          "Pulumi secret, never in clear.",
          "",
          "| config key | identity provider | uid | needed |",
          "| --- | --- | --- | --- |",
          ...secrets.map(
            (s) =>
              `| \`${s.configKey}\` | ${s.resourceName} ("${markdownText(s.name)}") | \`${s.uid}\` | ${s.optional ? "optional: it uses PKCE" : "yes"} |`,
          ),
          "",
        ]
      : []),
    `\`irm:apiUrl\` defaults to ${markdownText(apiUrl)} (in Pulumi.yaml). The uids this program`,
    "refers to but does not declare are config keys (see the top of `index.ts`).",
    ...(program.omissions.length > 0
      ? [
          "",
          "Not in this program:",
          "",
          ...program.omissions.map((o) => `- ${markdownText(o.what)}: ${o.why}`),
        ]
      : []),
    "",
  ].join("\n");
  return {
    "Pulumi.yaml": pulumiYaml,
    "package.json": `${JSON.stringify(manifest, null, 2)}\n`,
    "tsconfig.json": `${JSON.stringify(tsconfig, null, 2)}\n`,
    [PULUMI_TSCONFIG]: PULUMI_TSCONFIG_TEXT,
    "README.md": readme,
    "index.ts": renderIndex(program, settings),
  };
}

/** Is `dir` missing or an empty folder? Throws when it is a file. */
function isEmptyOrMissing(dir: string): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return true;
    if (code === "ENOTDIR") throw new ExportError(`--out: ${dir} is a file, not a folder`, 2);
    throw error;
  }
  return entries.length === 0;
}

/** Refuses a non-empty `--out` without `--force`; called before anything is read. */
export function checkOutDir(dir: string, force: boolean): void {
  if (!isEmptyOrMissing(dir) && !force) {
    throw new ExportError(
      `--out: ${dir} is not empty; choose another folder, or pass --force to overwrite the generated files there (other files are left alone)`,
      2,
    );
  }
}

/**
 * Writes `content` into a new file at `file`: created exclusively (`wx`: nothing may
 * be there, a symbolic link included, so no link planted at the name is followed).
 */
export function writeNewFile(file: string, content: string, mode = 0o644): void {
  const fd = fs.openSync(file, "wx", mode);
  try {
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Replaces `file` with `content`, whole or not at all: through a new temporary file of
 * an unguessable name beside it, created exclusively, renamed over it. A link at `file`
 * is replaced, never written through.
 */
export function replaceFile(file: string, content: string, mode = 0o644): void {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`,
  );
  try {
    writeNewFile(temp, content, mode);
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Writes the files. Into a missing or empty folder: all of them into a temporary
 * sibling folder, renamed into place at the end. Into a non-empty folder (`force`):
 * each file through a new temporary file of an unguessable name, created exclusively,
 * renamed over it; files the export does not write (stack settings, node_modules)
 * stay. No write follows a link: a link at a generated file's name is replaced by the
 * file, never written through.
 */
export function writeProject(dir: string, files: Record<string, string>, force: boolean): void {
  checkOutDir(dir, force);
  const target = path.resolve(dir);
  if (isEmptyOrMissing(target)) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const temp = fs.mkdtempSync(`${target}.irm-export-`);
    try {
      for (const [file, content] of Object.entries(files)) {
        writeNewFile(path.join(temp, file), content);
      }
      if (fs.existsSync(target)) fs.rmdirSync(target);
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { recursive: true, force: true });
      throw error;
    }
    return;
  }
  const suffix = `${process.pid}.${randomBytes(8).toString("hex")}.irm-export-tmp`;
  const temps = new Map<string, string>();
  try {
    for (const [file, content] of Object.entries(files)) {
      const temp = path.join(target, `.${file}.${suffix}`);
      writeNewFile(temp, content);
      temps.set(file, temp);
    }
    for (const [file, temp] of temps) fs.renameSync(temp, path.join(target, file));
    temps.clear();
  } finally {
    for (const temp of temps.values()) fs.rmSync(temp, { force: true });
  }
}
