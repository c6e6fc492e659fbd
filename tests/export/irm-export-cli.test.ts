/**
 * The `irm-export` command: flags, exit codes, what it prints, and that it writes
 * nothing on failure and never shows the token. Runs the command as the package ships it
 * (its `irm-export` bin, `dist/exporter/cli.js`, built first when older than the sources)
 * as a child process against an in-process emulator.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { ensureBuilt, REPO_ROOT, scratchDir } from "../../harness/installed-package";
import { IrmClient } from "../../sdk/index";

/**
 * The package's `irm-export` bin. Built JavaScript, not the source under `tsx`: a
 * command starts in half the time without the transpiler, and this file starts it 13
 * times.
 */
const BIN = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).bin[
  "irm-export"
] as string;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function irmExport(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, BIN), ...args],
      {
        cwd: REPO_ROOT,
        // Only what the command needs: no IRM_* of the developer's shell leaks in.
        env: { PATH: process.env.PATH ?? "", ...env },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("irm-export command", () => {
  let emulator: TestEmulator;
  let env: Record<string, string>;
  let teamUid: string;
  let outsiderToken: string;
  let providerKey: string;
  /** The identity the emulator's token acts as (its `sub`). */
  let selfUid: string;
  const CLIENT_SECRET = "cli-test-client-secret";
  const scratch = scratchDir("export-cli");

  beforeAll(async () => {
    ensureBuilt();
    emulator = await startTestEmulator();
    env = { IRM_API_URL: emulator.url, IRM_TOKEN: emulator.token, IRM_MAX_RETRIES: "0" };
    const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
    const team = await client.iam.groups.create(emulator.rootGroupUid, { name: "team" });
    const other = await client.iam.groups.create(emulator.rootGroupUid, { name: "other" });
    teamUid = team.uid;
    selfUid = (await client.tokenSubject())!;
    // An identity that may only read `other`: it has no access to `team`.
    const outsider = await client.iam.identities.create(other.uid, {
      name: "outsider",
      claimMatch: { issuer: emulator.issuer, subject: "outsider" },
    });
    const viewer = (await client.iam.roles.list({ name: "viewer" })).items[0];
    await client.iam.roleBindings.create(other.uid, {
      identityUid: outsider.uid,
      roleUid: viewer.uid,
    });
    outsiderToken = await emulator.mintToken(outsider.uid);
    // An identity provider (its secret cannot be read) and an invite (skipped) in team.
    const provider = await client.iam.identityProviders.create(team.uid, {
      name: "team sso",
      defaultRole: viewer.uid,
      oidc: { issuer: "https://login.example", clientId: "team", clientSecret: CLIENT_SECRET },
    });
    providerKey = `clientSecret-${provider.uid.slice(-16)}`;
    await client.iam.groupInvites.create(team.uid, { roleUid: viewer.uid, ttl: 3600 });
    await client.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.mkdirSync(scratch, { recursive: true });
  });

  afterAll(async () => {
    await emulator?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const expectNoToken = (outcome: Outcome, token = emulator.token) => {
    expect(outcome.stdout).not.toContain(token);
    expect(outcome.stderr).not.toContain(token);
    expect(outcome.stdout).not.toContain(CLIENT_SECRET);
  };

  it("--dry-run prints the plan and progress, and writes nothing", async () => {
    const out = path.join(scratch, "dry");
    const outcome = await irmExport(["--dry-run", "--out", out], env);
    expect(outcome.stderr).toMatch(/^irm-export: groups: 2 of 2$/m);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(
      'Would write a Pulumi project for the organisation "example-org"',
    );
    expect(outcome.stdout).toMatch(/^ {2}index\.ts +\d+ lines$/m);
    expect(outcome.stdout).toContain(
      "declaring 2 groups, 0 custom roles, 2 identities, 1 identity provider, 0 external group role mappings, 0 account associations, 2 role bindings, 3 repos, 0 event subscriptions (each with adoptUid)",
    );
    // The identity the token acts as, and its owner binding on the root, are left out.
    expect(outcome.stdout).toContain(
      `not exported: identity "bootstrap-owner" (${selfUid}): left out: this export's token acts as it`,
    );
    expect(outcome.stdout).toMatch(
      /^not exported: role binding of "bootstrap-owner" to role "owner" \([0-9a-f/]+\): left out: /m,
    );
    expect(outcome.stdout).toContain("not exported: 1 group invite: skipped: an invite's code");
    expect(outcome.stdout).toContain(
      `client secret of identity provider team-sso (${teamUid}/${providerKey.slice(-16)}): pulumi config set --secret ${providerKey} <secret>`,
    );
    // Ten listings of one page, two to find the organisation, one for its association,
    // and one README per repo (the emulator's three sample repos).
    expect(outcome.stdout).toMatch(
      /requests: 16 \(listings groups 1\/1, roles 1\/1, identities 1\/1/,
    );
    expect(outcome.stdout).toContain("repos 1/1, subscriptions 1/1, groupInvites 1/1");
    expect(outcome.stdout).toContain(
      "plus 2 to find the group, 1 for its own account association and 3 for the repos' READMEs, one each",
    );
    expect(fs.existsSync(out)).toBe(false);
    expectNoToken(outcome);
  });

  it("writes the project into --out, without the token", async () => {
    const out = path.join(scratch, "written");
    const outcome = await irmExport(["--out", out, "--protect", "--retain"], env);
    expect(outcome.stderr).not.toContain("irm-export: error");
    expect(outcome.code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual([
      "Pulumi.yaml",
      "README.md",
      "index.ts",
      "package.json",
      "tsconfig.json",
      "tsconfig.pulumi.json",
    ]);
    const index = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    expect(index).toContain(
      "const options: pulumi.CustomResourceOptions = { protect: true, retainOnDelete: true };",
    );
    // 2 groups, 2 identities (outsider and the emulator's second), 1 identity provider,
    // 2 bindings, the emulator's 3 sample repos: not the identity the token acts as, nor
    // its binding.
    expect(index.match(/^ {2}options,$/gm)).toHaveLength(10);
    expect(index).not.toContain(`adoptUid: "${selfUid}"`);
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    expect(readme).toContain(`identity "bootstrap-owner" (${selfUid}): left out:`);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8"));
    const own = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(manifest.dependencies).toEqual({
      "@pulumi/pulumi": own.peerDependencies["@pulumi/pulumi"],
      "pulumi-irm": `^${own.version}`,
    });
    for (const file of fs.readdirSync(out)) {
      expect(fs.readFileSync(path.join(out, file), "utf8")).not.toContain(emulator.token);
    }
    // No temporary folder is left beside it.
    expect(fs.readdirSync(scratch).filter((f) => f.includes("irm-export"))).toEqual([]);
    expectNoToken(outcome);
  });

  it("--include-self declares the token's own identity and its bindings, protected", async () => {
    const out = path.join(scratch, "self");
    const outcome = await irmExport(["--out", out, "--include-self"], env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(
      "declaring 2 groups, 0 custom roles, 3 identities, 1 identity provider, 0 external group role mappings, 0 account associations, 3 role bindings",
    );
    expect(outcome.stdout).not.toContain("bootstrap-owner");
    const index = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    expect(index).toContain("const selfOptions: pulumi.CustomResourceOptions = { protect: true };");
    // Its identity and its one binding, and nothing else, are protected.
    const self = new RegExp(
      `new irm\\.Identity\\(\\n {2}"bootstrap-owner",\\n {2}\\{\\n(?: {4}[^\\n]*\\n)*? {4}adoptUid: "${selfUid}",\\n {2}\\},\\n {2}selfOptions,\\n\\);`,
    );
    expect(index).toMatch(self);
    expect(index.match(/^ {2}selfOptions,$/gm)).toHaveLength(2);
    expect(index.match(/^ {2}options,$/gm)).toBeNull();
    expectNoToken(outcome);
  });

  it("refuses a non-empty --out unless --force, which replaces only the generated files", async () => {
    const out = path.join(scratch, "existing");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "index.ts"), "// mine\n");
    fs.writeFileSync(path.join(out, "Pulumi.dev.yaml"), "config: {}\n");
    const refused = await irmExport(["--out", out], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--out: ${out} is not empty`);
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toBe("// mine\n");

    const forced = await irmExport(["--out", out, "--force", "--group", teamUid], env);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toContain(
      'new irm.Group("team", {',
    );
    expect(fs.readFileSync(path.join(out, "Pulumi.dev.yaml"), "utf8")).toBe("config: {}\n");
    expect(fs.readdirSync(out).filter((f) => f.includes("irm-export"))).toEqual([]);
  });

  it("--force writes no file outside --out through links planted in it", async () => {
    const out = path.join(scratch, "planted");
    const elsewhere = path.join(scratch, "planted-elsewhere");
    fs.mkdirSync(out, { recursive: true });
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.writeFileSync(path.join(out, "Pulumi.dev.yaml"), "config: {}\n");
    const generated = [
      "Pulumi.yaml",
      "package.json",
      "tsconfig.json",
      "tsconfig.pulumi.json",
      "README.md",
      "index.ts",
    ];
    for (const file of generated) {
      const victim = path.join(elsewhere, file);
      fs.writeFileSync(victim, "precious\n");
      // At the temporary names an earlier version wrote through, and at the names themselves.
      fs.symlinkSync(victim, path.join(out, `.${file}.irm-export-tmp`));
    }
    fs.symlinkSync(path.join(elsewhere, "index.ts"), path.join(out, "index.ts"));
    const forced = await irmExport(["--out", out, "--force", "--group", teamUid], env);
    expect(forced.code).toBe(0);
    for (const file of generated) {
      expect(fs.readFileSync(path.join(elsewhere, file), "utf8"), file).toBe("precious\n");
    }
    expect(fs.lstatSync(path.join(out, "index.ts")).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toContain(
      'new irm.Group("team", {',
    );
  });

  it("bad input: an unknown flag, a malformed or unknown --group, a missing --out (exit 2)", async () => {
    const unknownFlag = await irmExport(["--out", path.join(scratch, "x"), "--token", "abc"], env);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("Unknown option '--token'");
    expect(unknownFlag.stderr).not.toContain("abc");

    const malformed = await irmExport(["--dry-run", "--group", "platform"], env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("--group: must be a group uid (40 lowercase hex");
    expect(malformed.stderr).toContain('got "platform"');

    const unknown = `${emulator.rootGroupUid}/0123456789abcdef`;
    const missing = await irmExport(["--out", path.join(scratch, "y"), "--group", unknown], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--group: group ${unknown} does not exist (NOT_FOUND:`);
    expect(fs.existsSync(path.join(scratch, "y"))).toBe(false);

    const badUrl = await irmExport(["--dry-run", "--api-url", "not a url"], env);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--api-url is not a URL: "not a url"');

    const noOut = await irmExport([], env);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain("--out: is required");
  });

  it("no access to the group: names it and what the API said (exit 1), token unseen", async () => {
    const outcome = await irmExport(["--dry-run", "--group", teamUid], {
      ...env,
      IRM_TOKEN: outsiderToken,
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      `--group: this token has no access to group ${teamUid} (PERMISSION_DENIED:`,
    );
    expectNoToken(outcome, outsiderToken);
  });

  it("a rejected token: exit 1, the API's answer, the token never printed", async () => {
    const bad = `${emulator.token.slice(0, -4)}AAAA`;
    const outcome = await irmExport(["--dry-run"], { ...env, IRM_TOKEN: bad });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("UNAUTHENTICATED");
    expect(outcome.stderr).toContain("set IRM_TOKEN");
    expectNoToken(outcome, bad);
  });

  it("--token-file reads the token from a file instead of the environment", async () => {
    const file = path.join(scratch, "token");
    fs.writeFileSync(file, `${emulator.token}\n`, { mode: 0o600 });
    const { IRM_TOKEN: _, ...withoutToken } = env;
    const outcome = await irmExport(["--dry-run", "--token-file", file], withoutToken);
    expect(outcome.code).toBe(0);
    expectNoToken(outcome);
  });
});
