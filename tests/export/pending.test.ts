/**
 * `irm-pending`: judges the pending creates of an interrupted run, read from a hand-made
 * `pulumi stack export` document, against the objects in the emulator, and writes the
 * repaired export (`--out`) only when each one is settled without a guess: a namesake
 * with other inputs is never taken, several matches or a match another resource holds
 * are refused with the candidates named, and everything printed is shell-quoted and
 * free of control characters. The real interrupted runs are in
 * `tests/reliability/slow/interrupted-up.test.ts`.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { ensureBuilt, REPO_ROOT } from "../../harness/installed-package";
import { typeToken } from "../../provider/resource-class";
import { IrmClient } from "../../sdk/index";
import { fakeApi } from "../support/fake-api";
import {
  groupProvider,
  identityProvider,
  repoProvider,
  roleBindingProvider,
  subscriptionProvider,
} from "../support/provider-texts";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built command (`bin.irm-pending`), as a user runs it; `ensureBuilt` keeps it current. */
const PENDING_BIN = path.join(REPO_ROOT, "dist", "exporter", "pending.js");

function irmPending(args: string[], env: Record<string, string>, stdin: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [PENDING_BIN, ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

const TEXT: Record<string, string> = {
  Group: groupProvider,
  Identity: identityProvider,
  RoleBinding: roleBindingProvider,
  Repo: repoProvider,
  Subscription: subscriptionProvider,
};
const urn = (type: string, name: string) => `urn:pulumi:dev::org::${typeToken(type)}::${name}`;
const creating = (type: string, name: string, inputs: Record<string, unknown>) => ({
  resource: {
    urn: urn(type, name),
    custom: true,
    type: typeToken(type),
    inputs: { ...inputs, __provider: TEXT[type] },
    parent: "urn:pulumi:dev::org::pulumi:pulumi:Stack::org-dev",
  },
  type: "creating",
});
const exportOf = (operations: unknown[], resources: unknown[] = []) =>
  JSON.stringify({
    version: 3,
    deployment: { manifest: {}, resources, pending_operations: operations },
  });

/** Control characters other than the line ends the messages are made of. */
const hasRawControl = (text: string) =>
  [...text].some((c) => {
    const code = c.codePointAt(0) ?? 0;
    return (
      (code < 0x20 && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x2028 && code <= 0x202e)
    );
  });

const GITHUB = "https://token.actions.githubusercontent.com";

// Built by `npm test`; built again here only when a source is newer than dist/.
beforeAll(() => ensureBuilt(), 180_000);

describe("irm-pending", () => {
  let emulator: TestEmulator;
  let env: Record<string, string>;
  let dir: string;
  const made: Record<string, string> = {};
  let twins: string[];

  beforeAll(async () => {
    emulator = await startTestEmulator();
    env = { IRM_API_URL: emulator.url, IRM_TOKEN: emulator.token, IRM_MAX_RETRIES: "0" };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-pending-"));
    const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
    const root = emulator.rootGroupUid;
    // What an interrupted `up` made before state recorded it.
    made.team = (await client.iam.groups.create(root, { name: "team" })).uid;
    made.ci = (
      await client.iam.identities.create(made.team, {
        name: "team-ci",
        claimMatch: { issuer: emulator.issuer, subject: "team-ci" },
      })
    ).uid;
    made.viewer = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
    made.owner = (await client.iam.roles.list({ name: "owner" })).items[0].uid;
    made.binding = (
      await client.iam.roleBindings.create(made.team, {
        identityUid: made.ci,
        roleUid: made.viewer,
      })
    ).uid;
    // Another party's "deployer", bound to owner, with claims of its own.
    made.theirs = (
      await client.iam.identities.create(made.team, {
        name: "deployer",
        claimMatch: { issuer: emulator.issuer, subject: "their-pipeline" },
      })
    ).uid;
    await client.iam.roleBindings.create(made.team, {
      identityUid: made.theirs,
      roleUid: made.owner,
    });
    // The same group twice: no guess.
    twins = [
      (await client.iam.groups.create(root, { name: "twin" })).uid,
      (await client.iam.groups.create(root, { name: "twin" })).uid,
    ].sort();
    await client.close();
  });

  afterAll(async () => {
    await emulator?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const team = () =>
    creating("Group", "team", { parentUid: emulator.rootGroupUid, name: "team", description: "" });
  const teamCi = () =>
    creating("Identity", "team-ci", {
      parentUid: made.team,
      name: "team-ci",
      claimMatch: { issuer: emulator.issuer, subject: "team-ci" },
    });
  const binding = () =>
    creating("RoleBinding", "team-ci-viewer", {
      groupUid: made.team,
      identityUid: made.ci,
      roleUid: made.viewer,
    });
  const neverMade = () =>
    creating("Group", "never-made", {
      parentUid: emulator.rootGroupUid,
      name: "never-made",
      description: "",
    });
  const foreign = {
    resource: { urn: "urn:pulumi:dev::org::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket" },
    type: "creating",
  };
  const updating = () => ({ ...team(), type: "updating" });

  it("records each strict match and drops what never arrived; updates and deletes stay in the file", async () => {
    const out = path.join(dir, "repaired.json");
    const outcome = await irmPending(
      ["--out", out],
      env,
      exportOf([team(), teamCi(), binding(), neverMade(), updating()]),
    );
    expect(outcome.stderr).toContain(`record '${urn("Group", "team")}' as '${made.team}'`);
    expect(outcome.stderr).toContain(`record '${urn("Identity", "team-ci")}' as '${made.ci}'`);
    expect(outcome.stderr).toContain(
      `record '${urn("RoleBinding", "team-ci-viewer")}' as '${made.binding}'`,
    );
    expect(outcome.stderr).toContain(`drop '${urn("Group", "never-made")}': no object`);
    expect(outcome.stdout).toBe(`pulumi stack import --file '${out}'\n`);
    expect(outcome.code).toBe(0);
    const repaired = JSON.parse(fs.readFileSync(out, "utf8"));
    expect(repaired.deployment.pending_operations).toEqual([updating()]);
    expect(outcome.stderr).toContain("1 other pending operation(s) (updates, deletes)");
    const byUrn = new Map(
      repaired.deployment.resources.map((r: { urn: string }) => [r.urn, r] as const),
    );
    const group = byUrn.get(urn("Group", "team")) as Record<string, Record<string, unknown>>;
    expect(group.id).toBe(made.team);
    expect(group.parent).toBe("urn:pulumi:dev::org::pulumi:pulumi:Stack::org-dev");
    expect(group.outputs).toMatchObject({
      uid: made.team,
      parentUid: emulator.rootGroupUid,
      name: "team",
      __provider: groupProvider,
    });
    expect(group.inputs.__provider).toBe(groupProvider);
    const ci = byUrn.get(urn("Identity", "team-ci")) as Record<string, Record<string, unknown>>;
    expect(ci.outputs).toMatchObject({ uid: made.ci, claimMatch: { subject: "team-ci" } });
    const bound = byUrn.get(urn("RoleBinding", "team-ci-viewer")) as Record<string, unknown>;
    expect(bound.id).toBe(made.binding);
    expect(byUrn.has(urn("Group", "never-made"))).toBe(false);
    expect(outcome.stdout + outcome.stderr).not.toContain(emulator.token);
  });

  it("replaces a link at --out, never writes through it, and leaves no temporary file", async () => {
    const victim = path.join(dir, "victim.txt");
    fs.writeFileSync(victim, "keep me\n");
    const out = path.join(dir, "linked.json");
    fs.symlinkSync(victim, out);
    const outcome = await irmPending(["--out", out], env, exportOf([team()]));
    expect(outcome.code).toBe(0);
    expect(fs.readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(fs.lstatSync(out).isSymbolicLink()).toBe(false);
    expect((fs.statSync(out).mode & 0o777).toString(8)).toBe("600");
    expect(JSON.parse(fs.readFileSync(out, "utf8")).deployment.pending_operations).toEqual([]);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("never takes a namesake with other claims: names it, exits 1, writes nothing", async () => {
    const out = path.join(dir, "namesake.json");
    const ours = creating("Identity", "deployer", {
      parentUid: made.team,
      name: "deployer",
      claimMatch: { issuer: GITHUB, subject: "repo:acme/app:ref:refs/heads/main" },
    });
    const outcome = await irmPending(["--out", out], env, exportOf([team(), ours]));
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(fs.existsSync(out)).toBe(false);
    expect(outcome.stderr).toContain(
      `refused '${urn("Identity", "deployer")}': no object matches every input it sent; another party's namesake is never taken: '${made.theirs}' (differs in claimMatch.issuer, claimMatch.subject)`,
    );
    expect(outcome.stderr).toContain(`--drop '${urn("Identity", "deployer")}'`);
    expect(outcome.stderr).toContain("nothing was written");

    // Told that it never reached the service, the pending create is dropped.
    const dropped = await irmPending(
      ["--out", out, "--drop", urn("Identity", "deployer")],
      env,
      exportOf([ours]),
    );
    expect(dropped.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, "utf8")).deployment).toMatchObject({
      resources: [],
      pending_operations: [],
    });
  });

  it("refuses a stack with another package's pending create, which an import would drop", async () => {
    const out = path.join(dir, "foreign.json");
    const outcome = await irmPending(["--out", out], env, exportOf([team(), foreign]));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      `refused: pending creates of other packages ('${foreign.resource.urn}')`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  it("refuses several matches, a match held in state, a replacement, and a --drop of an exact match", async () => {
    const twin = creating("Group", "twin", {
      parentUid: emulator.rootGroupUid,
      name: "twin",
      description: "",
    });
    const several = await irmPending([], env, exportOf([twin]));
    expect(several.code).toBe(1);
    expect(several.stderr).toContain(
      `refused '${urn("Group", "twin")}': 2 objects match every input it sent: '${twins[0]}' (matches), '${twins[1]}' (matches)`,
    );

    const holder = { urn: urn("Group", "old-team"), type: typeToken("Group"), id: made.team };
    const held = await irmPending([], env, exportOf([team()], [holder]));
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(
      `its match is already held by another resource in state: '${made.team}' (held by '${holder.urn}')`,
    );

    const both = await irmPending(
      [],
      env,
      exportOf([
        team(),
        { ...team(), resource: { ...team().resource, urn: urn("Group", "team-again") } },
      ]),
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("matches another pending create as well");

    const old = { urn: urn("Group", "team"), type: typeToken("Group"), id: twins[0] };
    const replacing = await irmPending([], env, exportOf([team()], [old]));
    expect(replacing.code).toBe(1);
    expect(replacing.stderr).toContain(
      `a replacement was under way (its URN is in state already), which irm-pending does not repair: delete its new object '${made.team}'`,
    );

    const dropExact = await irmPending(["--drop", urn("Group", "team")], env, exportOf([team()]));
    expect(dropExact.code).toBe(1);
    expect(dropExact.stderr).toContain(
      `--drop refused: '${made.team}' matches every input it sent`,
    );
  });

  it("prints hostile text quoted and escaped, and refuses uids that are not uid-shaped", async () => {
    const marker = path.join(dir, "pwned");
    const hostile = `x$(touch ${marker});y\`touch ${marker}\`'\r\u001b]52;c;cHduZWQ=\u0007\u202e`;
    const operations = [
      { ...neverMade(), resource: { ...neverMade().resource, urn: urn("Group", hostile) } },
      creating("Group", "bad-parent", {
        parentUid: `$(touch ${marker});`,
        name: "bad-parent",
        description: "",
      }),
      creating("Group", "bad-adopt", {
        parentUid: emulator.rootGroupUid,
        name: "bad-adopt",
        adoptUid: `${emulator.rootGroupUid}/$(touch ${marker})`,
      }),
    ];
    const outcome = await irmPending([], env, exportOf(operations));
    expect(outcome.code).toBe(1);
    const printed = outcome.stdout + outcome.stderr;
    expect(hasRawControl(printed)).toBe(false);
    expect(printed).toContain("\\u{d}\\u{1b}]52;c;cHduZWQ=\\u{7}\\u{202e}");
    expect(outcome.stderr).toContain(
      `refused '${urn("Group", "bad-parent")}': its inputs in state fail the provider's checks (parentUid:`,
    );
    expect(outcome.stderr).toContain(
      `refused '${urn("Group", "bad-adopt")}': its inputs in state fail the provider's checks (adoptUid:`,
    );
    // Each quoted word, pasted into a shell, is the text itself: nothing runs.
    const word = /^irm-pending: drop ('(?:[^']|'\\'')*'):/m.exec(outcome.stderr)?.[1] ?? "";
    expect(word).not.toBe("");
    const echoed = execFileSync("sh", ["-c", `printf %s ${word}`], { encoding: "utf8" });
    expect(echoed).toBe(
      `${urn("Group", "x")}$(touch ${marker});y\`touch ${marker}\`'\\u{d}\\u{1b}]52;c;cHduZWQ=\\u{7}\\u{202e}`,
    );
    expect(fs.existsSync(marker)).toBe(false);

    // The shown form of the URN names it for --drop.
    const dropped = await irmPending(["--drop", echoed], env, exportOf([operations[0]]));
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain("dropped as asked");
  });

  it("refuses an answer whose uid is not uid-shaped, printing it escaped", async () => {
    const hostileUid = `${emulator.rootGroupUid}/$(reboot);\u001b[2J`;
    const api = await fakeApi((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          groups: [
            {
              uid: hostileUid,
              name: "team",
              description: "",
              createTime: "2026-01-01T00:00:00Z",
              updateTime: "2026-01-01T00:00:00Z",
            },
          ],
        }),
      );
    });
    const outcome = await irmPending(
      [],
      { ...env, IRM_API_URL: api.url, IRM_ALLOW_INSECURE_HTTP: "1" },
      exportOf([team()]),
    );
    await api.close();
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stderr).toContain("the service answered a uid that is not uid-shaped");
    expect(outcome.stdout).toBe("");
    expect(hasRawControl(outcome.stdout + outcome.stderr)).toBe(false);
    expect(outcome.stderr).not.toContain(`record `);
  });

  it("exits 2 on input that is not a stack export, or a --drop naming no pending create", async () => {
    const bad = await irmPending([], env, "{}");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("not `pulumi stack export` JSON");
    const unknown = await irmPending(["--drop", "urn:nothing"], env, exportOf([neverMade()]));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "--drop 'urn:nothing': no pending create of pulumi-irm has that URN",
    );
  });
});

describe("irm-pending and the registry's kinds", () => {
  let emulator: TestEmulator;
  let env: Record<string, string>;
  const made: Record<string, string> = {};
  const README = "# tools\n\nThe build toolchain.\n";
  const SINK = "https://hooks.acme.example/irm";

  beforeAll(async () => {
    emulator = await startTestEmulator();
    env = { IRM_API_URL: emulator.url, IRM_TOKEN: emulator.token, IRM_MAX_RETRIES: "0" };
    const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
    const root = emulator.rootGroupUid;
    try {
      // What an interrupted `up` made before state recorded it: a repo and its README.
      made.tools = (
        await client.registry.repos.create(root, {
          name: "tools",
          description: "Build tools",
          catalogTier: "CATALOG_TIER_DEVTOOLS",
          aliases: ["toolchain"],
        })
      ).uid;
      await client.registry.repos.updateReadme(made.tools, README);
      // Another party's "docs" repo, with a README of its own.
      made.docs = (await client.registry.repos.create(root, { name: "docs" })).uid;
      await client.registry.repos.updateReadme(made.docs, "# theirs\n");
      made.hook = (await client.events.subscriptions.create(root, { sink: SINK })).uid;
    } finally {
      await client.close();
    }
  });

  afterAll(async () => {
    await emulator?.close();
  });

  /** A repo's inputs as state holds them: `check` has filled in the defaults. */
  const repo = (name: string, inputs: Record<string, unknown>) =>
    creating("Repo", name, {
      parentUid: emulator.rootGroupUid,
      name,
      description: "",
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      aliases: [],
      readme: "",
      ...inputs,
    });

  it("records a repo equal to every input, its README included; never a namesake whose README differs", async () => {
    const tools = repo("tools", {
      description: "Build tools",
      catalogTier: "CATALOG_TIER_DEVTOOLS",
      aliases: ["toolchain"],
      readme: README,
    });
    const recorded = await irmPending([], env, exportOf([tools]));
    expect(recorded.stderr).toContain(`record '${urn("Repo", "tools")}' as '${made.tools}'`);
    expect(recorded.code).toBe(0);

    const docs = repo("docs", { readme: "# ours\n" });
    const refused = await irmPending([], env, exportOf([docs]));
    expect(refused.stderr).toContain(
      `refused '${urn("Repo", "docs")}': no object matches every input it sent; another party's namesake is never taken: '${made.docs}' (differs in readme)`,
    );
    expect(refused.code).toBe(1);
  });

  it("refuses a subscription's lost create, saying why it cannot be told apart; --drop settles it", async () => {
    // A subscription has no name and no creation time: the one in the service may be
    // another party's (or another run's) with the same sink, so nothing is guessed.
    for (const sink of [SINK, "https://never.acme.example/irm"]) {
      const hook = creating("Subscription", "hooks", { parentUid: emulator.rootGroupUid, sink });
      const outcome = await irmPending([], env, exportOf([hook]));
      expect(outcome.stderr).toContain(
        `refused '${urn("Subscription", "hooks")}': a Subscription cannot be told apart after a lost create (it has no name and no creation time, so one in the service may be another's with the same sink): delete the object it may have made, then if it never reached the service, run again with --drop '${urn("Subscription", "hooks")}'`,
      );
      expect(outcome.code).toBe(1);
    }
    const hook = creating("Subscription", "hooks", {
      parentUid: emulator.rootGroupUid,
      sink: SINK,
    });
    const dropped = await irmPending(
      ["--drop", urn("Subscription", "hooks")],
      env,
      exportOf([hook]),
    );
    expect(dropped.stderr).toContain(`drop '${urn("Subscription", "hooks")}': dropped as asked`);
    expect(dropped.code).toBe(0);
  });

  it("records a subscription adopted by uid: adoptUid names it", async () => {
    const hook = creating("Subscription", "hooks", {
      parentUid: emulator.rootGroupUid,
      sink: SINK,
      adoptUid: made.hook,
    });
    const outcome = await irmPending([], env, exportOf([hook]));
    expect(outcome.stderr).toContain(`record '${urn("Subscription", "hooks")}' as '${made.hook}'`);
    expect(outcome.code).toBe(0);
  });
});
