#!/usr/bin/env node
/**
 * `irm-pending [FILE] [--out FIXED]`: repairs the state of a `pulumi up` that was
 * interrupted between a create reaching the service and state recording it.
 *
 * Reads `pulumi stack export` JSON from FILE or stdin and judges each pending create of
 * this package's types:
 * - one live object equal to every input the create sent (the provider's own lost-create
 *   lookup, `recover` of its handler), held by nothing else in state or pending: it is
 *   written into the checkpoint as the provider's `create` would have stored it (its
 *   inputs, outputs, `__provider` text), and the pending create removed;
 * - no object at all: the create never arrived, the pending create is removed (the next
 *   `up` creates it);
 * - anything else (a namesake that differs, several matches, an object another resource
 *   holds, inputs the provider's checks refuse, a group invite, a subscription without
 *   `adoptUid` (nothing tells it from another of the same sink), a replacement's create):
 *   the stack is refused, naming the candidates, and nothing is written. `--drop URN`
 *   says that this create never reached the service (after a look at the candidates).
 * A pending create of another package refuses the stack too: `pulumi stack import`
 * clears every pending operation, and that one would be made again.
 *
 * `pulumi refresh --import-pending-creates` cannot do this for dynamic resources: Pulumi
 * 3.248 only relabels the operations `importing`, and no step reads them back.
 *
 * With `--out FIXED`, writes the repaired export there (only when every pending create
 * of this package is settled) for `pulumi stack import --file FIXED`; without it, only
 * reports. Everything printed is shell-quoted with control characters shown escaped.
 * Exit codes: 0 repairable (written with `--out`), 1 refused or the API failed, 2 bad input.
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { resolveProviderSettings } from "../provider/config";
import { providerClock } from "../provider/handlers/common";
import { PROVIDER_KINDS } from "../provider/kinds";
import { isPackageProviderText } from "../provider/shim";
import { IrmClient, IrmError } from "../sdk/index";
import { GROUP_UID_PATTERN } from "../sdk/uids";
import { CommandError, readTokenFile } from "./command";
import { KIND_NAMES, type KindName } from "./kinds";
import { replaceFile } from "./project";

const USAGE = `usage: irm-pending [FILE] [--out FIXED] [--drop URN]... [--api-url URL] [--token-file FILE]

Reads \`pulumi stack export\` JSON (FILE, or stdin) after an interrupted \`pulumi up\`,
finds the object each pending create of pulumi-irm's types made, and with --out writes
the export with those objects recorded and the pending creates removed, for
\`pulumi stack import --file FIXED\`. A pending create whose object cannot be told
apart (several, a namesake that differs, one another resource holds) is named with the
candidates, and nothing is written. --drop URN: that create never reached the service.`;

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** By type token, as `provider/resource-class.ts` makes it (not imported: it loads @pulumi/pulumi). */
const TYPE_OF = new Map<string, KindName>(
  KIND_NAMES.map((t) => [`pulumi-nodejs:dynamic/irm:${t}`, t]),
);

/** A uid of the service: a root group's uid, or a child's (`<parent>/<16 hex>`). */
const UID_SHAPE = GROUP_UID_PATTERN;

/** One pending create of this package's types, as the stack export holds it. */
export interface PendingCreate {
  /** Its index in `deployment.pending_operations`. */
  index: number;
  urn: string;
  type: KindName;
  /** The resource state the create began with (no id, no outputs). */
  resource: Raw;
  inputs: Raw;
}

/** What becomes of one pending create. */
export type Verdict = PendingCreate &
  (
    | { action: "record"; uid: string; outputs: Raw }
    | { action: "drop"; reason: string }
    | { action: "refuse"; reason: string }
  );

export class PendingError extends CommandError {
  override readonly name = "PendingError";
}

/** The deployment of a `pulumi stack export` document, checked for the parts read here. */
function deploymentOf(document: unknown): {
  resources: Raw[];
  operations: unknown[];
} {
  if (!isObject(document) || !isObject(document.deployment)) {
    throw new PendingError("the input is not `pulumi stack export` JSON (no `deployment`)", 2);
  }
  const { resources = [], pending_operations: operations = [] } = document.deployment;
  if (!Array.isArray(resources) || !resources.every(isObject)) {
    throw new PendingError("deployment.resources: must be a list of objects", 2);
  }
  if (!Array.isArray(operations)) {
    throw new PendingError("deployment.pending_operations: must be a list", 2);
  }
  return { resources, operations };
}

