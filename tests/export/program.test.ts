/**
 * The generated program without a service: names from awkward organisations (the same
 * name in many places, reserved words, leading digits, long names, quotes and line
 * breaks in descriptions), the same text whatever order the API listed things in,
 * Biome's layout, and a clean type check.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../exporter/program";
import type { LiveOrganisation } from "../../exporter/read";
import { literal, renderIndex } from "../../exporter/render";
import { createConsumerProject } from "../../harness/installed-package";
import type { Group, Identity, Role, RoleBinding } from "../../sdk/index";
import { biomeFormat, typeCheck } from "./support";

const ROOT = "a".repeat(40);
const TIME = "2026-11-22T10:00:00.000Z";
let counter = 0;
const segment = () => (++counter).toString(16).padStart(16, "0");

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
function identity(parent: string, name: string, subject: string, description = ""): Identity {
  return {
    uid: `${parent}/${segment()}`,
    name,
    description,
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject },
    createTime: TIME,
    updateTime: TIME,
  };
}
function role(name: string, parentUid = ""): Role {
  return {
    uid: (++counter).toString(16).padStart(40, "0"),
    name,
    description: "",
    capabilities: ["repos.list", "groups.get"],
    parentUid,
    createTime: TIME,
    updateTime: TIME,
  };
}
function binding(groupUid: string, who: Identity, what: Role, groupName: string): RoleBinding {
  return {
    uid: `${groupUid}/${segment()}`,
    identity: { uid: who.uid, name: who.name, description: "", subject: "", issuer: "" },
    group: { uid: groupUid, name: groupName, description: "" },
    role: { uid: what.uid, name: what.name, description: "" },
    createTime: TIME,
  };
}

/** An organisation built to make naming and layout hard. */
function awkwardOrganisation(): LiveOrganisation {
  const top: Group = { ...group(ROOT, "acme"), uid: ROOT };
  const long = "platform engineering and developer experience and everything else we do".repeat(1);
  const eu = group(ROOT, "eu", 'The "EU" region');
  const us = group(ROOT, "us", "It's the US\nsecond line \\ backslash");
  const euTeam = group(eu.uid, "team");
  const usTeam = group(us.uid, "team");
  const reserved = group(ROOT, "default");
  const digits = group(ROOT, "2024 interns");
  const spaced = group(ROOT, "a b");
  const dashed = group(ROOT, "a-b");
  const longGroup = group(ROOT, long, "x".repeat(120));
  const ciEu = identity(euTeam.uid, "ci", "repo:acme/eu:ref:refs/heads/main");
  const ciUs = identity(usTeam.uid, "ci", `repo:acme/${"very-long-repository-name-".repeat(4)}`);
  const deep = identity(longGroup.uid, long, "*", "Ünïcödé ✓");
  const bot = identity(reserved.uid, "bot", "repo:acme/bot:ref:refs/heads/main");
  const viewer = role("viewer");
  const deployerA = role("deployer", eu.uid);
  const deployerB = role("deployer", us.uid);
  const config = role("config", eu.uid);
  return {
    top,
    topIsRoot: true,
    groups: [eu, us, euTeam, usTeam, reserved, digits, spaced, dashed, longGroup],
    identities: [ciEu, ciUs, deep, bot],
    bindings: [
      binding(euTeam.uid, ciEu, viewer, "team"),
      binding(usTeam.uid, ciUs, viewer, "team"),
      binding(euTeam.uid, ciEu, deployerA, "team"),
      binding(usTeam.uid, ciUs, deployerB, "team"),
      binding(longGroup.uid, deep, config, long),
    ],
    roles: [viewer, deployerA, deployerB, config],
    requests: {},
  };
}

const reversed = (live: LiveOrganisation): LiveOrganisation => ({
  ...live,
  groups: [...live.groups].reverse(),
  identities: [...live.identities].reverse(),
  bindings: [...live.bindings].reverse(),
  roles: [...live.roles].reverse(),
});

describe("the generated program", () => {
  const live = awkwardOrganisation();
  const render = (org: LiveOrganisation, protect = false) =>
    renderIndex(buildProgram(org, { declareCustomRoles: false }), { protect, retain: false });
  const index = render(live);
  let cleanup: (() => void) | undefined;
  afterAll(() => cleanup?.());

  it("is the same text whatever order the API listed the objects in", () => {
    expect(render(reversed(live))).toBe(index);
  });

  it("qualifies repeated names by their parents, and avoids reserved words and leading digits", () => {
    const names = [...index.matchAll(/new irm\.(\w+)\(\s*("[^"]+")/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'Group "eu-team"',
        'Group "us-team"',
        'Identity "eu-team-ci"',
        'Identity "us-team-ci"',
        'Group "default"',
        'Group "2024-interns"',
        'RoleBinding "eu-team-ci-viewer"',
      ]),
    );
    expect(index).toContain('const defaultGroup = new irm.Group("default", {');
    expect(index).toContain("parentUid: defaultGroup.uid,");
    expect(index).toContain('const euTeam = new irm.Group("eu-team", {');
    // "a b" and "a-b" share their words: told apart by a piece of their uid.
    expect(names.filter((n) => /^Group "acme-a-b-[0-9a-f]{8}"$/.test(n))).toHaveLength(2);
  });

  it("looks up roles by name only where the name is unique; the others are config values", () => {
    expect(index).toContain('const viewerRole = irm.getRoleOutput({ name: "viewer" });');
    expect(index).toContain('const configRole = irm.getRoleOutput({ name: "config" });');
    expect(index).not.toContain('getRoleOutput({ name: "deployer" })');
    expect(index).toMatch(
      /const deployerRoleUid = config\.get\("deployerRoleUid"\) \?\? "0+[0-9a-f]+";/,
    );
    expect(index).toMatch(/const deployerRoleUid[0-9a-zA-Z]+ =/);
  });

  it("writes descriptions exactly, quoted as Biome quotes them", () => {
    expect(index).toContain(`description: 'The "EU" region',`);
    expect(index).toContain('description: "It\'s the US\\nsecond line \\\\ backslash",');
    expect(literal('say "hi"')).toBe(`'say "hi"'`);
    expect(literal("it's")).toBe(`"it's"`);
    // What the literals mean is what the API holds.
    // biome-ignore lint/security/noGlobalEval: evaluating a generated literal
    expect(eval(literal("a \"b\" 'c'\n\\"))).toBe("a \"b\" 'c'\n\\");
  });

  it("is laid out as Biome lays it out, with and without resource options", async () => {
    expect(await biomeFormat(index)).toBe(index);
    const protectedIndex = render(live, true);
    expect(await biomeFormat(protectedIndex)).toBe(protectedIndex);
  });

  it("declares custom roles as irm.Role when asked (the extension point for a Role resource)", async () => {
    const withRoles = renderIndex(buildProgram(live, { declareCustomRoles: true }), {
      protect: false,
      retain: false,
    });
    expect(withRoles).toMatch(
      /const euDeployer = new irm\.Role\("eu-deployer", \{\n {2}parentUid: eu\.uid,/,
    );
    expect(withRoles).toContain('capabilities: ["groups.get", "repos.list"],');
    expect(withRoles).toContain("roleUid: euDeployer.uid,");
    expect(withRoles).not.toContain('getRoleOutput({ name: "config" })');
    expect(await biomeFormat(withRoles)).toBe(withRoles);
  });

  it("type-checks against the installed package", async () => {
    const project = createConsumerProject({
      name: "export-awkward",
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
  }, 60_000);
});
