/**
 * Identity kinds on the engine: switching an exact subject for a pattern is one PATCH of
 * `claim_match.subject_pattern`; another kind replaces the identity; a static-keys
 * identity whose program leaves `expirationTime` out converges, and declaring it or
 * leaving it out again is one update that writes nothing. The program also reads a
 * group outside the stack with `Group.get` (one GET, and destroy leaves it alone).
 * A pattern RE2 refuses is a check failure naming `claimMatch.subjectPattern`
 * (tests/provider/provider-host.test.ts, through the provider host), and a check
 * failure stops the preview before any write (bad-input-check-failures.test.ts).
 */
import { generateKeyPairSync } from "node:crypto";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  expectConverged,
  type Step,
} from "../support/engine-stack";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();
const MAIN = "repo:acme/infra:ref:refs/heads/main";
/** Each test runs one to three engine operations; the machine may be shared and loaded. */
const ENGINE_STEP_TIMEOUT_MS = 180_000;
const MAIN_OR_RELEASE = "repo:acme/infra:ref:refs/heads/(main|release-.*)";

describeOnEngine("identity kinds on the engine", { shuffle: false }, () => {
  let emulator: TestEmulator;
  let stack: EngineStack;
  let groupUid: string;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    [groupUid] = (
      await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "infra" }] })
    ).groups;
    stack = await createEngineStack({
      name: "identity-kinds",
      program: path.join(__dirname, "fixtures", "identity-kinds"),
      emulator,
      projectConfig: { groupUid, subject: MAIN },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.close();
  });

  it(
    "creates the exact-match identity and reads the existing group",
    async () => {
      // No plan is asserted: the up runs without its preview.
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      // The request log names the group by the stack's resource that read it.
      expect(writesOf(await stack.takeRequests())).toEqual([
        "POST /iam/v2beta1/identities/<existing> 200",
      ]);
      expect(await stack.outputs()).toMatchObject({
        claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: MAIN },
        kindIsService: false,
        existingName: "infra",
        lookedUpName: "infra",
      });
      const existing = (await stack.resources()).find((r) => r.name === "existing");
      expect(existing?.id).toBe(groupUid);
      expect(existing?.outputs).toMatchObject({ uid: groupUid, parentUid: emulator.rootGroupUid });
      // That the new identity has nothing else to change is the next test's: its up is
      // one update of it, a PATCH of claim_match.subject_pattern and no other field.
    },
    ENGINE_STEP_TIMEOUT_MS,
  );

  it(
    "an exact subject switched for a pattern is one PATCH of claim_match.subject_pattern",
    async () => {
      await stack.setConfig("subject", "");
      await stack.setConfig("subjectPattern", MAIN_OR_RELEASE);
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.changes)).toEqual(["update deployer"]);
      expect(writesOf(await stack.takeRequests())).toEqual([
        "PATCH /iam/v2beta1/identities/<deployer>?updateMask=claim_match.subject_pattern 200",
      ]);
      expect((await stack.outputs()).claimMatch).toEqual({
        issuer: "https://token.actions.githubusercontent.com",
        subjectPattern: MAIN_OR_RELEASE,
      });
      // That nothing is left to change is the next test's: its up changes only what it
      // adds.
    },
    ENGINE_STEP_TIMEOUT_MS,
  );

  it(
    "a static-keys identity leaving expirationTime out converges; declaring it at its value, or leaving it out again, is one update with no write",
    async () => {
      const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const jwks = { keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1" }] };
      await stack.setConfig("issuerKeys", JSON.stringify(jwks));
      const created = await stack.up({ skipPreview: true });
      expect(created.error).toBeUndefined();
      // The identity switched to a pattern above has nothing left to change.
      expect(describeSteps(created.changes)).toEqual(["create airgapped"]);
      expect(writesOf(await stack.takeRequests())).toEqual([
        "POST /iam/v2beta1/identities/<existing> 200",
      ]);
      // A refresh reads the service's expirationTime into the outputs only.
      await expectConverged(stack);
      /** The expirationTime in the state's outputs (the service's). */
      const expiryInState = async () => {
        const state = (await stack.resources()).find((r) => r.name === "airgapped");
        return (state?.outputs.staticKeys as { expirationTime?: string } | undefined)
          ?.expirationTime;
      };
      const expiry = await expiryInState();
      expect(expiry).toMatch(/^\d{4}-.*Z$/);

      /** One up: an update of the identity, as previewed, that writes nothing. */
      async function oneUpdateNoWrite() {
        const result = await stack.up();
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.planned ?? [])).toEqual(["update airgapped"]);
        expect(describeSteps(result.changes)).toEqual(["update airgapped"]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
        expect(await expiryInState()).toBe(expiry);
      }
      // Declared: the update drops the mark, or leaving it out again would plan nothing.
      await stack.setConfig("expirationTime", String(expiry));
      await oneUpdateNoWrite();
      await stack.setConfig("expirationTime", "");
      await oneUpdateNoWrite();
      await expectConverged(stack);
    },
    ENGINE_STEP_TIMEOUT_MS,
  );

  it(
    "another kind replaces the identity: the new one created, then the old one deleted",
    async () => {
      const before = stack.uidOf("deployer");
      await stack.setConfig("servicePrincipal", "SERVICE_PRINCIPAL_INGESTER");
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.changes)).toEqual([
        "delete-replaced deployer",
        "replace deployer",
      ]);
      const writes = writesOf(await stack.takeRequests());
      expect(writes).toHaveLength(2);
      expect(writes[0]).toBe("POST /iam/v2beta1/identities/<existing> 200");
      expect(writes[1]).toMatch(/^DELETE \/iam\/v2beta1\/identities\/\S+ 200$/);
      expect(stack.uidOf("deployer")).not.toBe(before);
      expect((await stack.outputs()).kindIsService).toBe(true);
    },
    ENGINE_STEP_TIMEOUT_MS,
  );

  it(
    "destroy deletes the identities and leaves the group it only read",
    async () => {
      const destroyed = await stack.destroy({ skipPreview: true });
      expect(destroyed.error).toBeUndefined();
      expect(writesOf(await stack.takeRequests()).sort()).toEqual([
        "DELETE /iam/v2beta1/identities/<airgapped> 200",
        "DELETE /iam/v2beta1/identities/<deployer> 200",
      ]);
      const group = await fetch(`${emulator.url}/iam/v2beta1/groups/${groupUid}`, {
        headers: { authorization: `Bearer ${emulator.token}` },
      });
      expect(group.status).toBe(200);
    },
    ENGINE_STEP_TIMEOUT_MS,
  );
});
