/**
 * Renders `docs/reliability.md` from the figures a run of the slow suite wrote
 * (`.tmp/reliability-figures/*.json`) and the fast suite's vitest results, and keeps the
 * combined figures in `tests/reliability/results/figures.json`, so that every number in
 * the document comes from a recorded run. The deployment scenarios' figures are compared
 * with those of the last run on the small in-repo engine, kept in
 * `tests/reliability/results/small-engine-figures.json`.
 *
 *   npm run test:reliability && npx vitest run tests/reliability/fast
 *   node --import tsx tests/reliability/render-doc.ts
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../harness/installed-package";
import { FIGURES_DIR, type ScenarioFigures } from "../support/reliability/figures";

const RESULTS_FILE = path.join(__dirname, "results", "figures.json");
const DOC_FILE = path.join(REPO_ROOT, "docs", "reliability.md");
/** The fast suite's vitest JSON results; `RELIABILITY_FAST_RESULTS` names another file. */
const FAST_RESULTS =
  process.env.RELIABILITY_FAST_RESULTS ?? path.join(REPO_ROOT, ".vitest-results.json");
/**
 * The last recorded run whose deployment scenarios ran on the small in-repo engine
 * (`docs/reliability.md` and `figures.json` as they stood before the move to the real
 * engine), kept as the baseline of the comparison.
 */
const SMALL_ENGINE_RESULTS = path.join(__dirname, "results", "small-engine-figures.json");

/** Scenario order in the document: deployments under faults first, then the emulator's own failures, then load. */
const ORDER = [
  "deploy-under-503s",
  "dropped-after-create",
  "timed-out-create",
  "example-under-faults",
  "rate-limit-burst",
  "rate-limit-deployment",
  "token-expiry",
  "restart-sigterm",
  "restart-sigkill",
  "emulator-sigkill-durability",
  "interrupted-up-sigint",
  "interrupted-up-sigkill",
  "concurrent-load",
];

/** Position in the document; scenarios not listed come last, by id. */
function rank(id: string): number {
  const at = ORDER.indexOf(id);
  return at === -1 ? ORDER.length : at;
}

/** One finding: what was wrong and is now fixed, and the test that shows it. */
interface Finding {
  text: string;
  test: string;
}

/** Bugs found by the suite's first runs. */
const FINDINGS: Finding[] = [
  {
    text: "The emulator let a caller holding `roles.update` add capabilities it does not hold to a custom role, its own included: an escalation. Adding a capability now requires holding it on the role's group, as granting a binding does.",
    test: "fast/access-control.test.ts",
  },
  {
    text: "The emulator answered requests Node's HTTP parser refuses (URL or headers too large, bytes that are not HTTP, a GET body it cannot frame) with a bare 400/431 and no AIP-193 body, and stored bodies with invalid UTF-8 as replacement characters. Both are now `INVALID_ARGUMENT` with an AIP-193 body.",
    test: "fast/bad-input-http.test.ts",
  },
  {
    text: "Lookups sent whatever they were given: `getRoles({ name: {} })` silently returned `[]`, an empty or mistyped name or a malformed `parentUid` failed late with a message naming the wire parameter. They now check their arguments first (`getRole: name: must be a string, got number`).",
    test: "fast/bad-input-provider.test.ts",
  },
  {
    text: "`check` echoed a rejected value in full: a pasted 100,000-character name came back whole in the error. Values are now quoted up to 80 characters.",
    test: "fast/bad-input-provider.test.ts",
  },
  {
    text: "A create that timed out while the service was still working on it was made twice: the provider looked the object up at once, found nothing yet, and created it again; then the first request completed as well. The SDK now marks such outcomes (`OutcomeUnknownError.mayStillBeRunning`: a client timeout or a gateway's 504), and the provider keeps looking, backing off, for the request timeout (at least 10 s) before it creates again. A service slower than that still gets a second create: only an idempotency key in the API would close that.",
    test: "slow/timed-out-create.test.ts",
  },
];

/** The emulator's access model: escalation, disclosure, exchange, page tokens. */
const SECURITY_FINDINGS: Finding[] = [
  {
    text: "Retargeting an identity bound to owner of the root, as an editor of its group, by every mask form → `PERMISSION_DENIED` naming capability and root; identity unchanged; the attacker's OIDC token is not exchanged",
    test: "fast/escalation.test.ts",
  },
  {
    text: "A binding in a group the caller cannot see → refused, and the refusal names the identity, never that group",
    test: "fast/escalation.test.ts",
  },
  {
    text: "Delete and re-create a bound identity → delete refused; the look-alike holds no bindings, cannot be bound to owner by the editor, and its token has no power at the root",
    test: "fast/escalation.test.ts",
  },
  {
    text: "Binding a sibling group's identity (create, or PATCH `identityUid`) → `PERMISSION_DENIED` `identities.get`; real and missing uid give the same answer; no name or subject leaks",
    test: "fast/binding-disclosure.test.ts",
  },
  {
    text: "A sibling group's custom role → same answer as a missing role (bind create/PATCH and role GET)",
    test: "fast/binding-disclosure.test.ts",
  },
  {
    text: "A binding made by the root owner and read by a group owner → identity shows its uid only",
    test: "fast/binding-disclosure.test.ts",
  },
  {
    text: "Exchange with a token naming a foreign issuer → `PERMISSION_DENIED` (issuer), zero requests to that issuer; for a missing identity → `NOT_FOUND`, zero requests",
    test: "fast/exchange.test.ts",
  },
  {
    text: "Exchange: unreachable identity issuer, right issuer name with a wrong key, or a discovery document naming another issuer → `UNAUTHENTICATED`",
    test: "fast/exchange.test.ts",
  },
  {
    text: "Exchange audience: base URL, trailing `/`, or an array containing it → accepted; another audience, an array without it, or none → `PERMISSION_DENIED` (audience)",
    test: "fast/exchange.test.ts",
  },
  {
    text: "Page tokens: issue time, query or position rewritten, MAC removed, altered or truncated, or a token from another emulator → `INVALID_ARGUMENT`",
    test: "tests/emulator/page-tokens.test.ts",
  },
];

/**
 * Findings still being reported this session (emulator durability; the SDK and the
 * provider against hostile servers): add them here, one entry each with its test file.
 * The section is left out of the document while this list is empty.
 */
