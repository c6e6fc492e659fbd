/**
 * The shipped policy pack (`node_modules/pulumi-irm/policy`, as the README runs it)
 * on the real engine, with a GitHub Actions identity bound to a privileged role in
 * each form the role can take: looked up by name (`owner`), a `Role` of the stack with
 * owner's capabilities, a literal built-in uid, a custom role with owner's capabilities
 * under another name looked up by name, and a role (also an identity provider's default
 * role) whose uid is not known in preview. `pulumi up --policy-pack` refuses each as
 * mandatory in the preview it runs first, and writes nothing: the emulator's request
 * log has no write and the service holds neither the identity nor the binding. The
 * same pack's `pulumi preview` is the same judgement; the first case runs it too. A
 * viewer binding passes.
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
        projectConfig: { groupUid, roleForm: "lookup", roleName: "owner" },
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
     * refuses that preview: the same judgement as `pulumi preview`'s, which the first
     * case proves once.
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

    it("owner by getRoleOutput({ name: 'owner' }): refused by preview and by up, 0 writes", async () => {
      await refusedBeforeAnyWrite(
        [`${WORKLOAD} mandatory deployer-role`],
        ["RoleBinding 'deployer-role' gives the privileged role 'owner' to identity 'deployer'"],
        { preview: true },
      );
    });

    it("a Role of the stack with owner's capabilities under another name: refused by up, 0 writes", async () => {
      await stack.setConfig("roleForm", "stackRole");
      await refusedBeforeAnyWrite(
        [`${WORKLOAD} mandatory deployer-role`],
        ["gives role 'release-manager', which can grant access (CAP_IAM_"],
      );
    });

    it("owner's uid written literally: refused by up, 0 writes", async () => {
      await stack.setConfig("roleForm", "literal");
      await stack.setConfig("roleUid", owner.uid);
      await refusedBeforeAnyWrite(
        [`${WORKLOAD} mandatory deployer-role`],
        ["RoleBinding 'deployer-role' gives the privileged role 'owner'"],
      );
    });

    it("a custom role with owner's capabilities, looked up by its own name: refused by up, 0 writes", async () => {
      const custom = await client.iam.roles.create(groupUid, {
        name: "deploy-admin",
        description: "owner under another name",
        capabilities: owner.capabilities,
      });
      await stack.setConfig("roleForm", "lookup");
      await stack.setConfig("roleName", custom.name);
      await refusedBeforeAnyWrite(
        [`${WORKLOAD} mandatory deployer-role`],
        ["gives role 'deploy-admin', which can grant access (CAP_IAM_"],
      );
    });

    it("a role not known in preview, for the binding and an identity provider's default role: up refused, 'cannot be judged yet', 0 writes", async () => {
      await stack.setConfig("roleForm", "unknown");
      await stack.setConfig("roleUid", viewer.uid);
      await refusedBeforeAnyWrite(
        [
          `${WORKLOAD} mandatory deployer-role`,
          `${POLICY_NAMES.noPrivilegedDefaultRole} mandatory sso`,
        ],
        [
          "RoleBinding 'deployer-role' cannot be judged yet",
          "IdentityProvider 'sso' cannot be judged yet",
        ],
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
