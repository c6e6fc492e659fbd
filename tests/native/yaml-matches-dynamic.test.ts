/**
 * The org-hierarchy example as a YAML program (`examples/org-hierarchy-yaml`) on the
 * native provider plugin, on the real CLI with the YAML language host, beside the same
 * example as the TypeScript program on the dynamic resources: one story on two stacks,
 * each against its own emulator behind a recording proxy. The YAML stack runs the
 * pipeline in order (preview, up, a no-change preview, an edit, `refresh
 * --expect-no-changes`, import, destroy), each run asserting its steps and exact write
 * requests; the TypeScript stack runs the up, the edit and the destroy beside it, and the
 * two faces send the same writes (method, path, update mask, body) in each. The native
 * state of a group, with no provider text in it, is smaller.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { readOrganisation } from "../../harness/org-snapshot";
import { lookupsApart, writesOf } from "../../harness/request-names";
import type { EngineStack } from "../../harness/stack";
import {
  createEngineStack,
  describeOnEngine,
  type RunOutcome,
  type Step,
} from "../support/engine-stack";
import {
  comparableWrites,
  createYamlStack,
  EXAMPLE_ORGANISATION,
  editYaml,
  type RecordedRequest,
  recordingProxy,
  runCli,
} from "./support";

const sorted = (list: string[]) => [...list].sort();
const describeSteps = (steps: Step[]) => sorted(steps.map((s) => `${s.op} ${s.name}`));

interface Face {
  emulator: TestEmulator;
  proxy: Awaited<ReturnType<typeof recordingProxy>>;
  stack: EngineStack;
  /** Uids (the stack's objects, the root, the built-in roles) by name. */
  names: Map<string, string>;
}

async function face(kind: "dynamic" | "native"): Promise<Face> {
  const emulator = await startTestEmulator();
  const proxy = await recordingProxy(emulator);
  const behindProxy = { ...emulator, url: proxy.url };
  const stack =
    kind === "native"
      ? await createYamlStack("org-hierarchy-yaml", behindProxy)
      : await createEngineStack({
          name: "org-hierarchy-dynamic",
          program: "org-hierarchy",
          emulator: behindProxy,
          projectConfig: { rootGroupUid: emulator.rootGroupUid },
          env: { IRM_DELETE_TIMEOUT_MS: "300" },
        });
  const names = new Map([[emulator.rootGroupUid, "ROOT"]]);
  const roles = (await (
    await fetch(`${emulator.url}/iam/v2beta1/roles?page_size=200`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    })
  ).json()) as { roles: Array<{ uid: string; name: string }> };
  for (const role of roles.roles) names.set(role.uid, `role:${role.name}`);
  return { emulator, proxy, stack, names };
}

/** The writes a face sent since the last call, in words, sorted (steps run in parallel). */
function writes(face: Face): string[] {
  const taken: RecordedRequest[] = face.proxy.take();
  return comparableWrites(taken, face.names).sort();
}

/** Learns the uids of the stack's objects by name. */
async function learnNames(face: Face): Promise<void> {
  for (const resource of await face.stack.resources()) {
    if (resource.id) face.names.set(resource.id, `<${resource.name}>`);
  }
}

/**
 * The checkpoint entry of the resource `name`, in bytes: as stored (`raw`), and without
 * what the language host reports of the program's source (`sourcePosition`,
 * `stackTrace`), which is no part of what the provider stores. The YAML host, a Go
 * program, sends the Go stack of its own interpreter for every resource (about 1.9 kB).
 */
async function stateEntryBytes(
  face: Face,
  name: string,
): Promise<{ raw: number; provider: number }> {
  const exported = JSON.parse((await runCli(face.stack, ["stack", "export"])).stdout) as {
    deployment: { resources: Array<{ urn: string }> };
  };
  const entry = exported.deployment.resources.find((r) => r.urn.endsWith(`::${name}`));
  if (entry === undefined) throw new Error(`no ${name} in state`);
  const {
    sourcePosition: _position,
    stackTrace: _trace,
    ...rest
  } = entry as Record<string, unknown>;
  return {
    raw: Buffer.byteLength(JSON.stringify(entry)),
    provider: Buffer.byteLength(JSON.stringify(rest)),
  };
}

/** Both runs succeeded. */
function expectBoth([a, b]: RunOutcome[]): void {
  expect(a.error, a.output).toBeUndefined();
  expect(b.error, b.output).toBeUndefined();
}