const MORE_FINDINGS: Finding[] = [
  {
    text: "The documented recovery from an interrupted `up` made every stray object again: `pulumi refresh --import-pending-creates` (Pulumi 3.248) only relabels the pending creates `importing` and no step reads them, so none of the objects reached state. `irm-pending --out` now writes each recovered object into the exported checkpoint as the provider's create would have (inputs, outputs, `__provider`) for `pulumi stack import`: 0 duplicates after two SIGINTs and after a SIGKILL",
    test: "slow/interrupted-up.test.ts",
  },
  {
    text: "`irm-pending` matched by parent and name only: a pending identity that never reached the service was matched to another party's owner-bound namesake with other claims (a takeover on the next `up`), and printed uids unquoted and URNs with their control characters. It now takes an object only when it equals every input the create sent and nothing else holds it, and prints everything shell-quoted with control characters escaped; a uid that is not uid-shaped is refused",
    test: "tests/export/pending.test.ts",
  },
  {
    text: "After a SIGKILL of the CLI the dynamic-provider hosts it started ran on for good. The runtime loaded in a host now watches the engine's address and exits once it has gone away (about 4 s)",
    test: "tests/provider/engine-watch.test.ts",
  },
  {
    text: "SIGKILL in a burst of concurrent creates (≥150 acknowledged, 24 in flight), restart on the same `--data` file → every acknowledged create is there (0 lost; 27 and 83 lost before the journal)",
    test: "tests/emulator/durability.test.ts",
  },
  {
    text: "A torn last record of the `--data` journal → the emulator starts and keeps every whole record; damage before a good record refuses to start",
    test: "tests/emulator/durability.test.ts",
  },
  {
    text: "A second emulator on the same `--data` file → refused, naming the file and the holder's pid; after a SIGKILL a restart on the file works; stale or garbage locks do not block; of three simultaneous starts exactly one wins",
    test: "tests/emulator/data-lock.test.ts",
  },
  {
    text: "Controls: a huge clock advance, token lifetime, fault or rate-limit number → `INVALID_ARGUMENT` naming field and rule, nothing applied; a refused seed creates nothing; a pre-existing bootstrap file is rewritten 0600; an old data file with an out-of-range clock loads",
    test: "tests/emulator/control-bounds.test.ts",
  },
  {
    text: "An identity's `lastSeenTime` reaches the `--data` journal when it changes (it was changed in place and waited for the next snapshot)",
    test: "tests/emulator/last-seen-journal.test.ts",
  },
  {
    text: "An HTML 404 from a proxy, or a wrong `irm:apiUrl` answering 404 pages, on refresh or delete → an error naming host, path, status and content type; the object stays in state",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "A mistyped `irm:identity` (the token exchange answers NOT_FOUND) → refresh and destroy fail and keep the object; the OIDC token is never shown",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "Only the API's own NOT_FOUND to the object's own GET or DELETE (also behind a base-URL path) drops an object",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "A lost create next to an older same-named object (another stack's) → never adopted, judged on the service's clock (`Date` headers); the own object next to it is adopted with one POST; a namesake with other fields is not; two candidates, or no `Date` header, fail naming the uids, createTimes and `adoptUid`, creating nothing",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "A plain-text 502/503 (or a JSON 503 without `ErrorInfo`) after a POST → an unknown outcome, never retried blindly: one POST; an HTML 503 from the emulator → looked up, then created once",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "A 200 missing `uid`, with a non-string name, a foreign uid, an out-of-scope list item or no list array → `BadResponseError` naming the field; a create answered under another parent → unknown outcome, recovered with one POST",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "An endless 200 body → abandoned at `maxResponseBytes` (4 MiB by default; on a create, an unknown outcome); a GitHub OIDC fetch or token exchange that never answers → bounded by `timeoutMs`, the caller's signal cancels",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "Page tokens that cycle → the listing stops with `BadResponseError` instead of looping",
    test: "fast/hostile-server.test.ts",
  },
  {
    text: "A renamed or redescribed group, identity or custom role → the binding's refresh reports no change, one GET (state keeps only what the binding owns); a binding's create is one POST, its built-in role's name taken from the answer",
    test: "tests/provider/binding-state.test.ts",
  },
  {
    text: "A custom role named like another group's role → `getRole({ name, parentUid })` picks it; a custom role may not take a built-in role's name",
    test: "tests/provider/lookups.test.ts",
  },
];

/**
 * The IAM additions (identity providers, group invites, account associations, identity
 * kinds, custom roles), checked as an attacker, a careless user and a badly behaved
 * server would: bugs found and fixed, then the cases that held.
 */