/** The pending creates of this package's types in a `pulumi stack export` document. */
export function pendingCreates(document: unknown): PendingCreate[] {
  const out: PendingCreate[] = [];
  deploymentOf(document).operations.forEach((operation, index) => {
    if (!isObject(operation) || operation.type !== "creating" || !isObject(operation.resource)) {
      return;
    }
    const resource = operation.resource;
    const short = typeof resource.type === "string" ? TYPE_OF.get(resource.type) : undefined;
    if (typeof resource.urn !== "string" || short === undefined) return;
    const inputs = isObject(resource.inputs) ? resource.inputs : {};
    out.push({ index, urn: resource.urn, type: short, resource, inputs });
  });
  return out;
}

/** Characters that must never reach a terminal raw: C0, DEL, C1, bidi and line controls. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x61c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** `text` with each control character written as `\u{...}`. */
export function visible(text: string): string {
  let shown = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    shown += isControl(code) ? `\\u{${code.toString(16)}}` : character;
  }
  return shown;
}

/** One word for a POSIX shell, single-quoted, its control characters shown escaped. */
export function shellWord(text: string): string {
  return `'${visible(text).replace(/'/g, `'\\''`)}'`;
}

/** The provider's handlers, each with a context over this command's client. */
function handlers(client: IrmClient) {
  const context = {
    client: () => client,
    settings: () => resolveProviderSettings(() => undefined),
    sleep: (ms: number) => providerClock.sleep(ms),
    now: () => providerClock.now(),
  };
  return new Map(PROVIDER_KINDS.map((kind) => [kind.type as KindName, kind.handler(context)]));
}

/** Every uid a resource of this package's types in state already holds. */
function heldInState(document: unknown): Map<string, string> {
  const held = new Map<string, string>();
  for (const resource of deploymentOf(document).resources) {
    if (typeof resource.type !== "string" || !TYPE_OF.has(resource.type)) continue;
    if (typeof resource.id === "string" && resource.id !== "" && typeof resource.urn === "string") {
      held.set(resource.id, resource.urn);
    }
  }
  return held;
}

const listed = (uids: string[]) => uids.map(shellWord).join(", ");

/**
 * Judges every pending create of this package's types: what it made, if anything, found
 * strictly. `drop` holds the URNs (as written, or as printed) said never to have reached
 * the service.
 */
export async function judgePendingCreates(
  client: IrmClient,
  document: unknown,
  drop: ReadonlySet<string> = new Set(),
): Promise<Verdict[]> {
  const byType = handlers(client);
  const held = heldInState(document);
  const inState = new Set(deploymentOf(document).resources.map((r) => r.urn));
  const verdicts: Verdict[] = [];
  for (const pending of pendingCreates(document)) {
    const dropped = drop.has(pending.urn) || drop.has(visible(pending.urn));
    const judged = await judge(byType, held, pending, dropped);
    // A create of a URN state already holds is a replacement's: recording it would
    // leave two resources of one URN, so only its drop is safe.
    verdicts.push(
      judged.action === "record" && inState.has(pending.urn)
        ? {
            ...pending,
            action: "refuse",
            reason: `a replacement was under way (its URN is in state already), which irm-pending does not repair: delete its new object ${shellWord(judged.uid)}, then run again with --drop ${shellWord(pending.urn)}`,
          }
        : { ...pending, ...judged },
    );
  }
  // An object two pending creates both match belongs to neither for sure.
  const claims = new Map<string, number>();
  for (const v of verdicts)
    if (v.action === "record") claims.set(v.uid, (claims.get(v.uid) ?? 0) + 1);
  return verdicts.map((v) =>
    v.action === "record" && (claims.get(v.uid) ?? 0) > 1
      ? {
          ...pick(v),
          action: "refuse" as const,
          reason: `its object ${shellWord(v.uid)} matches another pending create as well: delete the duplicate resource from the program, or the object`,
        }
      : v,
  );
}

const pick = (v: PendingCreate): PendingCreate => ({
  index: v.index,
  urn: v.urn,
  type: v.type,
  resource: v.resource,
  inputs: v.inputs,
});

type Judgement =
  | { action: "record"; uid: string; outputs: Raw }
  | { action: "drop"; reason: string }
  | { action: "refuse"; reason: string };

async function judge(
  byType: ReturnType<typeof handlers>,
  held: Map<string, string>,
  pending: PendingCreate,
  dropped: boolean,
): Promise<Judgement> {
  const handler = byType.get(pending.type);
  const dropHint = `if it never reached the service, run again with --drop ${shellWord(pending.urn)}`;
  if (handler === undefined || !("recover" in handler)) {
    return dropped
      ? { action: "drop", reason: "dropped as asked (--drop)" }
      : {
          action: "refuse",
          reason: `a ${pending.type} cannot be recovered (its secret was never recorded): delete the object it may have made, then ${dropHint}`,
        };
  }
  if (!isPackageProviderText(pending.inputs.__provider)) {
    return {
      action: "refuse",
      reason: "its inputs in state hold no provider text of pulumi-irm (`__provider`)",
    };
  }
  // The inputs come from a file: the provider's own checks judge them before any use.
  let checked: Awaited<ReturnType<typeof handler.check>>;
  try {
    checked = await handler.check({}, pending.inputs);
  } catch (error) {
    throw lookupFailed(pending, error);
  }
  if (checked.failures?.length) {
    const said = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
    return {
      action: "refuse",
      reason: `its inputs in state fail the provider's checks (${visible(said)})`,
    };
  }
  let found: Awaited<ReturnType<typeof handler.recover>>;
  try {
    found = await handler.recover(pending.inputs as never);
  } catch (error) {
    throw lookupFailed(pending, error);
  }
  if (found.unrecoverable !== undefined) {
    return dropped
      ? { action: "drop", reason: "dropped as asked (--drop)" }
      : {
          action: "refuse",
          reason: `${found.unrecoverable}: delete the object it may have made, then ${dropHint}`,
        };
  }
  const matching = found.matching as unknown as Raw[];
  const uids = matching.map((outs) => String(outs.uid));
  const odd = uids.find((uid) => !UID_SHAPE.test(uid));
  if (odd !== undefined) {
    return {
      action: "refuse",
      reason: `the service answered a uid that is not uid-shaped (${shellWord(odd)})`,
    };
  }
  const free = uids.filter((uid) => !held.has(uid));
  const taken = uids
    .filter((uid) => held.has(uid))
    .map((uid) => `${shellWord(uid)} (held by ${shellWord(held.get(uid) ?? "")})`);
  const differ = found.differing.map(
    (d) => `${shellWord(d.uid)} (differs in ${d.fields.map(visible).join(", ")})`,
  );
  if (dropped) {
    if (free.length === 1) {
      return {
        action: "refuse",
        reason: `--drop refused: ${shellWord(free[0])} matches every input it sent; dropping it would make the next up create a second one`,
      };
    }
    return { action: "drop", reason: "dropped as asked (--drop)" };
  }
  if (free.length === 1 && taken.length === 0) {
    const outputs = { ...matching[uids.indexOf(free[0])], __provider: pending.inputs.__provider };
    return { action: "record", uid: free[0], outputs };
  }
  if (uids.length === 0 && differ.length === 0) {
    return {
      action: "drop",
      reason: "no object: the create did not reach the service; the next `up` creates it",
    };
  }
  const candidates = [
    ...free.map((uid) => `${shellWord(uid)} (matches)`),
    ...taken,
    ...differ,
  ].join(", ");
  const why =
    free.length > 1
      ? `${free.length} objects match every input it sent`
      : free.length === 0 && taken.length === 0
        ? "no object matches every input it sent; another party's namesake is never taken"
        : "its match is already held by another resource in state";
  return { action: "refuse", reason: `${why}: ${candidates}; ${dropHint}` };
}