describeOnEngine(
  "org-hierarchy in YAML on the native plugin, beside the dynamic resources",
  { shuffle: false, timeout: 180_000 },
  () => {
    let dynamic: Face;
    let native: Face;
    let emulator: TestEmulator;
    let stack: EngineStack;
    const organisation = () =>
      readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);

    beforeAll(async () => {
      [dynamic, native] = await Promise.all([face("dynamic"), face("native")]);
      ({ emulator, stack } = native);
      await stack.takeRequests();
      native.proxy.take();
    }, 180_000);

    afterAll(async () => {
      for (const f of [dynamic, native]) {
        await f?.stack.dispose();
        await f?.proxy.close();
        await f?.emulator.close();
      }
    });

    it("the YAML program previews 13 creates with no write request", async () => {
      const preview = await stack.preview();
      expect(preview.error).toBeUndefined();
      expect(preview.changes).toHaveLength(13);
      expect(
        preview.changes.every((s) => s.op === "create" && s.type.startsWith("irm:index:")),
      ).toBe(true);
      const requests = await stack.takeRequests();
      expect(writesOf(requests)).toEqual([]);
      // The program's own lookups (what it asked for: one List each), and apart from
      // them what the resources' checks read: nothing. The roles the bindings grant come
      // from the lookups; `engineering`'s parent, the root organisation, holds the
      // identity the token acts as.
      const { lookups, resources } = lookupsApart(requests);
      expect(lookups).toEqual([
        "GET /iam/v2beta1/roles?name=editor&page_size=200 200",
        "GET /iam/v2beta1/roles?name=viewer&page_size=200 200",
        "GET /iam/v2beta1/roles?name=registry.pull&page_size=200 200",
        "GET /registry/v2beta1/repos?uidp.descendants_of=ROOT&name=internal-api&page_size=200 200",
      ]);
      expect(resources).toEqual([]);
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

    it("up: one POST per object, the same 13 as the dynamic face's, request for request; a second preview plans nothing", async () => {
      expectBoth(
        await Promise.all([
          dynamic.stack.up({ skipPreview: true }),
          stack.up({ skipPreview: true }),
        ]),
      );
      await Promise.all([learnNames(dynamic), learnNames(native)]);
      const sent = writes(dynamic);
      expect(sent).toHaveLength(13);
      expect(writes(native)).toEqual(sent);

      const nativeWrites = writesOf(await stack.takeRequests());
      expect(nativeWrites).toHaveLength(13);
      expect(nativeWrites.every((w) => w.startsWith("POST ") && w.endsWith(" 200"))).toBe(true);
      const org = await organisation();
      expect(org.groups).toEqual(EXAMPLE_ORGANISATION.groups);
      expect(org.bindings).toEqual(EXAMPLE_ORGANISATION.bindings);
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
      expect(writes(native)).toEqual([]);
    });

    it("a native group's state entry is 250 B smaller than the dynamic one (source positions aside)", async () => {
      const [dynamicBytes, nativeBytes] = await Promise.all([
        stateEntryBytes(dynamic, "payments"),
        stateEntryBytes(native, "payments"),
      ]);
      process.stdout.write(
        `state entry of group payments: dynamic ${JSON.stringify(dynamicBytes)}, native ${JSON.stringify(nativeBytes)}\n`,
      );
      expect(dynamicBytes.provider - nativeBytes.provider).toBeGreaterThanOrEqual(250);
    });

    it("a description edit previews and is one update, nothing replaced, one PATCH with mask description: the dynamic face's PATCH", async () => {
      dynamic.stack.editProgram(
        'description: "Card and ledger services"',
        'description: "Cards, ledgers and payouts"',
      );
      editYaml(
        stack,
        "description: Card and ledger services",
        "description: Cards, ledgers and payouts",
      );
      const [a, result] = await Promise.all([
        dynamic.stack.up({ skipPreview: true }),
        // The YAML stack's up previews first, as users run it: its plan is asserted.
        stack.up(),
      ]);
      expectBoth([a, result]);
      expect(describeSteps(result.planned ?? [])).toEqual(["update payments"]);
      expect(describeSteps(result.changes)).toEqual(["update payments"]);
      expect(result.output.split(/^Updating \(/m)[0]).not.toContain("to replace");
      expect(writesOf(await stack.takeRequests())).toEqual([
        "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
      ]);
      const sent = writes(dynamic);
      expect(sent).toEqual([
        'PATCH /iam/v2beta1/groups/<payments>?updateMask=description {"description":"Cards, ledgers and payouts"}',
      ]);
      expect(writes(native)).toEqual(sent);
    });

    it("refresh --expect-no-changes finds nothing and writes nothing", async () => {
      const result = await stack.refresh({ expectNoChanges: true, skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(result.refreshChanged).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });

    it("pulumi import brings an existing group into another stack with reads only", async () => {
      const uid = stack.uidOf("payments");
      await runCli(stack, ["stack", "init", "imported", "--no-select", "--non-interactive"]);
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
      }
    });

    it("destroy: one DELETE per object, the same 13 as the dynamic face's; no token anywhere in state, logs or files", async () => {
      await stack.takeRequests();
      native.proxy.take();
      expectBoth(
        await Promise.all([
          dynamic.stack.destroy({ skipPreview: true }),
          stack.destroy({ skipPreview: true }),
        ]),
      );
      const sent = writes(dynamic);
      expect(sent).toHaveLength(13);
      expect(writes(native)).toEqual(sent);
      const nativeWrites = writesOf(await stack.takeRequests());
      expect(nativeWrites).toHaveLength(13);
      expect(nativeWrites.every((w) => w.startsWith("DELETE ") && w.endsWith(" 200"))).toBe(true);
      expect((await organisation()).groups).toEqual([]);
      expect(stack.persistedText()).not.toContain(emulator.token);
    });
  },
);
