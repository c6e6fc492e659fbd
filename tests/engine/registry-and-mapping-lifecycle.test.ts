/**
 * A registry repository, an event subscription, an identity provider and an
 * `ExternalGroupRoleMapping` on the engine, in one program of one group
 * (`fixtures/registry-and-mapping`): the preview `up` runs first writes nothing; `up`
 * makes the repo with one POST and its README's PATCH, the subscription, the provider and the mapping with one
 * POST each, and converges; a changed tier is one PATCH masked to it, a changed README
 * one PATCH of the README; a new sink is a new subscription and a changed outside group
 * a new mapping, each made before the old one's delete; destroy deletes everything, the
 * mapping before its identity provider. Where one pipeline run carries independent
 * changes, one `up` makes them together and each is asserted on its own requests.
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

/** The writes of one API's paths (`/registry/`, `/events/`, `/iam/`), in log order. */
const writesTo = (writes: string[], api: string) =>
  writes.filter((w) => w.split(" ")[1].startsWith(`/${api}/`));

describe.skipIf(!hasRealEngine())(
  "a registry repository, a subscription and an outside group's role mapping on the engine",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let groupUid: string;
    /** The seeded group, as the request log names a uid no resource holds. */
    let groupPath: string;
    let client: IrmClient;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "platform" }] })
      ).groups;
      // The log names the root `ROOT`; the group is the program's input, not a resource.
      groupPath = `ROOT/${groupUid.slice(groupUid.lastIndexOf("/") + 1)}`;
      client = new IrmClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
      stack = await createEngineStack({
        name: "registry-and-mapping",
        program: path.join(__dirname, "fixtures", "registry-and-mapping"),
        emulator,
        projectConfig: { groupUid, rootUid: emulator.rootGroupUid },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await client?.close();
      await emulator?.close();
    });

    it(
      "previews the four resources, then creates the repo with one POST and the README's PATCH, the others with one POST each (the preview wrote nothing), and converges",
      async () => {
        // One up as users run it, previewing first: its plan is what `pulumi preview`
        // shows, and its only writes are the creates'.
        const result = await stack.up();
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.planned ?? [])).toEqual([
          "create hooks",
          "create sso",
          "create staff",
          "create web",
        ]);
        expect(writesOf(await stack.takeRequests()).sort()).toEqual(
          [
            `POST /registry/v2beta1/repos/${groupPath} 200`,
            "PATCH /registry/v2beta1/repos/<web>/readme?updateMask=content 200",
            `POST /events/v2beta1/subscriptions/${groupPath} 200`,
            `POST /iam/v2beta1/identityProviders/${groupPath} 200`,
            "POST /iam/v2beta1/externalGroupRoleMappings/<sso> 200",
          ].sort(),
        );
        const readme = await client.registry.repos.getReadme(stack.uidOf("web"));
        expect(readme.content).toBe("# Web\n\nThe web image.");
        const staff = (await stack.resources()).find((r) => r.name === "staff");
        expect(staff?.outputs).toMatchObject({
          externalGroupId: "engineering",
          scope: emulator.rootGroupUid,
          identityProviderUid: stack.uidOf("sso"),
        });
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
        expect(describeSteps(result.changes)).toEqual(["update web"]);
        expect(writesOf(await stack.takeRequests())).toEqual([
          "PATCH /registry/v2beta1/repos/<web>/readme?updateMask=content 200",
        ]);
        // That the stack converged after these updates is the next test's: its up
        // changes only what it edits, and its refreshing preview finds nothing.
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "a new sink is a new subscription and a changed outside group a new mapping, each made before the old one's delete",
      async () => {
        const hooksBefore = stack.uidOf("hooks");
        const staffBefore = stack.uidOf("staff");
        stack.editProgram(
          'sink: "https://hooks.example.com/registry", // SINK',
          'sink: "https://hooks.example.com/v2", // SINK',
        );
        stack.editProgram(
          'externalGroupId: "engineering", // GROUP',
          'externalGroupId: "eng-all", // GROUP',
        );
        // Two independent replacements in one up; each is checked on its own below.
        const result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.changes)).toEqual([
          "delete-replaced hooks",
          "delete-replaced staff",
          "replace hooks",
          "replace staff",
        ]);
        const writes = writesOf(await stack.takeRequests());
        expect(writes).toHaveLength(4);
        const events = writesTo(writes, "events");
        expect(events).toHaveLength(2);
        expect(events[0]).toMatch(
          /^POST \/events\/v2beta1\/subscriptions\/ROOT\/[0-9a-f]{16} 200$/,
        );
        expect(events[1]).toMatch(/^DELETE \/events\/v2beta1\/subscriptions\/\S+ 200$/);
        expect(writesTo(writes, "iam")).toEqual([
          "POST /iam/v2beta1/externalGroupRoleMappings/<sso> 200",
          "DELETE /iam/v2beta1/externalGroupRoleMappings/<staff> 200",
        ]);
        expect(stack.uidOf("hooks")).not.toBe(hooksBefore);
        expect(stack.uidOf("staff")).not.toBe(staffBefore);
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "destroy deletes the repo and the subscription, and the mapping before its identity provider",
      async () => {
        const uid = stack.uidOf("web");
        const result = await stack.destroy({ skipPreview: true });
        expect(result.error).toBeUndefined();
        const writes = writesOf(await stack.takeRequests());
        expect(writes).toHaveLength(4);
        expect([...writesTo(writes, "events"), ...writesTo(writes, "registry")]).toEqual([
          "DELETE /events/v2beta1/subscriptions/<hooks> 200",
          "DELETE /registry/v2beta1/repos/<web> 200",
        ]);
        expect(writesTo(writes, "iam")).toEqual([
          "DELETE /iam/v2beta1/externalGroupRoleMappings/<staff> 200",
          "DELETE /iam/v2beta1/identityProviders/<sso> 200",
        ]);
        expect(await stack.resources()).toEqual([]);
        const left = await client.registry.repos.list({ childrenOf: groupUid });
        expect(left.items.map((r) => r.uid)).not.toContain(uid);
      },
      ENGINE_TIMEOUT_MS,
    );
  },
);