function lookupFailed(pending: PendingCreate, error: unknown): PendingError {
  const said = error instanceof IrmError ? `${error.codeName}: ${error.message}` : String(error);
  return new PendingError(`looking up ${shellWord(pending.urn)} failed: ${visible(said)}`);
}

/**
 * The export with each recorded object written as a resource of the checkpoint (after
 * every resource already there: its parent, provider and dependencies are among them)
 * and each settled pending create removed. Other pending operations stay in the file
 * (`pulumi stack import` clears them all; `main` refuses other packages' creates).
 */
export function repairedDocument(document: unknown, verdicts: Verdict[]): Raw {
  if (verdicts.some((v) => v.action === "refuse")) {
    throw new PendingError("the stack cannot be repaired safely; nothing was written");
  }
  const copy = structuredClone(document) as Raw & { deployment: Raw };
  const { resources, operations } = deploymentOf(copy);
  const settled = new Set(verdicts.map((v) => v.index));
  for (const v of verdicts) {
    if (v.action !== "record") continue;
    resources.push({ ...structuredClone(v.resource), id: v.uid, outputs: v.outputs });
  }
  copy.deployment.resources = resources;
  copy.deployment.pending_operations = operations.filter((_, index) => !settled.has(index));
  return copy;
}

/** One line per pending create: what becomes of it. */
export function describeVerdicts(verdicts: Verdict[]): string {
  return verdicts
    .map((v) => {
      const urn = shellWord(v.urn);
      if (v.action === "record") return `irm-pending: record ${urn} as ${shellWord(v.uid)}\n`;
      if (v.action === "drop") return `irm-pending: drop ${urn}: ${v.reason}\n`;
      return `irm-pending: refused ${urn}: ${v.reason}\n`;
    })
    .join("");
}

