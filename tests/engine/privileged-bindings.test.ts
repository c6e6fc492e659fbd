/**
 * The shipped policy pack (`node_modules/pulumi-irm/policy`, as the README runs it)
 * on the real engine, with GitHub Actions identities bound to a privileged role in
 * each form the role can take, all in one program: looked up by name (`owner`), a
 * `Role` of the stack with owner's capabilities, a literal built-in uid, a custom role
 * with owner's capabilities under another name looked up by name, and a role (also an
 * identity provider's default role) whose uid is not known in preview. `pulumi preview`
 * and `pulumi up --policy-pack` (which previews first) each refuse every form as
 * mandatory, naming each binding, and write nothing: the emulator's request log has no
 * write and the service holds no identity or binding. A viewer binding passes.
 * (Each form's judgement, one at a time: tests/policy/.)
 */
import * as path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import { POLICY_NAMES } from "../../policy/policies";
import { IrmClient, type Role } from "../../sdk/index";
import { createEngineStack, describeOnEngine, type EngineStack } from "../support/engine-stack";
import { policyFindings } from "../support/policy-events";

/** Each engine run takes 10 to 30 seconds on a shared machine; a test makes one or two. */
const RUN_TIMEOUT_MS = 240_000;
const WORKLOAD = POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity;

describeOnEngine(
  "privileged bindings are refused in the first preview, before any write",
  { shuffle: false, timeout: RUN_TIMEOUT_MS },
  () => {
    let emulator: TestEmulator;
    let client: IrmClient;
    let stack: EngineStack;
    let groupUid: string;
    let owner: Role;
    let viewer: Role;
    const pack = () => path.join(inject("realEngine").base, "node_modules", "pulumi-irm", "policy");

    beforeAll(async () => {
      emulator = await startTestEmulator();
      client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
      [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "infra" }] })
      ).groups;
      const roles = await client.iam.roles.list({ pageSize: 200 }).all();
      owner = roles.find((r) => r.name === "owner") as Role;
      viewer = roles.find((r) => r.name === "viewer") as Role;
      stack = await createEngineStack({
        name: "privileged-bindings",
        program: path.join(__dirname, "fixtures", "privileged-bindings"),
        emulator,
        projectConfig: { groupUid, roleForm: "every" },
      });
    }, 120_000);

    afterAll(async () => {
      await client?.close();
      await stack?.dispose();
      await emulator?.close();
    });

    /** What the group holds on the service: identities and bindings. */
    async function onService(): Promise<string[]> {
      const identities = await client.iam.identities.list({ childrenOf: groupUid }).all();
      const bindings = await client.iam.roleBindings.list({ childrenOf: groupUid }).all();
      return [
        ...identities.map((i) => `identity ${i.name}`),
        ...bindings.map((b) => `binding ${b.uid}`),
      ];
    }

    /**
     * `pulumi up` with the shipped pack (and, with `preview`, `pulumi preview` first): each
     * fails on the mandatory findings expected, saying `text`, with no write and nothing
     * on the service or in state. `up` previews first, as users run it, and the pack
     * refuses that preview: the same judgement as `pulumi preview`'s.
     */
    async function refusedBeforeAnyWrite(
      expected: string[],
      text: string[],
      { preview: alsoPreview = false } = {},
    ): Promise<void> {
      if (alsoPreview) {
        const preview = await stack.preview({ policyPacks: [pack()] });
        expect(preview.error).toBeDefined();
        const mandatory = policyFindings(preview.output).filter((f) => f.includes(" mandatory "));
        expect(mandatory).toEqual(expected.sort());
        for (const words of text) expect(preview.output).toContain(words);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
      }

      const up = await stack.up({ policyPacks: [pack()] });
      expect(up.error).toBeDefined();
      expect(policyFindings(up.output).filter((f) => f.includes(" mandatory "))).toEqual(
        expected.sort(),
      );
      for (const words of text) expect(up.output).toContain(words);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      expect(await stack.resources()).toEqual([]);
      expect(await onService()).toEqual([]);
    }

    it("every privileged form in one program: refused by preview and by up, each binding named, 0 writes", async () => {
      // A custom role with owner's capabilities under another name, made outside the stack.
      const custom = await client.iam.roles.create(groupUid, {
        name: "deploy-admin",
        description: "owner under another name",
        capabilities: owner.capabilities,
      });
      await stack.setConfig("literalRoleUid", owner.uid);
      await stack.setConfig("customRoleName", custom.name);
      await stack.setConfig("unknownRoleUid", viewer.uid);
      await refusedBeforeAnyWrite(
        [
          `${WORKLOAD} mandatory by-name-role`,
          `${WORKLOAD} mandatory stack-role-role`,
          `${WORKLOAD} mandatory literal-role`,
          `${WORKLOAD} mandatory custom-role`,
          `${WORKLOAD} mandatory unknown-role`,
          `${POLICY_NAMES.noPrivilegedDefaultRole} mandatory sso`,
        ],
        [
          // getRoleOutput({ name: "owner" })
          "RoleBinding 'by-name-role' gives the privileged role 'owner' to identity 'by-name'",
          // a Role of the stack with owner's capabilities under another name
          "RoleBinding 'stack-role-role' gives role 'release-manager', which can grant access (CAP_IAM_",
          // owner's uid written literally
          "RoleBinding 'literal-role' gives the privileged role 'owner'",
          // a custom role with owner's capabilities, looked up by its own name
          "RoleBinding 'custom-role' gives role 'deploy-admin', which can grant access (CAP_IAM_",
          // a role not known in preview, for the binding and an identity provider
          "RoleBinding 'unknown-role' cannot be judged yet",
          "IdentityProvider 'sso' cannot be judged yet",
        ],
        { preview: true },
      );
    });

    it("viewer by lookup passes the pack, and up creates the identity and the binding", async () => {
      await stack.setConfig("roleForm", "lookup");
      await stack.setConfig("roleName", "viewer");
      const up = await stack.up({ policyPacks: [pack()] });
      expect(up.error).toBeUndefined();
      expect(policyFindings(up.output).filter((f) => f.includes(" mandatory "))).toEqual([]);
      expect(writesOf(await stack.takeRequests()).map((w) => w.split(" ")[0])).toEqual([
        "POST",
        "POST",
      ]);
      expect((await onService()).length).toBe(2);
    });
  },
);