const IAM_EXTRAS_FINDINGS: Finding[] = [
  {
    text: "A client secret under 8 characters, echoed back by a server in an error, stayed in the SDK's error: the redaction skipped configured strings that short. So did one holding `\"` or `\\`, which shows only JSON-escaped in a quoted excerpt. The SDK now removes a request's client secret in every form and at any length (1 to 3 characters only where it stands alone)",
    test: "fast/secrets-client-secret-invite-code.test.ts",
  },
  {
    text: "An account association's `chainguard.serviceBindings` could name a service identity bound to owner of the root, by a caller holding only `accountAssociations.create` in the group: the platform service would act with powers the caller never held. Naming an identity there now needs every capability its role bindings grant, as retargeting an identity does",
    test: "fast/escalation-grants.test.ts",
  },
  {
    text: "A `staticKeys` identity with a P-521 key was accepted but refused every token (ES512 was not on the exchange's algorithm allow-list). ES512 is accepted now, and keys the verifier cannot use (curves such as secp256k1, X25519 or Ed448, RSA keys under 2048 bits) are refused at create, naming the key and the rule, and by the provider's `check` before anything is sent",
    test: "fast/exchange-identity-kinds.test.ts",
  },
  {
    text: "The exchange accepted, for an `awsIdentity`, a test-issuer token with a matching `aws` claim minted for another audience. It now requires `{base_url}` in `aud`, as every other kind does",
    test: "fast/exchange-identity-kinds.test.ts",
  },
  {
    text: "An `installationId` beyond `Number.MAX_SAFE_INTEGER` sent as a decimal string (as the SDK advised) was stored, but every answer carrying it was refused by the SDK's decoder: a create that succeeded looked failed, and the next try met `ALREADY_EXISTS`. The SDK now refuses such an id before sending, as a number or a string",
    test: "fast/hostile-server-decoders.test.ts",
  },
  {
    text: "Client secret and invite code → only SHA-256 digests in the `--data` files, never in the request log, an answer after create, an emulator error (also for a refused write carrying them), the SDK's printout of an invite or provider, or the real provider host's check, create, read, update and diff results outside the `clientSecret` and `code` properties the classes mark secret",
    test: "fast/secrets-client-secret-invite-code.test.ts",
  },
  {
    text: "An invite to owner, editor or a wider custom role, a default role beyond the caller's (at create and by every update form), a custom role widened by its holder (every mask form) → `PERMISSION_DENIED` naming the first missing capability, nothing written; an editor writes no role, binding, provider, invite or association; a custom role is refused outside its group's subtree even for the root owner",
    test: "fast/escalation-grants.test.ts",
  },
  {
    text: "Exchange: a `staticKeys` identity verifies only with its registered keys and never calls its issuer; a wrong audience is refused for every kind; patterns match the whole value (`a|b` included, `.*` never crossing a line break); a match-all subject or claim pattern still needs the pinned claims, and a claim that is missing, an object or an array never matches; a match-all issuer pattern admits no issuer that is not an http(s) URL and fetches nothing",
    test: "fast/exchange-identity-kinds.test.ts",
  },
  {
    text: "Hostile answers to the new collections: wrong shapes, a `code` of the wrong type, an `installationId` beyond safe integer (as a string or a JSON number), an identity of two kinds or none, a 200 KB body → `BadResponseError` (an unknown outcome for a create) naming the field; a proxy's HTML 404 or a gateway's JSON 404 on the refresh or delete of a `Role`, `IdentityProvider`, `GroupInvite` or `AccountAssociation` → an error, the object kept",
    test: "fast/hostile-server-decoders.test.ts",
  },
  {
    text: "Every input of `Role`, `IdentityProvider`, `GroupInvite`, `AccountAssociation` and identities of every kind, wrong → refused by `check` naming the field and the rule, before any request (the emulator's log stays empty), without echoing a blob or a private key",
    test: "fast/bad-input-kinds.test.ts",
  },
];

function findingLines(findings: Finding[]): string {
  return findings.map((f) => `- ${f.text.replace(/\.$/, "")} (\`${f.test}\`).`).join("\n");
}

interface RecordedRun {
  recordedAt: string;
  commit: string;
  node: string;
  machine: string;
  scenarios: Array<ScenarioFigures & { recordedAt?: string }>;
  fast?: Array<{ file: string; passed: number; failed: number }>;
}

function fastCounts(): RecordedRun["fast"] {
  if (!fs.existsSync(FAST_RESULTS)) return undefined;
  const results = JSON.parse(fs.readFileSync(FAST_RESULTS, "utf8")) as {
    testResults: Array<{ name: string; assertionResults: Array<{ status: string }> }>;
  };
  const fast = results.testResults
    .filter((file) =>
      file.name.includes(`${path.sep}tests${path.sep}reliability${path.sep}fast${path.sep}`),
    )
    .map((file) => ({
      file: path.relative(REPO_ROOT, file.name),
      passed: file.assertionResults.filter((a) => a.status === "passed").length,
      failed: file.assertionResults.filter((a) => a.status !== "passed").length,
    }))
    .sort((a, b) => a.file.localeCompare(b.file));
  return fast.length > 0 ? fast : undefined;
}

/**
 * With `RELIABILITY_MERGE=1`, a run of some slow files only: the recorded run
 * (`figures.json`) is the base, each scenario in the figures folder replaces or adds
 * its own, and the recorded fast counts stay when no fast results are given. Each
 * scenario keeps the commit it was recorded on.
 */
const MERGE = process.env.RELIABILITY_MERGE === "1";

function recorded(): RecordedRun | undefined {
  if (!MERGE || !fs.existsSync(RESULTS_FILE)) return undefined;
  return JSON.parse(fs.readFileSync(RESULTS_FILE, "utf8")) as RecordedRun;
}

function collect(): RecordedRun {
  const files = fs.existsSync(FIGURES_DIR)
    ? fs.readdirSync(FIGURES_DIR).filter((f) => f.endsWith(".json"))
    : [];
  if (files.length === 0) {
    throw new Error(`no figures in ${FIGURES_DIR}: run npm run test:reliability first`);
  }
  const fresh = files.map(
    (f) => JSON.parse(fs.readFileSync(path.join(FIGURES_DIR, f), "utf8")) as ScenarioFigures,
  );
  const base = recorded();
  const kept = (base?.scenarios ?? []).filter((old) => !fresh.some((s) => s.id === old.id));
  const scenarios = [...kept, ...fresh].sort(
    (a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id),
  );
  const stamps = scenarios.map(
    (s) => s as ScenarioFigures & { recordedAt?: string; commit?: string },
  );
  const commits = [...new Set(stamps.map((s) => s.commit ?? "unknown"))];
  return {
    // When the last scenario of the run finished, and the commit(s) the run tested.
    recordedAt:
      stamps
        .map((s) => s.recordedAt ?? "")
        .sort()
        .at(-1) ?? "unknown",
    commit: commits.join(", "),
    node: process.version,
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    scenarios,
    fast: fastCounts() ?? base?.fast,
  };
}