/**
 * The pending operations this command does not settle: other packages' creates, which
 * `pulumi stack import` would drop (it clears every pending operation) and so make
 * again, and the rest (updates, deletes), which the next `up` would drop as well.
 */
function untouched(document: unknown, verdicts: Verdict[]): { creates: string[]; rest: number } {
  const settled = new Set(verdicts.map((v) => v.index));
  const left = deploymentOf(document).operations.filter((_, index) => !settled.has(index));
  const creates = left
    .filter((op) => isObject(op) && op.type === "creating")
    .map((op) => {
      const resource = isObject(op) && isObject(op.resource) ? op.resource : {};
      return typeof resource.urn === "string" ? resource.urn : "(no URN)";
    });
  return { creates, rest: left.length - creates.length };
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
          out: { type: "string" },
          drop: { type: "string", multiple: true },
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
      const where = positionals[0] === undefined ? "stdin" : shellWord(positionals[0]);
      throw new PendingError(
        `cannot read ${where} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
        2,
      );
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new PendingError("the input is not JSON: pipe `pulumi stack export` into it", 2);
    }
    deploymentOf(document);
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
      const drop = new Set((values.drop as string[] | undefined) ?? []);
      const verdicts = await judgePendingCreates(client, document, drop);
      const unknown = [...drop].filter(
        (u) => !verdicts.some((v) => v.urn === u || visible(v.urn) === u),
      );
      if (unknown.length > 0) {
        throw new PendingError(
          `--drop ${listed(unknown)}: no pending create of pulumi-irm has that URN`,
          2,
        );
      }
      if (verdicts.length === 0)
        process.stderr.write("irm-pending: no pending create of pulumi-irm\n");
      process.stderr.write(describeVerdicts(verdicts));
      const others = untouched(document, verdicts);
      if (others.rest > 0) {
        process.stderr.write(
          `irm-pending: ${others.rest} other pending operation(s) (updates, deletes): \`pulumi stack import\` drops them, as the next \`up\` would\n`,
        );
      }
      if (others.creates.length > 0) {
        process.stderr.write(
          `irm-pending: refused: pending creates of other packages (${listed(others.creates)}): \`pulumi stack import\` would drop them and the next \`up\` make them again; settle them first (\`pulumi refresh\`), then run irm-pending on a new export\n`,
        );
      }
      if (verdicts.some((v) => v.action === "refuse") || others.creates.length > 0) {
        process.stderr.write(
          "irm-pending: the stack cannot be repaired safely; nothing was written\n",
        );
        return 1;
      }
      const out = values.out as string | undefined;
      if (out !== undefined) {
        replaceFile(
          out,
          `${JSON.stringify(repairedDocument(document, verdicts), null, 2)}\n`,
          0o600,
        );
        process.stdout.write(`pulumi stack import --file ${shellWord(out)}\n`);
      }
      return 0;
    } finally {
      await client.close();
    }
  } catch (error) {
    const lines = (error as Error).message.split("\n").map(visible).join("\n");
    process.stderr.write(`irm-pending: ${lines}\n`);
    return error instanceof PendingError ? error.exitCode : 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), () => fs.readFileSync(0, "utf8")).then((code) => {
    process.exitCode = code;
  });
}
