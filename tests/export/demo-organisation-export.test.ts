/**
 * irm-export on the demo organisation: the objects `examples/org-hierarchy` declares
 * (what `npm run demo` deploys), made through the SDK, plus custom roles, identity
 * providers, an identity of every kind, an account association and a group invite
 * (harness/orgs/demo-org.ts); exported, and the whole organisation's project and the
 * `platform` subtree's (a custom role looked up, claim patterns, a service principal,
 * the group's own account association) type-checked. The engine deploys the whole
 * organisation's: tests/engine/export-adoption.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExportResult, exportOrganisation } from "../../exporter/index";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { createConsumerProject, scratchDir } from "../../harness/installed-package";
import {
  createDemoOrganisation,
  DEMO_CLIENT_SECRET,
  type DemoUids,
} from "../../harness/orgs/demo-org";
import { biomeFormat, generateProject, typeCheckTogether } from "../support/export";
import { registerUnderMocks } from "../support/provider-program";

describe("irm-export on the demo organisation", { shuffle: false }, () => {
  let emulator: TestEmulator;
  let demo: DemoUids;
  /** The whole organisation's export and the platform subtree's, each written to a folder. */
  let exported: { result: ExportResult };
  let platform: { result: ExportResult };
  const exportedDir = scratchDir("export-demo-generated");
  const platformDir = scratchDir("export-demo-platform-generated");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    demo = await createDemoOrganisation(emulator);
    for (const dir of [exportedDir, platformDir]) fs.rmSync(dir, { recursive: true, force: true });
    exported = { result: await generateProject(emulator, exportedDir) };
    platform = {
      result: await generateProject(emulator, platformDir, { groupUid: demo.platform }),
    };
  }, 400_000);

  afterAll(async () => {
    await emulator?.close();
    for (const dir of [exportedDir, platformDir]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reads each collection in one page, and declares every object with readable references", async () => {
    const { result } = exported;
    // One page per collection, plus the two single-item listings that find the
    // organisation, the GET of its own account association (it has none) and one GET
    // per repo's README (the demo's repo and the emulator's three samples).
    expect(result.requests).toEqual({
      group: 2,
      accountAssociation: 1,
      groups: 1,
      identities: 1,
      roleBindings: 1,
      roles: 1,
      identityProviders: 1,
      externalGroupRoleMappings: 1,
      accountAssociations: 1,
      repos: 1,
      subscriptions: 1,
      groupInvites: 1,
      readme: 4,
    });
    // 4 groups; 3 CI identities, 4 of the addendum's kinds and the emulator's second
    // seeded one (not the one the token acts as); 6 + 1 + 1 + 1 seeded bindings (not the
    // token's own); deployer and sso user; two providers; one association.
    expect(result.counts).toEqual({
      groups: 4,
      identities: 8,
      roleBindings: 9,
      customRoles: 2,
      identityProviders: 2,
      externalGroupRoleMappings: 1,
      accountAssociations: 1,
      repos: 4,
      subscriptions: 2,
    });
    const index = result.files["index.ts"];
    expect(index).toContain('const platform = new irm.Group("platform", {');
    // The registry's kinds: a repo with its README, tier and aliases; a subscription.
    expect(index).toContain('new irm.Repo("build-tools", {\n  parentUid: engineering.uid,');
    expect(index).toContain(
      `  readme: '# build-tools\\n\\nPull it with \`docker pull "build-tools"\`.\\n',`,
    );
    expect(index).toContain('new irm.Repo("nginx", {\n  parentUid: rootGroupUid,');
    expect(index).toContain('new irm.Subscription("hooks-acme-example-events", {');
    expect(index).toContain("parentUid: engineering.uid,");
    expect(index).toContain('const editorRole = irm.getRoleOutput({ name: "editor" });');
    expect(index).toContain('new irm.RoleBinding("platform-ci-editor", {');
    expect(index).toContain("identityUid: platformCi.uid,");
    // Custom roles are declared and referred to by variable, from bindings and providers.
    expect(index).toContain('const deployer = new irm.Role("deployer", {');
    expect(index).toContain("roleUid: deployer.uid,");
    expect(index).toContain("defaultRole: ssoUser.uid,");
    // The provider's outside group mapping, referring to its provider by variable.
    expect(index).toContain(
      'new irm.ExternalGroupRoleMapping("acme-sso-engineering-staff-viewer", {',
    );
    expect(index).toContain("identityProviderUid: acmeSso.uid,");
    expect(index).not.toContain('getRoleOutput({ name: "deployer" })');
    // Every identity kind, and the association naming the service principal by variable.
    expect(index).toContain(
      'subjectPattern: "repo:acme/platform:ref:refs/heads/(main|release-.*)",',
    );
    expect(index).toContain("staticKeys: {");
    expect(index).toContain("awsIdentity: {");
    expect(index).toContain('servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",');
    expect(index).toContain("chainguard: { serviceBindings: { INGESTER: ingester.uid } },");
    // The client secret comes from config; the invite is counted and skipped.
    const [sso] = result.clientSecrets.filter((s) => s.uid === demo["acme-sso"]);
    expect(index).toContain(
      `const acmeSsoClientSecret = config.requireSecret("${sso.configKey}");`,
    );
    expect(index).toContain("clientSecret: acmeSsoClientSecret,");
    expect(result.files["README.md"]).toContain(`pulumi config set --secret ${sso.configKey}`);
    expect(result.skippedInvites).toBe(1);
    expect(index).toContain("// - 1 group invite: skipped:");
    // Only the root organisation is a uid literal outside `adoptUid`.
    const literals = index
      .split("\n")
      .filter((line) => /"[0-9a-f]{40}/.test(line) && !line.includes("adoptUid"));
    expect(
      literals.filter((line) => !line.trim().startsWith('"') && !line.startsWith("//")),
    ).toEqual([`const rootGroupUid = config.get("rootGroupUid") ?? "${emulator.rootGroupUid}";`]);
    for (const text of Object.values(result.files)) {
      expect(text).not.toContain(emulator.token);
      expect(text).not.toContain(DEMO_CLIENT_SECRET);
    }
    expect(result.warnings).toEqual([]);
  });

  it("run without the client secret in config, the program stops before declaring anything, naming the key to set", async () => {
    // What `pulumi preview` of the project does before the README's `config set`: the
    // program, compiled as the language host compiles it and run under
    // `runtime.setMocks`, fails on its first line that needs the secret. No resource is
    // declared, so nothing can be written.
    const [sso] = exported.result.clientSecrets.filter((s) => s.uid === demo["acme-sso"]);
    const project = createConsumerProject({
      name: "export-demo-no-secret",
      programDir: exportedDir,
    });
    try {
      const programFile = path.join(project.dir, "index.js");
      const compiled = ts.transpileModule(exported.result.files["index.ts"], {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      });
      fs.writeFileSync(programFile, compiled.outputText);
      let declared = 0;
      const run = registerUnderMocks(
        project,
        () => {
          project.require(programFile);
          return [];
        },
        { "irm:apiUrl": emulator.url, "irm:token": emulator.token },
        ["irm:token"],
        {
          uidOf: () => {
            declared += 1;
            return undefined;
          },
        },
      );
      await expect(run).rejects.toThrow(
        new RegExp(`Missing required configuration variable '[^']*:${sso.configKey}'`),
      );
      expect(declared).toBe(0);
    } finally {
      project.remove();
    }
  });

  it("exports the same text again from the same organisation", async () => {
    const again = await exportOrganisation({
      dryRun: true,
      settings: { baseUrl: emulator.url, token: emulator.token },
    });
    expect(again.files).toEqual(exported.result.files);
  });

  it("type-checks against the installed package and is formatted as Biome formats it", async () => {
    // Both projects in one compiler run: each in its own folder, under the tsconfig
    // the exporter writes for both.
    const checked = await typeCheckTogether("export-demo-typecheck", {
      organisation: exported.result.files,
      platform: platform.result.files,
    });
    expect(checked.output).toBe("");
    expect(checked.ok).toBe(true);
    for (const generated of [exported, platform]) {
      const index = generated.result.files["index.ts"];
      expect(await biomeFormat(index)).toBe(index);
    }
  }, 400_000);

  it("a group's subtree: its parent and outside roles by config and lookup, its own association by one GET", () => {
    const { result } = platform;
    const index = result.files["index.ts"];
    // The parent, outside the program, is a config key defaulting to its uid.
    expect(index).toMatch(
      new RegExp(
        `const parentGroupUid =\\s+config\\.get\\("parentGroupUid"\\) \\?\\? "${demo.engineering}";`,
      ),
    );
    expect(index).toContain("parentUid: parentGroupUid,");
    // deployer lives in engineering, outside the subtree: looked up by its unique name.
    expect(index).toContain('const deployerRole = irm.getRoleOutput({ name: "deployer" });');
    expect(index).toContain("roleUid: deployerRole.uid,");
    // platform's own association has platform's uid: read by one GET, not the listing.
    expect(index).toContain('new irm.AccountAssociation("platform-accounts", {');
    expect(result.requests).toEqual({
      group: 1,
      accountAssociation: 1,
      groups: 1,
      identities: 1,
      roleBindings: 1,
      roles: 1,
      identityProviders: 1,
      externalGroupRoleMappings: 1,
      accountAssociations: 1,
      repos: 1,
      subscriptions: 1,
      groupInvites: 1,
    });
    expect(result.counts).toEqual({
      groups: 1,
      identities: 3,
      roleBindings: 3,
      customRoles: 0,
      identityProviders: 0,
      externalGroupRoleMappings: 0,
      accountAssociations: 1,
      repos: 0,
      subscriptions: 0,
    });
    expect(result.skippedInvites).toBe(0);
  });

  // Adoption on the engine (the whole demo, a renamed binding taken over without a
  // write, the token in no state file): tests/engine/export-adoption.test.ts.
});
