/**
 * The org-hierarchy example as a YAML program (`examples/org-hierarchy-yaml`) on the
 * native provider plugin, on the real CLI with the YAML language host: the pipeline's
 * runs in order on one stack, each asserting the steps and the exact write requests.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { readOrganisation } from "../../harness/org-snapshot";
import { lookupsApart, writesOf } from "../../harness/request-names";
import { describeOnEngine, type EngineStack, type Step } from "../support/engine-stack";
import { createYamlStack, editYaml, runCli } from "./support";

const sorted = (list: string[]) => [...list].sort();
const describeSteps = (steps: Step[]) => sorted(steps.map((s) => `${s.op} ${s.name}`));

describeOnEngine(
  "org-hierarchy in YAML on the native plugin",
  { shuffle: false, timeout: 120_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    const organisation = () =>
      readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);

    beforeAll(async () => {
      emulator = await startTestEmulator();
      stack = await createYamlStack("org-hierarchy-yaml", emulator);
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("previews 13 creates with no write request", async () => {
      const preview = await stack.preview();
      expect(preview.error).toBeUndefined();
      expect(preview.changes).toHaveLength(13);
      expect(
        preview.changes.every((s) => s.op === "create" && s.type.startsWith("irm:index:")),
      ).toBe(true);
      const requests = await stack.takeRequests();
      expect(writesOf(requests)).toEqual([]);
      // The program's own lookups (what it asked for: one List each), and apart from
      // them what the resources' checks read: the roles the bindings grant come from the
      // lookups (no read); `engineering`'s parent is read, as the YAML host registers it
      // before it calls getRepo, whose answer would have told it.
      const { lookups, resources } = lookupsApart(requests);
      expect(lookups).toEqual([
        "GET /iam/v2beta1/roles?name=editor&page_size=200 200",
        "GET /iam/v2beta1/roles?name=viewer&page_size=200 200",
        "GET /iam/v2beta1/roles?name=registry.pull&page_size=200 200",
        "GET /registry/v2beta1/repos?uidp.descendants_of=ROOT&name=internal-api&page_size=200 200",
      ]);
      expect(resources).toEqual(["GET /iam/v2beta1/groups/ROOT 200"]);
      // The plugin named with the package's version: the CLI kept the schema it asked for,
      // and the next runs read it there instead of starting the plugin once more.
      const { version } = JSON.parse(
        fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"),
      ) as { version: string };
      const cached = path.join(String(stack.cli.env.PULUMI_HOME), "schemas", `irm-${version}.json`);
      expect(JSON.parse(fs.readFileSync(cached, "utf8"))).toEqual(
        JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "dist", "plugin", "schema.json"), "utf8")),
      );
      expect(await stack.resources()).toEqual([]);
    });

    it("up creates the organisation with one POST per object, and a second preview plans nothing", async () => {
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(result.changes).toHaveLength(13);
      const writes = writesOf(await stack.takeRequests());
      expect(writes).toHaveLength(13);
      expect(writes.every((w) => w.startsWith("POST ") && w.endsWith(" 200"))).toBe(true);
      const org = await organisation();
      expect(org.groups).toEqual(
        sorted([
          "engineering <- ROOT",
          "platform <- engineering",
          "payments <- engineering",
          "payments-api <- payments",
        ]),
      );
      expect(org.bindings).toEqual(
        sorted([
          "platform-ci is editor on platform",
          "payments-ci is editor on payments",
          "payments-api-ci is viewer on payments-api",
          "platform-ci is registry.pull on example-org",
          "payments-ci is registry.pull on example-org",
          "payments-api-ci is registry.pull on example-org",
        ]),
      );
      expect(org.uids).toEqual(sorted((await stack.resources()).map((r) => r.id)));
      expect((await stack.outputs()).groupUids).toEqual({
        engineering: stack.uidOf("engineering"),
        platform: stack.uidOf("platform"),
        payments: stack.uidOf("payments"),
        "payments-api": stack.uidOf("payments-api"),
      });

      const again = await stack.preview({ expectNoChanges: true });
      expect(again.error).toBeUndefined();
      expect(again.changes).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });

    it("a description edit is one update, nothing replaced, one PATCH with mask description", async () => {
      editYaml(
        stack,
        "description: Card and ledger services",
        "description: Cards, ledgers and payouts",
      );
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.planned ?? [])).toEqual(["update payments"]);
      expect(describeSteps(result.changes)).toEqual(["update payments"]);
      expect(result.output.split(/^Updating \(/m)[0]).not.toContain("to replace");
      expect(writesOf(await stack.takeRequests())).toEqual([
        "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
      ]);
    });

    it("refresh --expect-no-changes finds nothing and writes nothing", async () => {
      const result = await stack.refresh({ expectNoChanges: true, skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(result.refreshChanged).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });

    it("pulumi import brings an existing group into another stack with reads only", async () => {
      const uid = stack.uidOf("payments");
      await runCli(stack, ["stack", "init", "imported", "--non-interactive"]);
      try {
        await runCli(stack, [
          "config",
          "set-all",
          "--stack",
          "imported",
          "--plaintext",
          `irm:apiUrl=${emulator.url}`,
          "--plaintext",
          `rootGroupUid=${emulator.rootGroupUid}`,
          "--secret",
          `irm:token=${emulator.token}`,
        ]);
        await emulator.clearRequests();
        const { stdout } = await runCli(stack, [
          "import",
          "irm:index:Group",
          "payments",
          uid,
          "--stack",
          "imported",
          "--yes",
          "--skip-preview",
          "--protect=false",
          "--non-interactive",
        ]);
        expect(stdout).toContain("1 imported");
        const requests = await emulator.requests();
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `GET /iam/v2beta1/groups/${uid}`,
        ]);
        const exported = JSON.parse(
          (await runCli(stack, ["stack", "export", "--stack", "imported"])).stdout,
        ) as { deployment: { resources: Array<{ type: string; id?: string; inputs?: object }> } };
        const imported = exported.deployment.resources.find((r) => r.type === "irm:index:Group");
        expect(imported?.id).toBe(uid);
        expect(imported?.inputs).toEqual({
          parentUid: stack.uidOf("engineering"),
          name: "payments",
          description: "Cards, ledgers and payouts",
        });
      } finally {
        // The stack goes, the group stays (it is the first stack's).
        await runCli(stack, ["stack", "rm", "imported", "--force", "--yes"]);
        await runCli(stack, ["stack", "select", "dev"]);
      }
    });

    it("destroy deletes every object; no token anywhere in state, logs or files", async () => {
      await stack.takeRequests();
      const result = await stack.destroy({ skipPreview: true });
      expect(result.error).toBeUndefined();
      const writes = writesOf(await stack.takeRequests());
      expect(writes).toHaveLength(13);
      expect(writes.every((w) => w.startsWith("DELETE ") && w.endsWith(" 200"))).toBe(true);
      expect((await organisation()).groups).toEqual([]);
      expect(stack.persistedText()).not.toContain(emulator.token);
    });
  },
);
