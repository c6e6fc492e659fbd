/**
 * A custom role, an identity provider (client secret from secret config), a group
 * invite and an account association on the engine (`fixtures/roles-providers-invites`):
 * preview, up, convergence (`preview --refresh --expect-no-changes`), in one later `up`
 * a one-field update as one PATCH with its mask, a secret rotation and a replacement
 * (each asserted on its own), destroy; and neither the client secret nor the invite
 * code in plain text in state, on disk or in the engine's events.
 */

import * as path from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  type EngineStack,
  expectConverged,
  hasRealEngine,
  type RunOutcome,
  type Step,
} from "../support/engine-stack";
import { withoutDebug } from "../support/no-secret";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();

const CLIENT_SECRET = "engine-client-secret-4c2e8a-never-in-state";
const ROTATED_SECRET = "engine-rotated-secret-91d0f3-never-in-state";
/** Several engine runs per step (up, then a preview with refresh to prove convergence). */
const ENGINE_TIMEOUT_MS = 240_000;

describe.skipIf(!hasRealEngine())(
  "IAM extras on the engine: role, identity provider, invite, account association",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let groupUid: string;
    /** Every invite code the stack has held, to look for in plain text. */
    const codes: string[] = [];
    /** Every run that saw a secret, whose events must not show it in plain text. */
    const runs: RunOutcome[] = [];
    /**
     * The group in the request log: an association's uid is its group's, so once the
     * stack holds `accounts` the log names the group after it.
     */
    const groupPath = () => "<accounts>";

    /** The invite code, read from the stack's (secret) output. */
    async function inviteCode(): Promise<string> {
      const code = (await stack.outputs()).inviteCode;
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      return code as string;
    }

    beforeAll(async () => {
      emulator = await startTestEmulator();
      [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "platform" }] })
      ).groups;
      stack = await createEngineStack({
        name: "roles-providers-invites",
        program: path.join(__dirname, "fixtures", "roles-providers-invites"),
        emulator,
        projectConfig: { groupUid },
      });
      await stack.setConfig("clientSecret", CLIENT_SECRET, true);
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it(
      "previews the four resources, then creates each with one POST (the preview wrote nothing), and converges",
      async () => {
        // One up as users run it, previewing first: its plan is what `pulumi preview`
        // shows, and its only writes are the four creates.
        const result = await stack.up();
        runs.push(result);
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.planned ?? [])).toEqual([
          "create accounts",
          "create deployers",
          "create invite",
          "create sso",
        ]);
        expect(writesOf(await stack.takeRequests()).sort()).toEqual(
          [
            `POST /iam/v2beta1/roles/${groupPath()} 200`,
            `POST /iam/v2beta1/identityProviders/${groupPath()} 200`,
            `POST /iam/v2beta1/groupInvites/${groupPath()} 200`,
            `POST /iam/v2beta1/accountAssociations/${groupPath()} 200`,
          ].sort(),
        );
        const resources = await stack.resources();
        const role = resources.find((r) => r.name === "deployers");
        // A set: the API's order is not stated.
        expect([...((role?.outputs.capabilities ?? []) as string[])].sort()).toEqual([
          "CAP_REPO_BLOBS_GET",
          "CAP_REPO_LIST",
        ]);
        expect(resources.find((r) => r.name === "accounts")?.id).toBe(groupUid);
        expect(resources.find((r) => r.name === "sso")?.outputs.defaultRole).toBe(role?.id);
        codes.push(await inviteCode());
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "one more capability is one PATCH of capabilities, a new client secret one PATCH of oidc.client_secret, a changed invite a new invite and code, then the old one deleted",
      async () => {
        // Three independent edits of one pipeline run, each asserted on its own below.
        stack.editProgram(
          '["CAP_REPO_LIST", "CAP_REPO_BLOBS_GET"], // CAPABILITIES',
          '["CAP_REPO_BLOBS_GET", "CAP_REPO_LIST", "CAP_TAG_LIST"], // CAPABILITIES',
        );
        await stack.setConfig("clientSecret", ROTATED_SECRET, true);
        const before = stack.uidOf("invite");
        stack.editProgram(
          'email: "dev@example.com", // EMAIL',
          'email: "ops@example.com", // EMAIL',
        );
        // Its plan is not what this test proves (the first up's is).
        const result = await stack.up({ skipPreview: true });
        runs.push(result);
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.changes)).toEqual([
          "delete-replaced invite",
          "replace invite",
          "update deployers",
          "update sso",
        ]);
        const writes = writesOf(await stack.takeRequests());
        const newInvite = `POST /iam/v2beta1/groupInvites/${groupPath()} 200`;
        const oldInviteDelete = "DELETE /iam/v2beta1/groupInvites/<invite> 200";
        expect([...writes].sort()).toEqual(
          [
            "PATCH /iam/v2beta1/roles/<deployers>?updateMask=capabilities 200",
            "PATCH /iam/v2beta1/identityProviders/<sso>?updateMask=oidc.client_secret 200",
            newInvite,
            oldInviteDelete,
          ].sort(),
        );
        // The invite is replaced create-before-delete.
        expect(writes.indexOf(newInvite)).toBeLessThan(writes.indexOf(oldInviteDelete));
        expect(stack.uidOf("invite")).not.toBe(before);
        const code = await inviteCode();
        expect(codes).not.toContain(code);
        codes.push(code);
        // That the stack converged after these changes is the next test's up, which
        // refreshes first and plans nothing.
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "capabilities in another order are no change, and the stack has converged; the client secret and the invite code are out of state, files and events in plain text",
      async () => {
        // The state as the engine exports it (decrypted): each value sits in a secret's
        // envelope; on disk it is encrypted (the files are checked below).
        const resources = await stack.resources();
        const sso = resources.find((r) => r.name === "sso");
        const invite = resources.find((r) => r.name === "invite");
        for (const value of [
          sso?.inputs.clientSecret,
          sso?.outputs.clientSecret,
          invite?.outputs.code,
        ]) {
          expect(value).toMatchObject({ [specialSigKey]: specialSecretSig });
        }
        expect(sso?.outputs.clientSecret).toMatchObject({
          plaintext: JSON.stringify(ROTATED_SECRET),
        });
        // The same capabilities in another order, one repeated, are no change: the up,
        // refreshing first (what it reads back is written to state and reported), plans
        // the program so edited against what it read, and finds nothing to do: the stack
        // has converged, as `expectConverged` checks it.
        stack.editProgram(
          '["CAP_REPO_BLOBS_GET", "CAP_REPO_LIST", "CAP_TAG_LIST"], // CAPABILITIES',
          '["CAP_TAG_LIST", "CAP_REPO_LIST", "CAP_REPO_BLOBS_GET", "CAP_REPO_LIST"], // CAPABILITIES',
        );
        const refreshed = await stack.up({ refresh: true, expectNoChanges: true });
        expect(refreshed.error).toBeUndefined();
        expect(refreshed.planned).toEqual([]);
        expect(refreshed.changes).toEqual([]);
        expect(refreshed.refreshChanged).toEqual([]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
        const texts = {
          events: [...runs, refreshed].map((run) => withoutDebug(run.output)).join("\n"),
          files: stack.persistedText?.() ?? "",
        };
        // An engine that kept no files would make the search below pass on nothing.
        expect(texts.files).not.toBe("");
        const secrets = {
          CLIENT_SECRET,
          ROTATED_SECRET,
          ...Object.fromEntries(codes.map((c, i) => [`code ${i}`, c])),
        };
        for (const [where, text] of Object.entries(texts)) {
          for (const [which, secret] of Object.entries(secrets)) {
            expect(text.includes(secret), `${which} in ${where}`).toBe(false);
          }
        }
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "destroys everything, one DELETE each, dependants first",
      async () => {
        const destroyed = await stack.destroy({ skipPreview: true });
        expect(destroyed.error).toBeUndefined();
        const writes = writesOf(await stack.takeRequests());
        expect([...writes].sort()).toEqual(
          [
            "DELETE /iam/v2beta1/accountAssociations/<accounts> 200",
            "DELETE /iam/v2beta1/groupInvites/<invite> 200",
            "DELETE /iam/v2beta1/identityProviders/<sso> 200",
            "DELETE /iam/v2beta1/roles/<deployers> 200",
          ].sort(),
        );
        // The role goes after the provider and the invite that name it.
        const roleDelete = writes.indexOf("DELETE /iam/v2beta1/roles/<deployers> 200");
        for (const dependant of ["identityProviders/<sso>", "groupInvites/<invite>"]) {
          expect(writes.indexOf(`DELETE /iam/v2beta1/${dependant} 200`)).toBeLessThan(roleDelete);
        }
        expect(await stack.resources()).toEqual([]);
      },
      ENGINE_TIMEOUT_MS,
    );
  },
);
