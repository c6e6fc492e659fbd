/**
 * A registry repository and an event subscription on the engine (`fixtures/registry`):
 * preview writes nothing, `up` makes the repo with one POST and its README's PATCH and
 * the subscription with one POST, and converges; a changed tier is one PATCH masked to
 * it, a changed README one PATCH of the README, a new sink a new subscription before the
 * old one's delete; destroy deletes both.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import { IrmClient } from "../../sdk";
import {
  createEngineStack,
  type EngineStack,
  expectConverged,
  hasRealEngine,
  type Step,
} from "../support/engine-stack";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();
const ENGINE_TIMEOUT_MS = 240_000;

describe.skipIf(!hasRealEngine())(
  "a registry repository and a subscription on the engine",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let groupUid: string;
    let client: IrmClient;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "images" }] })
      ).groups;
      client = new IrmClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
      stack = await createEngineStack({
        name: "registry",
        program: path.join(__dirname, "fixtures", "registry"),
        emulator,
        projectConfig: { groupUid },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await client?.close();
      await emulator?.close();
    });

    it(
      "previews the repo and the subscription without writing",
      async () => {
        const preview = await stack.preview();
        expect(preview.error).toBeUndefined();
        expect(describeSteps(preview.changes)).toEqual(["create hooks", "create web"]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "creates the repo with one POST and the README's PATCH, the subscription with one POST, and converges",
      async () => {
        const result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        // The log names the root `ROOT`; the group is the program's input, not a resource.
        const group = `ROOT/${groupUid.slice(groupUid.lastIndexOf("/") + 1)}`;
        expect(writesOf(await stack.takeRequests()).sort()).toEqual(
          [
            `POST /registry/v2beta1/repos/${group} 200`,
            "PATCH /registry/v2beta1/repos/<web>/readme?updateMask=content 200",
            `POST /events/v2beta1/subscriptions/${group} 200`,
          ].sort(),
        );
        const readme = await client.registry.repos.getReadme(stack.uidOf("web"));
        expect(readme.content).toBe("# Web\n\nThe web image.");
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "a new tier is one PATCH of catalog_tier; a new README one PATCH of the README",
      async () => {
        stack.editProgram(
          'catalogTier: "CATALOG_TIER_APPLICATION", // TIER',
          'catalogTier: "CATALOG_TIER_BASE", // TIER',
        );
        let result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.changes)).toEqual(["update web"]);
        expect(writesOf(await stack.takeRequests())).toEqual([
          "PATCH /registry/v2beta1/repos/<web>?updateMask=catalog_tier 200",
        ]);
        stack.editProgram(
          'readme: "# Web\\n\\nThe web image.", // README',
          'readme: "# Web", // README',
        );
        result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(writesOf(await stack.takeRequests())).toEqual([
          "PATCH /registry/v2beta1/repos/<web>/readme?updateMask=content 200",
        ]);
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "a new sink is a new subscription, then the old one's delete",
      async () => {
        const before = stack.uidOf("hooks");
        stack.editProgram(
          'sink: "https://hooks.example.com/registry", // SINK',
          'sink: "https://hooks.example.com/v2", // SINK',
        );
        const result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.changes)).toEqual(["delete-replaced hooks", "replace hooks"]);
        const writes = writesOf(await stack.takeRequests());
        expect(writes).toHaveLength(2);
        expect(writes[0]).toMatch(
          /^POST \/events\/v2beta1\/subscriptions\/ROOT\/[0-9a-f]{16} 200$/,
        );
        expect(writes[1]).toMatch(/^DELETE \/events\/v2beta1\/subscriptions\/\S+ 200$/);
        expect(stack.uidOf("hooks")).not.toBe(before);
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "destroy deletes the repo and the subscription",
      async () => {
        const uid = stack.uidOf("web");
        const result = await stack.destroy();
        expect(result.error).toBeUndefined();
        expect(writesOf(await stack.takeRequests()).sort()).toEqual([
          "DELETE /events/v2beta1/subscriptions/<hooks> 200",
          "DELETE /registry/v2beta1/repos/<web> 200",
        ]);
        const left = await client.registry.repos.list({ childrenOf: groupUid });
        expect(left.items.map((r) => r.uid)).not.toContain(uid);
      },
      ENGINE_TIMEOUT_MS,
    );
  },
);
