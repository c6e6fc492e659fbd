#!/usr/bin/env node
/**
 * `irm-pending [FILE]`: after an interrupted `pulumi up`, finds the object each pending
 * create of this package's types made, and prints the arguments of
 * `pulumi refresh --import-pending-creates` that record them in state instead of
 * creating them again. Reads `pulumi stack export` JSON from FILE or stdin; looks each
 * object up through the SDK (settings from `IRM_*`, `--api-url`, `--token-file`, as
 * `irm-export`). It never guesses: a pending create that matches no object, or more
 * than one, is named with what was found, and left out of the arguments. Exit codes:
 * 0 every pending create was matched (or there is none), 1 some were not, or the API
 * failed, 2 bad input.
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { IrmClient, IrmError, isNotFound } from "../sdk/index";
import { CommandError, readTokenFile } from "./command";
import { KIND_NAMES, type KindName } from "./kinds";

const USAGE = `usage: irm-pending [FILE] [--api-url URL] [--token-file FILE]

Reads \`pulumi stack export\` JSON (FILE, or stdin), finds the object each pending
create of pulumi-irm's types made, and prints the arguments for
\`pulumi refresh --import-pending-creates\`. A pending create that matches no object,
or more than one, is listed with the candidates and left out.`;

/** One pending create and what was found for it. */
export interface PendingMatch {
  urn: string;
  /** The type's short name (`Group`, ...). */
  type: string;
  /** The uid of the one object it made; undefined when none or several match. */
  id?: string;
  /** Why there is no id: no object, several (named), or a type that cannot be matched. */
  problem?: string;
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** A plain string input; undefined for a missing or secret one. */
const input = (inputs: Raw, key: string): string | undefined =>
  typeof inputs[key] === "string" && inputs[key] !== "" ? (inputs[key] as string) : undefined;

/** By type token, as `provider/resource-class.ts` makes it (not imported: it loads @pulumi/pulumi). */
const TYPE_OF = new Map<string, KindName>(
  KIND_NAMES.map((t) => [`pulumi-nodejs:dynamic/irm:${t}`, t]),
);

/** The pending creates of this package's types in a `pulumi stack export` document. */
export function pendingCreates(
  document: unknown,
): Array<{ urn: string; type: KindName; inputs: Raw }> {
  if (!isObject(document) || !isObject(document.deployment)) {
    throw new PendingError("the input is not `pulumi stack export` JSON (no `deployment`)", 2);
  }
  const operations = document.deployment.pending_operations ?? [];
  if (!Array.isArray(operations)) {
    throw new PendingError("deployment.pending_operations: must be a list", 2);
  }
  const out: Array<{ urn: string; type: KindName; inputs: Raw }> = [];
  for (const operation of operations) {
    if (!isObject(operation) || operation.type !== "creating" || !isObject(operation.resource)) {
      continue;
    }
    const { urn, type, inputs } = operation.resource;
    const short = typeof type === "string" ? TYPE_OF.get(type) : undefined;
    if (typeof urn !== "string" || short === undefined) continue;
    out.push({ urn, type: short, inputs: isObject(inputs) ? inputs : {} });
  }
  return out;
}

export class PendingError extends CommandError {
  override readonly name = "PendingError";
}

/** The uids found, or why none can be. */
type Found = string[] | string;

/** Objects of `list` under the parent in state with the name in state. */
async function byName(
  inputs: Raw,
  list: (params: { childrenOf: string; name: string }) => {
    all(): Promise<Array<{ uid: string; name: string }>>;
  },
): Promise<Found> {
  const parent = input(inputs, "parentUid");
  const name = input(inputs, "name");
  if (parent === undefined || name === undefined) return "its parentUid or name is not in state";
  const found = await list({ childrenOf: parent, name }).all();
  return found.filter((o) => o.name === name).map((o) => o.uid);
}

/** How to find what a pending create of each kind made, from its inputs in state. */
const FINDERS: Record<KindName, (client: IrmClient, inputs: Raw) => Promise<Found>> = {
  Group: (client, inputs) => byName(inputs, (p) => client.iam.groups.list(p)),
  Role: (client, inputs) => byName(inputs, (p) => client.iam.roles.list(p)),
  Identity: (client, inputs) => byName(inputs, (p) => client.iam.identities.list(p)),
  IdentityProvider: (client, inputs) => byName(inputs, (p) => client.iam.identityProviders.list(p)),
  ExternalGroupRoleMapping: async (client, inputs) => {
    const [provider, group, role, scope] = [
      "identityProviderUid",
      "externalGroupId",
      "roleUid",
      "scope",
    ].map((k) => input(inputs, k));
    if (!provider || !group || !role || !scope) {
      return "its identityProviderUid, externalGroupId, roleUid or scope is not in state";
    }
    const found = await client.iam.externalGroupRoleMappings
      .list({ identityProviderUid: provider })
      .all();
    return found
      .filter((m) => m.externalGroupId === group && m.roleUid === role && m.scope === scope)
      .map((m) => m.uid);
  },
  AccountAssociation: async (client, inputs) => {
    const group = input(inputs, "groupUid");
    if (!group) return "its groupUid is not in state";
    try {
      return [(await client.iam.accountAssociations.get(group)).uid];
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  },
  RoleBinding: async (client, inputs) => {
    const [group, identity, role] = ["groupUid", "identityUid", "roleUid"].map((k) =>
      input(inputs, k),
    );
    if (!group || !identity || !role) return "its groupUid, identityUid or roleUid is not in state";
    const found = await client.iam.roleBindings.list({ group, identity, role }).all();
    // Only a binding in the group itself (the filter may also answer its descendants').
    return found.filter((b) => b.uid.slice(0, b.uid.lastIndexOf("/")) === group).map((b) => b.uid);
  },
  GroupInvite: async () =>
    "a group invite cannot be adopted: delete the stray invite (its code was never recorded) and run `pulumi refresh --clear-pending-creates`",
};

/** The objects one pending create may have made, found by what identifies them. */
async function candidates(client: IrmClient, type: KindName, inputs: Raw): Promise<Found> {
  const adopted = input(inputs, "adoptUid");
  if (adopted !== undefined) return [adopted];
  return FINDERS[type](client, inputs);
}

/** Matches every pending create of this package's types to the object it made. */
export async function matchPendingCreates(
  client: IrmClient,
  document: unknown,
): Promise<PendingMatch[]> {
  const matches: PendingMatch[] = [];
  for (const pending of pendingCreates(document)) {
    let found: Found;
    try {
      found = await candidates(client, pending.type, pending.inputs);
    } catch (error) {
      const said =
        error instanceof IrmError ? `${error.codeName}: ${error.message}` : String(error);
      throw new PendingError(`looking up ${pending.urn} failed: ${said}`);
    }
    if (typeof found === "string") matches.push({ ...pick(pending), problem: found });
    else if (found.length === 1) matches.push({ ...pick(pending), id: found[0] });
    else if (found.length === 0) {
      matches.push({
        ...pick(pending),
        problem:
          "no object matches: the create did not reach the service; `pulumi refresh --clear-pending-creates` drops it and the next `up` creates it",
      });
    } else {
      matches.push({
        ...pick(pending),
        problem: `${found.length} objects match (${[...found].sort().join(", ")}): choose one, delete the others`,
      });
    }
  }
  return matches;
}

const pick = (p: { urn: string; type: string }) => ({ urn: p.urn, type: p.type });

/** `'text'` for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The command line for the matched ones, and one line per pending create left out. */
export function describeMatches(matches: PendingMatch[]): { stdout: string; stderr: string } {
  const matched = matches.filter((m) => m.id !== undefined);
  const stdout =
    matched.length === 0
      ? ""
      : `pulumi refresh ${matched
          .map(
            (m) => `--import-pending-creates ${shellQuote(m.urn)} --import-pending-creates ${m.id}`,
          )
          .join(" \\\n  ")}\n`;
  const stderr = matches
    .filter((m) => m.id === undefined)
    .map((m) => `irm-pending: ${m.urn}: ${m.problem}\n`)
    .join("");
  return { stdout, stderr };
}

export async function main(argv: string[], stdin: () => string): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({
        args: argv,
        options: {
          "api-url": { type: "string" },
          "token-file": { type: "string" },
          help: { type: "boolean", short: "h" },
        },
        strict: true,
        allowPositionals: true,
      });
    } catch (error) {
      throw new PendingError(`${(error as Error).message}\n\n${USAGE}`, 2);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length > 1) throw new PendingError(`at most one FILE\n\n${USAGE}`, 2);
    let text: string;
    try {
      text = positionals[0] === undefined ? stdin() : fs.readFileSync(positionals[0], "utf8");
    } catch (error) {
      throw new PendingError(
        `cannot read ${positionals[0] ?? "stdin"} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
        2,
      );
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new PendingError("the input is not JSON: pipe `pulumi stack export` into it", 2);
    }
    const tokenFile = values["token-file"] as string | undefined;
    const token =
      tokenFile === undefined
        ? undefined
        : readTokenFile(tokenFile, (message) => new PendingError(message, 2));
    let client: IrmClient;
    try {
      client = new IrmClient({ baseUrl: values["api-url"] as string | undefined, token });
    } catch (error) {
      throw new PendingError((error as Error).message, 2);
    }
    try {
      const matches = await matchPendingCreates(client, document);
      const { stdout, stderr } = describeMatches(matches);
      if (matches.length === 0)
        process.stderr.write("irm-pending: no pending create of pulumi-irm\n");
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      return matches.every((m) => m.id !== undefined) ? 0 : 1;
    } finally {
      await client.close();
    }
  } catch (error) {
    process.stderr.write(`irm-pending: ${(error as Error).message}\n`);
    return error instanceof PendingError ? error.exitCode : 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), () => fs.readFileSync(0, "utf8")).then((code) => {
    process.exitCode = code;
  });
}
