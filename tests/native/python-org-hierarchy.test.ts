/**
 * The org-hierarchy scenario as a Python program (examples/org-hierarchy-python) on the
 * real CLI and the native plugin: the generated Python SDK's wheel pip-installed, the
 * plugin `pulumi-resource-irm` from the packed package on PATH, the program served to
 * the CLI through the Automation API's inline programs (harness/python). Preview, up, a
 * no-change preview, a one-field edit with an import beside it (one `up`: the program's
 * `import_` option), `refresh --expect-no-changes` (of the imported group too), destroy,
 * each with the exact write requests it sent; no secret in state or output.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { readOrganisation } from "../../harness/org-snapshot";
import { createPythonStack, type PythonStack } from "../../harness/python/python-stack";
import { ensureInstalledBase } from "../../harness/real-engine/installed-base";
import { describeRequest, writesOf } from "../../harness/request-names";
import { generateSdks, pythonWheel } from "../../scripts/sdks/generate";
import { describeOnEngine } from "../support/engine-stack";
import { EXAMPLE_ORGANISATION } from "./support";

const REPO = path.resolve(__dirname, "..", "..");
const sorted = (list: string[]) => [...list].sort();
const stepsOf = (answer: { steps: Array<[string, string]> }) =>
  sorted(answer.steps.map(([op, name]) => `${op} ${name}`));

describeOnEngine(
  "org-hierarchy as a Python program on the native plugin",
  { shuffle: false, timeout: 120_000 },
  () => {
    let emulator: TestEmulator;
    let stack: PythonStack;
    /** Resource names by uid, from the last state read (and the root). */
    const names = new Map<string, string>();

    async function requests(): Promise<string[]> {
      const log = await emulator.requests();
      await emulator.clearRequests();
      return log.map((entry) => describeRequest(entry, names));
    }

    async function stateResources(): Promise<Array<Record<string, unknown>>> {
      const exported = await stack.step("export");
      expect(exported.error).toBeUndefined();
      const resources = exported.deployment?.resources ?? [];
      for (const resource of resources) {
        const urn = String(resource.urn);
        if (typeof resource.id === "string" && resource.id !== "" && !urn.includes("::pulumi:"))
          names.set(resource.id, `<${urn.slice(urn.lastIndexOf("::") + 2)}>`);
      }
      return resources.filter((r) => String(r.type).startsWith("irm:"));
    }

    beforeAll(async () => {
      const { cliRoot, base } = inject("realEngine");
      const sdks = generateSdks();
      await ensureInstalledBase(base);
      emulator = await startTestEmulator();
      names.set(emulator.rootGroupUid, "<ROOT>");
      stack = await createPythonStack({
        name: "org-hierarchy-python",
        programDir: path.join(REPO, "examples", "org-hierarchy-python"),
        cliRoot,
        scratch: base,
        wheel: pythonWheel(sdks.out),
        // The plugin as users get it: the packed package's launcher.
        path: [path.join(base, "node_modules", "pulumi-irm", "plugin")],
        config: {
          "irm:apiUrl": { value: emulator.url },
          "irm:token": { value: emulator.token, secret: true },
          "org-hierarchy-python:rootGroupUid": { value: emulator.rootGroupUid },
        },
        env: { IRM_DELETE_TIMEOUT_MS: "300" },
      });
      await emulator.clearRequests();
    }, 600_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("previews 13 creates and writes nothing", async () => {
      const preview = await stack.step("preview");
      expect(preview.error).toBeUndefined();
      expect(preview.steps).toHaveLength(13);
      expect(preview.steps.every(([op]) => op === "create")).toBe(true);
      expect(writesOf(await requests())).toEqual([]);
    });

    it("up creates the 13 objects with one POST each", async () => {
      const up = await stack.step("up");
      expect(up.error).toBeUndefined();
      expect(up.changes).toMatchObject({ create: 14 });
      const resources = await stateResources();
      expect(resources).toHaveLength(13);
      const writes = writesOf(await requests());
      expect(writes).toHaveLength(13);
      expect(writes.every((w) => w.startsWith("POST ") && w.endsWith(" 200"))).toBe(true);
      const org = await readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);
      expect(org.groups).toEqual(EXAMPLE_ORGANISATION.groups);
      expect(org.bindings).toEqual(EXAMPLE_ORGANISATION.bindings);
    });

    it("a second preview finds nothing to do and writes nothing", async () => {
      const preview = await stack.step("preview", { expectNoChanges: true });
      expect(preview.error).toBeUndefined();
      expect(preview.steps).toEqual([]);
      expect(writesOf(await requests())).toEqual([]);
    });

    it("one description edited and a group made outside Pulumi imported, in one up: 1 update, 1 import, nothing replaced, one PATCH with mask description, the import reads only", async () => {
      const made = await fetch(`${emulator.url}/iam/v2beta1/groups/${emulator.rootGroupUid}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${emulator.token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ name: "made-by-hand", description: "outside Pulumi" }),
      });
      expect(made.status).toBe(200);
      const uid = ((await made.json()) as { uid: string }).uid;
      names.set(uid, "<made-by-hand>");
      await emulator.clearRequests();
      stack.editProgram('"Card and ledger services"', '"Cards, ledgers and payouts"');
      // `pulumi import` wants the project's language host, which the CLI built here
      // lacks (docs/languages.md); the program's `import_` option is the same managed
      // read, declared where the group now lives.
      fs.appendFileSync(
        path.join(stack.dir, "__main__.py"),
        [
          "",
          "irm.Group(",
          '    "made-by-hand",',
          "    parent_uid=root_group_uid,",
          '    name="made-by-hand",',
          '    description="outside Pulumi",',
          `    opts=pulumi.ResourceOptions(import_=${JSON.stringify(uid)}),`,
          ")",
          "",
        ].join("\n"),
      );
      const up = await stack.step("up");
      expect(up.error).toBeUndefined();
      expect(stepsOf(up)).toEqual(["import made-by-hand", "update payments"]);
      expect(up.output).not.toMatch(/replace/);
      const sent = await requests();
      expect(sent).toContain(`GET /iam/v2beta1/groups/<made-by-hand> 200`);
      // The edit's PATCH is the only write: the import wrote nothing.
      expect(writesOf(sent)).toEqual([
        "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
      ]);
      const entry = (await stateResources()).find((r) => r.id === uid);
      expect(entry).toMatchObject({
        type: "irm:index:Group",
        outputs: { name: "made-by-hand", description: "outside Pulumi" },
      });
    });

    it("refresh --expect-no-changes succeeds and writes nothing", async () => {
      const refresh = await stack.step("refresh", { expectNoChanges: true });
      expect(refresh.error).toBeUndefined();
      expect(writesOf(await requests())).toEqual([]);
    });

    it("destroy deletes everything it manages, the imported group too", async () => {
      const destroy = await stack.step("destroy");
      expect(destroy.error).toBeUndefined();
      const writes = writesOf(await requests());
      expect(writes).toHaveLength(14);
      expect(writes.every((w) => w.startsWith("DELETE ") && w.endsWith(" 200"))).toBe(true);
      const org = await readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);
      expect(org.groups).toEqual([]);
    });

    it("kept the token out of the state, the CLI's output and the driver's log", async () => {
      const files = fs.readdirSync(stack.backend, { recursive: true, encoding: "utf8" });
      const state = files
        .map((name) => path.join(stack.backend, name))
        .filter((file) => fs.statSync(file).isFile())
        .map((file) => fs.readFileSync(file, "utf8"))
        .join("\n");
      expect(state).toContain("irm:index:Group");
      expect(state).not.toContain(emulator.token);
      expect(stack.stderr()).not.toContain(emulator.token);
      expect(stack.outputs().join("\n")).not.toContain(emulator.token);
    });
  },
);
