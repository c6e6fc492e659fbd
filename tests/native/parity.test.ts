/**
 * The two faces of the provider side by side on the real CLI: the org-hierarchy example
 * as the TypeScript program on the dynamic resources and as the YAML program on the
 * native plugin, each against its own emulator behind a recording proxy. They send the
 * same writes (method, path, update mask, body) in every run, and the native state of a
 * group, with no provider text in it, is smaller.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import type { EngineStack } from "../../harness/stack";
import { createEngineStack, describeOnEngine } from "../support/engine-stack";
import {
  comparableWrites,
  createYamlStack,
  editYaml,
  type RecordedRequest,
  recordingProxy,
  runCli,
} from "./support";

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
      ? await createYamlStack("parity-native", behindProxy)
      : await createEngineStack({
          name: "parity-dynamic",
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

describeOnEngine("dynamic and native faces", { shuffle: false, timeout: 180_000 }, () => {
  let dynamic: Face;
  let native: Face;

  beforeAll(async () => {
    [dynamic, native] = await Promise.all([face("dynamic"), face("native")]);
  }, 180_000);

  afterAll(async () => {
    for (const f of [dynamic, native]) {
      await f?.stack.dispose();
      await f?.proxy.close();
      await f?.emulator.close();
    }
  });

  it("up: the same 13 creates, request for request; a native group's state entry is 250 B smaller (source positions aside)", async () => {
    const [a, b] = await Promise.all([
      dynamic.stack.up({ skipPreview: true }),
      native.stack.up({ skipPreview: true }),
    ]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    await Promise.all([learnNames(dynamic), learnNames(native)]);
    const sent = writes(dynamic);
    expect(sent).toHaveLength(13);
    expect(writes(native)).toEqual(sent);

    const [dynamicBytes, nativeBytes] = await Promise.all([
      stateEntryBytes(dynamic, "payments"),
      stateEntryBytes(native, "payments"),
    ]);
    process.stdout.write(
      `state entry of group payments: dynamic ${JSON.stringify(dynamicBytes)}, native ${JSON.stringify(nativeBytes)}\n`,
    );
    expect(dynamicBytes.provider - nativeBytes.provider).toBeGreaterThanOrEqual(250);
  });

  it("a description edit: the same one PATCH", async () => {
    dynamic.stack.editProgram(
      'description: "Card and ledger services"',
      'description: "Cards, ledgers and payouts"',
    );
    editYaml(
      native.stack,
      "description: Card and ledger services",
      "description: Cards, ledgers and payouts",
    );
    const [a, b] = await Promise.all([
      dynamic.stack.up({ skipPreview: true }),
      native.stack.up({ skipPreview: true }),
    ]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    const sent = writes(dynamic);
    expect(sent).toEqual([
      'PATCH /iam/v2beta1/groups/<payments>?updateMask=description {"description":"Cards, ledgers and payouts"}',
    ]);
    expect(writes(native)).toEqual(sent);
  });

  it("destroy: the same 13 deletes", async () => {
    const [a, b] = await Promise.all([
      dynamic.stack.destroy({ skipPreview: true }),
      native.stack.destroy({ skipPreview: true }),
    ]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    const sent = writes(dynamic);
    expect(sent).toHaveLength(13);
    expect(writes(native)).toEqual(sent);
  });
});
