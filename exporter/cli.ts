#!/usr/bin/env node
/**
 * `irm-export [--group UID] --out DIR [--api-url URL] [--name NAME] [--protect] [--retain]
 * [--include-self] [--force] [--dry-run]`: writes a Pulumi project that adopts an existing organisation.
 * Credentials come only from the environment (`IRM_TOKEN`, or `IRM_IDENTITY` with
 * `IRM_IDENTITY_TOKEN_FILE`), or `--token-file`, never from an argument, so no token
 * lands in shell history; nothing printed ever contains one. Exit codes: 0 done,
 * 1 the API refused or failed, 2 bad input.
 */
import { parseArgs } from "node:util";
import { checkServiceUrl } from "../sdk/client";
import { flag, SETTINGS } from "../sdk/settings";
import { readTokenFile } from "./command";
import { ExportError, type ExportResult, exportOrganisation, requestFloor } from "./index";
import { describeCounts } from "./kinds";

const USAGE = `usage: irm-export --out DIR [options]

Writes a Pulumi TypeScript project declaring every group, custom role, identity,
identity provider, account association and role binding below a group, each with
adoptUid, so that the first \`pulumi up\` takes them over. Group invites are
skipped and counted (their codes cannot be read back); identity providers' client
secrets are read from \`pulumi config --secret\` (the plan lists the keys).

  --group UID        group to export with everything below it (default: the
                     organisation the token sees)
  --out DIR          folder to write (must be missing or empty, unless --force)
  --name NAME        Pulumi project name (default: irm-<group name>)
  --api-url URL      API base URL (default: IRM_API_URL; required, no built-in address)
  --token-file FILE  read the API token from FILE (default: IRM_TOKEN, or IRM_IDENTITY
                     with IRM_IDENTITY_TOKEN_FILE; see sdk/settings.ts)
  --protect          every resource gets protect: true
  --retain           every resource gets retainOnDelete: true
  --include-self     declare the identity the token acts as and its role bindings,
                     with protect: true (default: left out, so that no run of the
                     stack can delete the access it runs with)
  --force            write into a non-empty --out, replacing the generated files only
  --dry-run          print what would be written, write nothing
  --quiet            no progress lines
  -h, --help         this text`;

interface Flags {
  group?: string;
  out?: string;
  name?: string;
  "api-url"?: string;
  "token-file"?: string;
  protect?: boolean;
  retain?: boolean;
  "include-self"?: boolean;
  force?: boolean;
  "dry-run"?: boolean;
  quiet?: boolean;
  help?: boolean;
}

function parseFlags(argv: string[]): Flags {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        group: { type: "string" },
        out: { type: "string" },
        name: { type: "string" },
        "api-url": { type: "string" },
        "token-file": { type: "string" },
        protect: { type: "boolean" },
        retain: { type: "boolean" },
        "include-self": { type: "boolean" },
        force: { type: "boolean" },
        "dry-run": { type: "boolean" },
        quiet: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
    return values as Flags;
  } catch (error) {
    // parseArgs names the flag ("Unknown option '--tokn'"); never echo a value.
    throw new ExportError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
}

/** The plan: files, object counts, what is left out, requests against their floor. */
export function describeResult(result: ExportResult, dryRun: boolean): string {
  const lines: string[] = [];
  const { top } = result.program;
  lines.push(
    `${dryRun ? "Would write" : "Wrote"} a Pulumi project for the ${top.isRoot ? "organisation" : "group"} "${top.name}" (${top.uid})${result.writtenTo ? ` to ${result.writtenTo}` : ""}:`,
  );
  for (const [file, content] of Object.entries(result.files)) {
    lines.push(`  ${file.padEnd(14)} ${content.split("\n").length - 1} lines`);
  }
  lines.push(`declaring ${describeCounts(result.counts)} (each with adoptUid)`);
  const p = result.program;
  if (p.lookups.length > 0) {
    lines.push(
      `looking up ${p.lookups.length} roles by name: ${p.lookups.map((l) => l.name).join(", ")}`,
    );
  }
  if (p.outside.length > 0) {
    lines.push(
      `referring to ${p.outside.length} objects outside by config key: ${p.outside.map((o) => o.configKey).join(", ")}`,
    );
  }
  for (const omission of result.omissions)
    lines.push(`not exported: ${omission.what}: ${omission.why}`);
  for (const secret of result.clientSecrets) {
    lines.push(
      `client secret of identity provider ${secret.resourceName} (${secret.uid}): pulumi config set --secret ${secret.configKey} <secret>${secret.optional ? " (optional: PKCE)" : ""}`,
    );
  }
  for (const warning of result.warnings)
    lines.push(`warning: the provider would refuse ${warning}`);
  const floor = requestFloor(result.live);
  const sent = Object.values(result.requests).reduce((a, b) => a + b, 0);
  lines.push(
    `requests: ${sent} (listings ${Object.entries(floor)
      .map(([k, v]) => `${k} ${result.requests[k] ?? 0}/${v}`)
      .join(
        ", ",
      )}, plus ${result.requests.group ?? 0} to find the group, ${result.requests.accountAssociation ?? 0} for its own account association and ${result.requests.readme ?? 0} for the repos' READMEs, one each)`,
  );
  if (!dryRun) {
    lines.push(
      "",
      "Next:",
      `  cd ${result.writtenTo} && npm install && pulumi stack init <stack>`,
      "  pulumi config set --secret irm:token <token>   # or export IRM_TOKEN",
      ...(result.clientSecrets.length > 0
        ? ["  pulumi config set --secret <key> <secret>   # each client secret above (README.md)"]
        : []),
      "  pulumi up   # adopts everything: no object is created or changed",
    );
  }
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<number> {
  try {
    const flags = parseFlags(argv);
    if (flags.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const dryRun = flags["dry-run"] ?? false;
    if (!dryRun && !flags.out) throw new ExportError(`--out: is required\n\n${USAGE}`, 2);
    const quiet = flags.quiet ?? false;
    const apiUrl = flags["api-url"];
    if (apiUrl !== undefined) {
      // Named as the user gave it (the SDK would name its option, baseUrl).
      const insecure = SETTINGS.allowInsecureHttp.env;
      try {
        checkServiceUrl(
          apiUrl,
          { name: "--api-url", allowInsecure: `set ${insecure}=1` },
          flag(process.env[insecure] ?? "", insecure),
        );
      } catch (error) {
        throw new ExportError((error as Error).message, 2);
      }
    }
    const result = await exportOrganisation({
      outDir: flags.out,
      groupUid: flags.group,
      projectName: flags.name,
      protect: flags.protect,
      retain: flags.retain,
      includeSelf: flags["include-self"],
      force: flags.force,
      dryRun,
      settings: {
        baseUrl: flags["api-url"],
        token: flags["token-file"]
          ? readTokenFile(flags["token-file"], (message) => new ExportError(message, 2))
          : undefined,
      },
      onProgress: quiet
        ? undefined
        : (p) => process.stderr.write(`irm-export: ${p.collection}: ${p.read} of ${p.total}\n`),
    });
    process.stdout.write(`${describeResult(result, dryRun)}\n`);
    return 0;
  } catch (error) {
    const code = error instanceof ExportError ? error.exitCode : 1;
    // SDK errors are redacted already; ours name flags, uids and paths only.
    process.stderr.write(`irm-export: ${(error as Error).message}\n`);
    return code;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