/** The figures of the interrupted runs, one line each, or a line saying none were recorded. */
function interruptedRuns(run: RecordedRun): string {
  const lines = run.scenarios
    .filter((s) => s.id.startsWith("interrupted-up-"))
    .map((s) => {
      const n = (note: string) => s.notes?.[note] ?? "—";
      return `| ${s.id.endsWith("sigint") ? "two SIGINTs" : "SIGKILL of the CLI"} | ${s.operations} | ${n("recorded in state when interrupted")} | ${n("pending operations left")} | ${n("objects made and not recorded")} | ${n("recorded by refresh --import-pending-creates given the true uids")} | ${n("recorded by irm-pending")} | ${n("dropped by irm-pending (never made)")} | ${n("creates the resumed up sent")} | ${s.duplicates} | ${n("objects not in state after recovery")} | ${n("pending operations after recovery")} | ${n("provider hosts still running 15 s after")} |`;
    });
  if (lines.length === 0) return "(no interrupted run was recorded in this run)\n";
  return `| interrupted by | declared | in state | pending creates | made, not recorded | recorded by \`refresh --import-pending-creates\` | recorded by \`irm-pending\` | dropped | creates of the next \`up\` | duplicates | untracked after | pending after | provider hosts left |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join("\n")}
`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function byStatusText(byStatus: Record<string, number> | undefined): string {
  if (!byStatus) return "";
  return Object.entries(byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${count} × ${status}`)
    .join(", ");
}

/**
 * What changed with the move to the real engine, in words around the figures: which
 * step counts differ, what a run that changes nothing costs, where request counts move.
 */
function engineChanges(real: ScenarioFigures[], baseline: RecordedRun): string {
  const differing = real.filter((s) => {
    const before = baseline.scenarios.find((b) => b.id === s.id);
    return before !== undefined && before.operations !== s.operations;
  });
  const steps =
    differing.length === 0
      ? "Steps: the same in every scenario. Both engines report one step per resource and run, and the runs, resources and operations are the same; the real engine's steps come from its own events."
      : `Steps differ in ${differing.map((s) => `"${s.title}"`).join(", ")}; every other scenario has the same steps on both engines.`;
  const deploy = real.find((s) => s.id === "deploy-under-503s");
  const noop = deploy?.notes?.["up (no change)"];
  const noopTime = typeof noop === "string" ? /([\d.]+ s)$/.exec(noop)?.[1] : undefined;
  const noopRequests = typeof noop === "string" ? /(\d+) requests/.exec(noop)?.[1] : undefined;
  const noopText =
    noopTime && noopRequests
      ? ` A run that changes nothing pays it too: the deployment scenario's no-op \`up\` of the ${deploy?.title.match(/\d+-resource/)?.[0] ?? ""} organisation took ${noopTime} for ${noopRequests} requests.`
      : "";
  const sigkillBefore = baseline.scenarios.find((s) => s.id === "restart-sigkill")?.notes?.[
    "steps the converging up took"
  ];
  const sigkillNow = real.find((s) => s.id === "restart-sigkill")?.notes?.[
    "steps the converging up took"
  ];
  const sigkill =
    sigkillBefore !== undefined && sigkillNow !== undefined && sigkillBefore !== sigkillNow
      ? ` The SIGKILL row's "steps the converging up took" went from ${sigkillBefore} to ${sigkillNow}: that is the emulator's \`--data\` journal (a write is answered once it is on disk), not the engine.`
      : "";
  return `${steps}

Time: the real engine runs each \`up\`, \`refresh\` and \`destroy\` as users do: it starts the CLI, the Node.js language host with the program (TypeScript, transpiled) and the dynamic-provider host, registers every resource with the engine and sends it through check, diff and the provider over gRPC, and writes checkpoints to the file backend. The small engine also ran the program and a provider host in child processes, but kept the engine's part (steps, state, dependencies) in the test's own process, with no CLI and no checkpoints; the same requests now take longer.${noopText} Times are for the record (the machine is shared with other work), never asserted.

Requests: the provider sends the same calls on either engine (create, a look-up after a lost answer, an update with a mask, reads, deletes). The counts move with the randomness of the injected faults, and with provider changes made since the small engine's run: when the real-engine figures here were recorded, a role binding read its role (\`GET roles/<uid>\`) to record a built-in role's name, and bindings created at the same time each sent the read until the first answer was in, so a deployment made a few more reads than it had roles; under the rate limit every one of those reads could be refused and repeated, which is most of that row's growth. A binding now takes the name from its own answer and sends no such read. A binding's state no longer holds hydrated copies of identity, group and role (so updates leave no binding stale for a refresh to fix).${sigkill}`;
}

/** A note of one scenario, as a number (0 when absent). */
function noteNumber(run: RecordedRun, id: string, note: string): number {
  const value = run.scenarios.find((s) => s.id === id)?.notes?.[note];
  return typeof value === "number" ? value : 0;
}

/**
 * A black-box review's third round: each class of defect fixed at its root, with the
 * test that failed before the fix.
 */
const ROUND_THREE_FINDINGS: Finding[] = [
  {
    text: "A group invite's lost create deleted every alike invite (same role, lifetime, email, single use) made up to five minutes before the attempt: another stack's, or a sibling's in the same program. Only one alike invite made since the create was sent (service clock) and held by no other resource of the provider process is deleted now; two or more, an alike create of the program still under way, or no `Date` header: the create fails naming them, deleting nothing. No lost create of any resource takes a sibling resource's object",
    test: "fast/lost-create-ownership.test.ts",
  },
  {
    text: "The exporter wrote API text into code: a name with `*/` became a statement of `index.ts` (doc comments unescaped), a group named `exports` a variable that broke the program at load time, a claim key `__proto__` was dropped, and an API URL with user and password reached `Pulumi.yaml` and the README. Programs generated from hostile names now compile, load without running any of the API's text, declare the API's exact values and type-check; the URL loses user, password, query and fragment",
    test: "tests/export/hostile-names.test.ts",
  },
  {
    text: "Page tokens carried their cursor readable, the last item's sort key included (a role binding's hidden identity, ordered by name). The cursor is sealed with AES-256-GCM under a per-emulator key: a token reveals nothing and any change to it is refused",
    test: "tests/emulator/page-tokens.test.ts",
  },
  {
    text: "A claim condition or map entry keyed `__proto__`, `constructor` or `prototype` was answered 200 and silently dropped, loosening what the exchange accepts. The emulator and the provider's `check` refuse such keys in every map (claims, claimPatterns, clientIds, appInstallations, serviceBindings) naming field and key; the exchange reads only own claims; the SDK keeps such keys an answer carries",
    test: "fast/magic-keys.test.ts",
  },
  {
    text: "An account association's `serviceBindings` naming an identity of a group the caller cannot read answered differently from a missing uid there (an existence oracle). Where the uid points is judged first, on the uid alone; an invite's `roleUid` and a provider's `defaultRole` naming another group's custom role answer as a missing role",
    test: "fast/binding-disclosure.test.ts",
  },
  {
    text: "Unbounded work: `\\pL{1000}` passed the length bound yet compiles to over a million units; many such patterns stalled the emulator; the exchange read an issuer's discovery document without limit; deeply nested `claims` to the test issuer answered 500. Patterns are now bounded by compiled size (10,000 units) in the emulator, the provider and the policy pack (which probes each once), claim maps by count (32), discovery documents and key sets by size (64 KiB, 256 KiB), the test issuer's claims by depth (16) and size (16 KiB), each with an error naming the bound",
    test: "fast/bounded-work.test.ts",
  },
  {
    text: "Policies judged patterns by spelling: an issuer pattern leaving the host open (`...githubusercontent\\.com.*`), an allowed issuer written as a pattern or as `staticKeys.issuer`, a GitHub subject pattern admitting every repository all passed. Issuer patterns are judged by the values their compiled program accepts; subject patterns by adversarial subjects derived from them",
    test: "tests/policy/pattern-walkarounds.test.ts",
  },
  {
    text: "The emulator's test controls, which mint owner tokens, answered any `Host` (DNS rebinding from a browser), any `Origin`, and any peer on `--host 0.0.0.0`. They now answer an IP or `localhost` Host, no or a loopback Origin, and loopback peers; `--open-controls` lifts the Host and peer rules (an emulator in a container driven by its service name, `Host: emulator:8787`), never the Origin rule, and a refusal it would lift names the flag",
    test: "tests/emulator/control-guard.test.ts",
  },
  {
    text: "An identity-provider update that left the default role alone still needed `CAP_IAM_ROLE_BINDINGS_CREATE`. An update whose paths hold `default_role` (or `*`, even restated) needs what the create needs, binding create and every capability of the role on the provider's group, refused naming the first missing one; any other update needs only `CAP_IAM_IDENTITY_PROVIDERS_UPDATE`",
    test: "fast/escalation-grants.test.ts",
  },
  {
    text: "An `http://` API or auth URL to a host other than loopback sent tokens in clear. The SDK refuses it unless `IRM_ALLOW_INSECURE_HTTP=1` (option `allowInsecureHttp`; the provider's `irm:allowInsecureHttp`)",
    test: "tests/sdk/settings.test.ts",
  },
  {
    text: "Client secrets and invite codes were kept as bare SHA-256 digests (a common secret could be looked up, two equal secrets compared). They are salted now; a bare digest of older data stays readable",
    test: "tests/emulator/actions-data-filters.test.ts",
  },
];

/** What the fourth round tried that held before it. */
const HELD_TEXT =
  "held as before: gRPC authentication, methods not offered, v1 list scoping, page tokens, SETTINGS and PING floods, request smuggling, Host, Origin and X-Forwarded-For tricks on the controls, the SDK's plain-http and redirect rules";

/** The fourth review round: the shared port, files outside their folders, an ordering oracle. */
const ROUND_FOUR_FINDINGS: Finding[] = [
  {
    text: "A gRPC message announced at 100 MiB by its length prefix was read to its end before it was refused (48 MiB arrived with no status and no reset). The prefix is checked as soon as its 5 bytes are in: past 1 MiB the call is answered `RESOURCE_EXHAUSTED` at once (Trailers-Only), then `RST_STREAM` `NO_ERROR`, before 2 MiB are written",
    test: "tests/emulator/front-limits.test.ts",
  },
  {
    text: "One HTTP/2 connection held thousands of open calls: no stream limit was advertised, and none was reset. The emulator advertises `SETTINGS_MAX_CONCURRENT_STREAMS` 100 and refuses streams past it (`RST_STREAM` `REFUSED_STREAM`, or `GOAWAY` past what the client acknowledged); a session's buffered data stays bounded (10 MiB)",
    test: "tests/emulator/front-limits.test.ts",
  },
  {
    text: "A slow HTTP/1.1 head was never closed: a socket that was not HTTP/2 went to an HTTP server that applies its header and request timeouts only to sockets it accepts itself, so a head dribbled a line every 5 s was open at 110 s. The front now times every socket, whichever face it ends in: a whole head (or the HTTP/2 preface) within 10 s of the connection or of the last answer (else `408` and close), a whole request within 60 s of its head (else close, or `RST_STREAM` `CANCEL` over HTTP/2)",
    test: "tests/emulator/front-limits.test.ts",
  },
  {
    text: "Request bodies past the 1 MiB limit were drained to their end before the answer: a 100 MiB upload was read whole. At most 4 MiB more is now drained (so a client still sending reads the answer); a longer body, or one whose `Content-Length` announces more, is answered at once and read no further (HTTP/1.1: the connection closes a second after the answer; HTTP/2: flow control holds the client)",
    test: "tests/emulator/front-limits.test.ts",
  },
  {
    text: "Ordering role bindings by name sorted a binding whose identity the caller cannot read (its name blanked in the answer) by that identity's real name, among the caller's own bindings: with probe identities of chosen names, a hidden name was recovered by bisection, over HTTP and gRPC. A list is now ordered by the names the caller sees (blank sorts as blank), page by page and through the collection's shared order index, which no longer answers an order that depends on the reader",
    test: "fast/ordering-oracle.test.ts",
  },
  {
    text: "The `--data` journal followed symbolic links: a journal path linked to another file had that file truncated at start and records appended to it. The snapshot and the journal are opened with `O_NOFOLLOW` and only as regular files (the journal, appended to and truncated, only with one name, no hard link): a link refuses the start, naming the file, and the other file is left alone. The snapshot and the bootstrap file are replaced through a new file renamed over the name (a link there is replaced, not written through)",
    test: "tests/emulator/data-links.test.ts",
  },
  {
    text: "`irm-export --force` wrote each file to a fixed temporary name in `--out` with a plain write, which follows a link planted there: files outside `--out` were overwritten with the generated project. Each file is now created exclusively (`wx`) under a name with a random part, then renamed over its target; a link at a generated file's name is replaced, never written through",
    test: "tests/export/write-links.test.ts",
  },
  {
    text: "The real-engine tests' code cache wrote each entry to `<key>.<pid>` with a plain write: links planted at the next few hundred process ids had the file they pointed to overwritten. Entries are created exclusively under an unguessable name and renamed over the key, read with `O_NOFOLLOW`, in a folder made 0700",
    test: "tests/harness/compile-cache.test.ts",
  },
  {
    text: "Loopback, decided: the SDK and the control guard took every `*.localhost` name for loopback, though a resolver may send it to DNS. One rule now serves the SDK's plain-`http` check, the provider's issuer check and the emulator's guard (`sdk/core/loopback.ts`): 127.0.0.0/8, `::1`, `::ffff:127.x.y.z`, or `localhost` itself",
    test: "tests/sdk/settings.test.ts, tests/emulator/control-guard.test.ts",
  },
  {
    text: "Over h2c the control guard read the `host` header (absent from most HTTP/2 requests, or free to differ) rather than `:authority`. It reads `:authority` now and refuses a request whose `host` names another authority",
    test: "tests/emulator/control-guard.test.ts",
  },
  {
    text: "`POST /oidc/token` minted, for any caller, tokens the built-in `platform-user` identity accepts (viewer on the root after an exchange): any `Host`, any web page, and the network on `--host 0.0.0.0`. It now answers the callers the test controls answer (an IP or `localhost` `Host` or `:authority`, no or a loopback `Origin`, a loopback peer; `--open-controls` lifts the Host and peer rules)",
    test: "tests/emulator/control-guard.test.ts",
  },
];

/** Known limits that hold only while the recorded run shows them. */
function dataDependentLimits(run: RecordedRun): string {
  const limits: string[] = [];
  const stale = noteNumber(
    run,
    "deploy-under-503s",
    "bindings with stale hydrated copies after the update",
  );
  if (stale > 0) {
    limits.push(`- Role bindings record hydrated copies of their identity, group and role. When an update
  changes an identity's or a group's name or description, the bindings' copies stay as
  they were until the next \`pulumi refresh\` (the deployment scenario measures exactly
  this: ${stale} bindings refreshed after the updates).`);
  }
  const undone = noteNumber(run, "restart-sigkill", "steps the converging up took");
  if (undone > 0) {
    limits.push(`- A crash (SIGKILL) of the emulator with \`--data\` undid acknowledged writes in the recorded
  run: the converging \`up\` after it had ${undone} steps to redo, and the interrupted run
  did not notice. The file is never corrupt, \`refresh\` then \`up\` repair the stack, and a
  clean stop (SIGTERM/SIGINT) loses nothing.`);
  }
  return limits.map((l) => `${l}\n`).join("");
}

function loadBaseline(): RecordedRun | undefined {
  if (!fs.existsSync(SMALL_ENGINE_RESULTS)) return undefined;
  return JSON.parse(fs.readFileSync(SMALL_ENGINE_RESULTS, "utf8")) as RecordedRun;
}

/** Short engine name for the table: `real` with the CLI version, `small`, or `—` (SDK only). */
function engineCell(engine: string | undefined): string {
  if (engine === undefined) return "— (SDK)";
  const version = /CLI (v\S+)/.exec(engine)?.[1];
  return engine.startsWith("real") ? `real${version ? ` ${version}` : ""}` : "small";
}

const ratio = (after: number, before: number) =>
  before > 0 ? ` (×${(after / before).toFixed(1)})` : "";

/**
 * The deployment scenarios on the real engine against the same scenarios' figures of
 * the last run on the small engine: steps, requests and time, side by side.
 */
function comparison(run: RecordedRun, baseline: RecordedRun | undefined): string {
  const real = run.scenarios.filter((s) => s.engine?.startsWith("real"));
  if (real.length === 0) {
    return "No deployment scenario of this run ran on the real Pulumi engine (no CLI was found).";
  }
  const engine = real[0].engine ?? "";
  const intro = `The deployment scenarios ran on the ${engine} (built by \`npm run pulumi:install\`, driven through the Automation API with a file backend, the package installed from its packed tarball), no longer on the small in-repo engine.`;
  if (!baseline) return `${intro} No small-engine run was kept to compare with.`;
  const rows = real.map((s) => {
    const before = baseline.scenarios.find((b) => b.id === s.id);
    if (!before) {
      return `| ${s.title} | new: ${s.operations} | new: ${s.requests ?? "—"} | new: ${seconds(s.durationMs)} |`;
    }
    const requests =
      before.requests !== undefined && s.requests !== undefined
        ? `${before.requests} → ${s.requests}`
        : `${before.requests ?? "—"} → ${s.requests ?? "—"}`;
    return `| ${s.title} | ${before.operations} → ${s.operations} | ${requests} | ${seconds(before.durationMs)} → ${seconds(s.durationMs)}${ratio(s.durationMs, before.durationMs)} |`;
  });
  const compared = real.filter((s) => baseline.scenarios.some((b) => b.id === s.id));
  const total = (list: ScenarioFigures[]) => list.reduce((sum, s) => sum + s.durationMs, 0);
  const beforeTotal = total(
    compared.map((s) => baseline.scenarios.find((b) => b.id === s.id) as ScenarioFigures),
  );
  return `${intro} Against the small engine's figures of the previous recorded run (finished ${baseline.recordedAt}, commit \`${baseline.commit}\`, ${baseline.machine}):

| scenario | engine steps (small → real) | requests (small → real) | time (small → real) |
| --- | --- | --- | --- |
${rows.join("\n")}

Together the ${compared.length} scenarios that ran on both took ${seconds(beforeTotal)} on the small engine and ${seconds(total(compared))} on the real one${ratio(total(compared), beforeTotal)}.

${engineChanges(real, baseline)}`;
}

function render(run: RecordedRun, baseline: RecordedRun | undefined): string {
  const rows = run.scenarios.map(
    (s) =>
      `| ${s.title} | ${engineCell(s.engine)} | ${s.injected} | ${s.operations} | ${s.requests ?? "—"}${s.byStatus ? ` (${byStatusText(s.byStatus)})` : ""} | ${s.lost} | ${s.duplicates} | ${seconds(s.durationMs)} |`,
  );
  const notes = run.scenarios
    .filter((s) => s.notes && Object.keys(s.notes).length > 0)
    .map(
      (s) =>
        `- **${s.title}**: ${Object.entries(s.notes ?? {})
          .map(([k, v]) => `${k}: ${v}`)
          .join("; ")}.`,
    );
  const fast = run.fast
    ? run.fast.map((f) => `| \`${f.file}\` | ${f.passed} | ${f.failed} |`).join("\n")
    : "| (no fast results were found when the document was rendered) | | |";

  return `# Reliability and security

What the reliability suite proves: under injected faults, load, bad input and hostile
tokens the package keeps working, loses nothing and leaks nothing. Every figure below
comes from a recorded run (see "The recorded run"); nothing here is typed in by hand.
This file is generated by \`tests/reliability/render-doc.ts\`: edit that script, not this
file.

## Running it

| half | where | runs with | what |
| --- | --- | --- | --- |
| fast | \`tests/reliability/fast/\` | \`npm test\` (every run) | bad input to every resource, lookup and HTTP route; tokens; access control; secrets; the IAM additions |
| slow | \`tests/reliability/slow/\` | \`npm run test:reliability\` (config \`vitest.reliability.config.ts\`); CI runs it after \`npm test\` | whole deployments under faults, rate limits, token expiry, emulator restarts, concurrent load |

To refresh the figures: \`npm run test:reliability\`, then \`npx vitest run tests/reliability/fast\`,
then \`node --import tsx tests/reliability/render-doc.ts\` (it also rewrites
\`tests/reliability/results/figures.json\`). Where other runs share the work tree and may
overwrite \`.vitest-results.json\`, give the fast half its own file
(\`--outputFile.json=FILE\`) and render with \`RELIABILITY_FAST_RESULTS=FILE\`. After running
some slow files only, render with \`RELIABILITY_MERGE=1\`: the recorded run's other
scenarios (and its fast counts, when none are given) stay, each with its commit. Loads go to
loopback only, and every loop is bounded in count and time.

The deployment scenarios deploy through \`createEngineStack\` (\`tests/support/engine-stack.ts\`):
the real Pulumi engine wherever the suite's global setup finds the CLI
(\`npm run pulumi:install\` builds it; \`PULUMI_CLI_DIR\`, the install cache or \`PATH\`), with the
package packed and installed once per run; on a machine without the CLI they are
skipped. The "engine" column says where each row ran.

## The recorded run

Slow suite finished ${run.recordedAt}, testing commit \`${run.commit}\`, Node ${run.node}, on ${run.machine}
(the machine is shared: durations are for the record, never asserted). A \`+changes\`
suffix means tracked files differed from that commit while the suite ran.

### Fault scenarios (slow half)

| scenario | engine | injected | operations | requests (by outcome) | lost | duplicates | time |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

"Operations" are engine steps (create, update, same, delete, refresh reads) for the
deployment scenarios and API calls for the SDK and load scenarios. "Lost" counts objects
the client was told exist (or state records) that the service does not hold, or
acknowledged updates the service does not show; "duplicates" counts declared objects
the service holds more than once. Both are asserted to be zero, and state is compared
with the service field by field after each phase.

${notes.join("\n")}

### Interrupted runs

What is guaranteed when a \`pulumi up\` is stopped between a create reaching the service
and state recording it (a second Ctrl-C, or a CI runner's cancel, which kills the CLI),
followed by the recovery of [\`troubleshooting.md\`](troubleshooting.md#an-interrupted-run)
(\`pulumi cancel\` after a kill, \`pulumi stack export\`, \`irm-pending --out\`,
\`pulumi stack import\`, \`pulumi up\`), run non-interactively on the real engine
(\`slow/interrupted-up.test.ts\`): every object the interrupted run made is recorded once,
the next \`up\` creates only what never started, the service holds no object twice and
none the stack does not know, no pending operation is left, and
\`pulumi preview --expect-no-changes\` then passes. After the kill, the dynamic-provider
hosts the CLI started exit by themselves within about 4 s. \`irm-pending\` records an
object only when it equals every input the create sent and nothing else holds it;
anything else stops the repair, naming the candidates (\`tests/export/pending.test.ts\`).
The route Pulumi offers, \`pulumi refresh --import-pending-creates\` given each pending
create's true uid, records none of them on Pulumi 3.248 (it relabels the operations
\`importing\`, and no step reads them); the table counts it on the same stacks.

${interruptedRuns(run)}
### The real engine against the small engine

${comparison(run, baseline)}

### Fast checks (run by \`npm test\`)

| file | passed | failed |
| --- | --- | --- |
${fast}

## What each scenario does

- **Faults** (\`slow/deploy-under-faults.test.ts\`): the fixture program
  (\`tests/reliability/fixtures/big-org\`, 5 resources per team, with role lookups, the
  team count from stack config) is deployed with \`pulumi up\` on the real engine from an
  installed copy of the package, while the emulator answers 503 to a random fifth of API requests and
  delays another twentieth by 750 ms. Then the same program again (no write attempted),
  a change of every description (120 updates in place), a refresh and a destroy, each
  under the same faults. After every phase: each object exactly once, state (\`pulumi
  stack export\`) equal to the service field by field.
- **Dropped connections** (\`slow/dropped-connections.test.ts\`): 30% of creates and
  updates are handled and then the connection is closed without an answer. The provider
  looks the object up before creating again; updates are repeated. No object twice.
- **A create that outlasts the client timeout** (\`slow/timed-out-create.test.ts\`): one
  group (\`tests/reliability/fixtures/one-group\`) created by \`pulumi up\` while the
  emulator holds the create 2.5 s against a 1 s client timeout: the provider keeps looking
  the group up until the first create lands, and sends no second one.
- **The shipped example** (\`slow/example-under-faults.test.ts\`): \`examples/org-hierarchy\`,
  unmodified, from an installed copy of the package, on the real engine, deployed under 503s and dropped
  create answers, then destroyed under 503s.
- **429 with Retry-After** (\`slow/rate-limit.test.ts\`): a burst of 60 concurrent creates
  from one SDK client against a limit of 10 requests/s; every retry waited exactly the
  \`Retry-After\` (from the SDK's retry events), every create happened once (SDK only).
  Then a whole deployment with \`pulumi up\` under 5 requests/s.
- **Token expiry** (\`slow/token-expiry.test.ts\`): a workload identity deploys by token
  exchange; the emulator clock jumps 2 h (API tokens live 1 h) twice mid-run. Each jump
  costs one exchange, however many requests in flight were refused with the expired
  token (one, or a few when several steps were running), and every refused request is
  repeated with the new token and succeeds.
- **Restart with \`--data\`** (\`slow/emulator-restart.test.ts\`): the emulator CLI is
  stopped with SIGTERM mid-deployment and restarted on the same port and data file: the
  run completes, nothing is lost. Then it is killed with SIGKILL mid-update: the state
  file is whole, and \`pulumi refresh\` then \`pulumi up\` converge (a preview then
  expects no changes).
- **Interrupted runs** (\`slow/interrupted-up.test.ts\`): the fixture program with 4 teams
  (20 resources: groups, identities, role bindings) by \`pulumi up\` on the real engine,
  each create held 2 s by the emulator. Once the team groups are recorded, the CLI gets
  two SIGINTs, or a SIGKILL (only the CLI's own process, as a runner's cancel may); the
  creates in flight then land on the service with no one to record them. The recovery
  as documented, then the next \`up\`: state against the service field by field, each
  object once, no pending operation, \`preview --expect-no-changes\`; and the provider
  hosts the CLI started gone.
- **Concurrent load** (\`slow/concurrent-load.test.ts\`): 50 clients, one identity and one
  connection pool each, create, update and delete groups and identities in one tree,
  picking targets at random (seeded) so that they race. The service ends with exactly
  the acknowledged objects, no orphan, every update reflected, and \`totalCount\` agreeing
  with the listing for the tree and for every parent.
- **Bad input** (\`fast/bad-input-provider.test.ts\`, \`fast/bad-input-sdk.test.ts\`,
  \`fast/bad-input-http.test.ts\`): every
  input of \`Group\`, \`Identity\`, \`RoleBinding\` and every argument of \`getRole\`,
  \`getRoles\`, \`getGroup\`, \`getRepo\`, \`getRepos\` with wrong types, empty and 100,000
  character strings, names outside the pattern (unicode look-alikes, controls, emoji),
  malformed and traversing uids: a failure naming the field, no request written, no blob
  echoed. Through the engine too. At the HTTP level, every route with malformed, non-object,
  deeply nested, 2 MiB and non-UTF-8 bodies, wrong content types, odd query parameters,
  traversal uids, unknown methods and non-HTTP bytes: always an AIP-193 error, never a 500.
  In the SDK, uids that would leave their collection (\`..\`, empty segments) are refused
  before any request, odd ones stay inside the collection's path, and wrong list
  parameters come back as \`INVALID_ARGUMENT\` naming the parameter.
- **Tokens** (\`fast/tokens.test.ts\`): tokens forged with the emulator's own signing key
  (read from its \`--data\` file) so that each check is tested alone: \`alg: none\`,
  HS256 keyed with the public key, other algorithms and keys under the real \`kid\`, wrong
  or missing audience and issuer, expired, not yet valid, no \`exp\`, no subject, unknown
  \`kid\` or critical header, altered claims, an OIDC token as an API token; OIDC tokens
  for the exchange (replayed for another identity, forged, expired, unreachable issuer).
  The SDK follows no redirect (301–308) to another host, keeps page tokens and uids that
  look like URLs on the configured host, and sends the OIDC token only to the auth URL.
- **Access control** (\`fast/access-control.test.ts\`): viewer, editor, owner and a custom
  role bound in group A cannot read or change sibling group B through any verb or
  collection, v1 or the registry; escalation by binding oneself a stronger role, editing
  one's binding, or adding capabilities to one's own custom role is refused.
- **The IAM additions** (\`fast/secrets-client-secret-invite-code.test.ts\`, \`fast/escalation-grants.test.ts\`,
  \`fast/exchange-identity-kinds.test.ts\`, \`fast/hostile-server-decoders.test.ts\`,
  \`fast/bad-input-kinds.test.ts\`): identity providers, group invites, account
  associations, identity kinds and custom roles. Secrets: client secrets (long, short,
  and holding characters JSON escapes) and invite codes through the emulator's log and
  \`--data\` files, servers echoing them in JSON, HTML and garbled answers, the SDK's
  printouts and the real provider host. Escalation: a caller holding every write on the
  new collections, but not all of owner, tries each way of handing out more. Exchange:
  fake issuers on loopback that count their requests, keys of every curve. Hostile
  servers: one field wrong at a time in each new answer. Bad input: every input of every
  new resource, with the emulator's request log checked after each case.
- **Secrets** (\`fast/secrets.test.ts\`): a sentinel token as the Pulumi secret
  \`irm:token\` or as \`IRM_TOKEN\`, with \`IRM_DEBUG=1\` and injected retries, through up,
  refresh and destroy: absent from state, serialized providers, program and provider-host
  output, and errors. SDK errors of every kind (also when a server echoes the token back)
  and a process's whole output never contain it.

## Findings

Bugs the suite found, each fixed in its own commit with the test that shows it:

${findingLines(FINDINGS)}

Security cases of the emulator's access model, each refused or answered as
shown, and fixed where it was not:

${findingLines(SECURITY_FINDINGS)}
${MORE_FINDINGS.length > 0 ? `\nMore findings:\n\n${findingLines(MORE_FINDINGS)}\n` : ""}
The IAM additions (identity providers, group invites, account associations, identity
kinds, custom roles): the first five were bugs, fixed with the test that shows them;
the rest held as shown:

${findingLines(IAM_EXTRAS_FINDINGS)}

A third review round, each class fixed at its root (every test failed before its fix):

${findingLines(ROUND_THREE_FINDINGS)}

A fourth review round (a black-box review of the gRPC face on the HTTP port, sealed page
tokens, the exporter and the emulator's data files): most attacks ${HELD_TEXT}. These
did not, each fixed as a class with a test that failed before its fix:

${findingLines(ROUND_FOUR_FINDINGS)}

Known limits, by design or left open:

${dataDependentLimits(run)}- A reference to an object that does not exist (\`roleUid\`, \`identityUid\`, \`parentUid\`
  of a well-formed uid) is refused by the service at create with \`Not found: <uid>\`: the
  uid is named, not the field.
`;
}

const run = collect();
const baseline = loadBaseline();
fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(run, null, 2)}\n`);
fs.writeFileSync(DOC_FILE, render(run, baseline));
// The project's formatter owns table padding: format what was written so lint stays clean.
execFileSync(
  process.execPath,
  [
    path.join(REPO_ROOT, "node_modules", "@biomejs", "biome", "bin", "biome"),
    "format",
    "--write",
    DOC_FILE,
    RESULTS_FILE,
  ],
  { cwd: REPO_ROOT, stdio: "ignore" },
);
process.stdout.write(
  `wrote ${path.relative(REPO_ROOT, DOC_FILE)} and ${path.relative(REPO_ROOT, RESULTS_FILE)}\n`,
);
