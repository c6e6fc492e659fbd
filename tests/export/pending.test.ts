/**
 * `irm-pending`: matches the pending creates of an interrupted run, read from a
 * hand-made `pulumi stack export` document, to the objects they made in the emulator,
 * and prints the `pulumi refresh --import-pending-creates` arguments; never guesses.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { typeToken } from "../../provider/resource-class";
import { IrmClient } from "../../sdk/index";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function irmPending(args: string[], env: Record<string, string>, stdin: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "exporter", "pending.ts"), ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

const urn = (type: string, name: string) => `urn:pulumi:dev::org::${typeToken(type)}::${name}`;
const creating = (type: string, name: string, inputs: Record<string, unknown>) => ({
  resource: { urn: urn(type, name), custom: true, type: typeToken(type), inputs },
  type: "creating",
});

describe("irm-pending", () => {
  let emulator: TestEmulator;
  let env: Record<string, string>;
  const made: Record<string, string> = {};
  let twins: string[];

  beforeAll(async () => {
    emulator = await startTestEmulator();
    env = { IRM_API_URL: emulator.url, IRM_TOKEN: emulator.token, IRM_MAX_RETRIES: "0" };
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
    const viewer = (await client.iam.roles.list({ name: "viewer" })).items[0];
    made.viewer = viewer.uid;
    made.binding = (
      await client.iam.roleBindings.create(made.team, { identityUid: made.ci, roleUid: viewer.uid })
    ).uid;
    // A name that exists twice: no guess.
    twins = [
      (await client.iam.groups.create(root, { name: "twin" })).uid,
      (await client.iam.groups.create(root, { name: "twin" })).uid,
    ].sort();
    await client.close();
  });

  afterAll(async () => {
    await emulator?.close();
  });

  const exported = () => {
    const root = emulator.rootGroupUid;
    return JSON.stringify({
      version: 3,
      deployment: {
        manifest: {},
        resources: [],
        pending_operations: [
          creating("Group", "team", { parentUid: root, name: "team", description: "" }),
          creating("Identity", "team-ci", { parentUid: made.team, name: "team-ci" }),
          creating("RoleBinding", "team-ci-viewer", {
            groupUid: made.team,
            identityUid: made.ci,
            roleUid: made.viewer,
          }),
          creating("Group", "twin", { parentUid: root, name: "twin" }),
          creating("Group", "never-made", { parentUid: root, name: "never-made" }),
          // Not a create, and not this package's: left alone.
          { ...creating("Group", "updated", { parentUid: root, name: "team" }), type: "updating" },
          {
            resource: {
              urn: "urn:pulumi:dev::org::aws:s3/bucket:Bucket::b",
              type: "aws:s3/bucket:Bucket",
              inputs: {},
            },
            type: "creating",
          },
        ],
      },
    });
  };

  it("prints the import arguments of each single match and names what it cannot match", async () => {
    const outcome = await irmPending([], env, exported());
    expect(outcome.stdout).toBe(
      `pulumi refresh --import-pending-creates '${urn("Group", "team")}' --import-pending-creates ${made.team} \\\n` +
        `  --import-pending-creates '${urn("Identity", "team-ci")}' --import-pending-creates ${made.ci} \\\n` +
        `  --import-pending-creates '${urn("RoleBinding", "team-ci-viewer")}' --import-pending-creates ${made.binding}\n`,
    );
    const lines = outcome.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `irm-pending: ${urn("Group", "twin")}: 2 objects match (${twins.join(", ")}): choose one, delete the others`,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^irm-pending: ${urn("Group", "never-made").replace(/[$/]/g, "\\$&")}: no object matches`,
      ),
    );
    // Not every pending create was matched.
    expect(outcome.code).toBe(1);
    expect(outcome.stdout + outcome.stderr).not.toContain(emulator.token);
  });

  it("exits 0 when every pending create is matched, and 2 on input that is not a stack export", async () => {
    const only = JSON.parse(exported());
    only.deployment.pending_operations = only.deployment.pending_operations.slice(0, 1);
    const one = await irmPending([], env, JSON.stringify(only));
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`--import-pending-creates ${made.team}`);
    const bad = await irmPending([], env, "{}");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("not `pulumi stack export` JSON");
  });
});
