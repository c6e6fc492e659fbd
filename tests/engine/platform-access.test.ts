/**
 * `examples/platform-access`, unmodified, with the package installed from its packed
 * tarball, on the real Pulumi engine: up creates the seven objects with one POST each;
 * an up refreshing first, with the policy pack, then changes nothing and sends no write,
 * the pack passing the example; the SSO client secret (set with
 * `pulumi config set --secret`) and the invite's code appear in nothing the engine
 * keeps or prints except encrypted; the pack refuses a bad variant of the example in
 * preview, before any request; and destroy removes everything.
 *
 * The pack is composed from `pulumi-irm/policy` the way docs/policy.md describes,
 * allowing the example's cluster issuer (the shipped pack allows only GitHub Actions).
 */

import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import { POLICY_NAMES } from "../../policy/policies";
import { IrmClient, roleGroupUid } from "../../sdk/index";
import {
  createEngineStack,
  type EngineStack,
  hasRealEngine,
  type Step,
} from "../support/engine-stack";
import { withoutDebug } from "../support/no-secret";
import { policyFindings } from "../support/policy-events";

/** Each engine run takes 10 to 30 seconds on a shared machine; a test makes up to three. */
const RUN_TIMEOUT_MS = 240_000;

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`);
const sorted = (list: string[]) => [...list].sort();

const RESOURCES = [
  "platform",
  "developer",
  "corporate-sso",
  "new-hire",
  "platform-accounts",
  "cluster-deployer",
  "cluster-deployer-editor",
];
const CLUSTER_ISSUER =
  "https://oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE";
const NEW_POLICIES = [
  POLICY_NAMES.noMatchAllIdentityPattern,
  POLICY_NAMES.noLongLivedOrReusableInvite,
  POLICY_NAMES.noPrivilegedDefaultRole,
];

/** A pack composed from the package's policies, with the example's issuer allowed. */
const COMPOSED_PACK = {
  "PulumiPolicy.yaml":
    "runtime: nodejs\ndescription: irm-guardrails with the platform cluster's issuer allowed.\n",
  "package.json": JSON.stringify({
    name: "platform-guardrails",
    version: "0.1.0",
    main: "index.js",
  }),
  "index.js": `const { PolicyPack } = require("@pulumi/policy");
const { irmPolicies } = require("pulumi-irm/policy");
new PolicyPack("platform-guardrails", {
  policies: irmPolicies({
    identityIssuerAllowList: { config: { allowedIssuers: [${JSON.stringify(CLUSTER_ISSUER)}] } },
  }),
});
`,
};

/** Pulumi's marker of a secret value in an exported state. */
const isSecret = (value: unknown): boolean =>
  typeof value === "object" && value !== null && specialSigKey in value;

describe.runIf(hasRealEngine())(
  "platform-access example on the real engine",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let client: IrmClient;
    let packDir: string;
    const clientSecret = `sso-${randomBytes(18).toString("base64url")}`;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
      stack = await createEngineStack({
        name: "platform-access",
        program: "platform-access",
        emulator,
        projectConfig: { rootGroupUid: emulator.rootGroupUid },
        env: { IRM_DELETE_TIMEOUT_MS: "300" },
      });
      await stack.setConfig("ssoClientSecret", clientSecret, true);
      packDir = path.join(stack.dir, "guardrails");
      fs.mkdirSync(packDir);
      for (const [file, text] of Object.entries(COMPOSED_PACK)) {
        fs.writeFileSync(path.join(packDir, file), text);
      }
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it(
      "up creates the seven objects with one POST each",
      async () => {
        // No plan is asserted: the up runs without its preview. That the stack has
        // converged is the policy test's up, which refreshes first and expects no changes.
        const result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(sorted(describeSteps(result.changes))).toEqual(
          sorted(RESOURCES.map((name) => `create ${name}`)),
        );
        // The association's id is its group's uid, so the log may name that uid after either.
        const writes = writesOf(await stack.takeRequests()).map((w) =>
          w.replace("<platform-accounts>", "<platform>"),
        );
        expect(sorted(writes)).toEqual(
          sorted([
            "POST /iam/v2beta1/groups/ROOT 200",
            "POST /iam/v2beta1/roles/<platform> 200",
            "POST /iam/v2beta1/identityProviders/<platform> 200",
            "POST /iam/v2beta1/groupInvites/<platform> 200",
            "POST /iam/v2beta1/accountAssociations/<platform> 200",
            "POST /iam/v2beta1/identities/<platform> 200",
            "POST /iam/v2beta1/roleBindings/<platform> 200",
          ]),
        );
      },
      RUN_TIMEOUT_MS,
    );

    it("the service holds what the program declares", async () => {
      const platform = stack.uidOf("platform");
      const developer = stack.uidOf("developer");
      const role = await client.iam.roles.get(developer);
      expect(role).toMatchObject({ name: "developer" });
      // A custom role is a child of its group.
      expect(roleGroupUid(developer)).toBe(platform);
      expect(role.capabilities).toContain("CAP_REPO_LIST");
      expect(role.capabilities.some((c) => /^CAP_IAM_ROLE/.test(c))).toBe(false);

      const sso = await client.iam.identityProviders.get(stack.uidOf("corporate-sso"));
      expect(sso).toMatchObject({
        name: "corporate sso",
        defaultRole: developer,
        oidc: {
          issuer: "https://sso.acme.example",
          clientId: "irm-platform",
          additionalScopes: ["email", "profile"],
          groupsClaim: "groups",
        },
      });
      expect(JSON.stringify(sso)).not.toContain(clientSecret);

      const invite = await client.iam.groupInvites.get(stack.uidOf("new-hire"));
      expect(invite).toMatchObject({
        roleUid: developer,
        email: "new.hire@acme.example",
        singleUse: true,
      });
      const lifetime = Date.parse(invite.expirationTime) - Date.parse(invite.createTime);
      expect(lifetime).toBe(3 * 24 * 3600 * 1000);

      const association = await client.iam.accountAssociations.get(platform);
      expect(association).toMatchObject({
        name: "platform accounts",
        amazon: { account: "123456789012" },
      });

      const deployer = await client.iam.identities.get(stack.uidOf("cluster-deployer"));
      expect(deployer.claimMatch).toEqual({
        issuer: CLUSTER_ISSUER,
        subjectPattern: "system:serviceaccount:platform-deploy:(pulumi|argo-cd)",
        audience: "irm.acme.example",
      });

      const outputs = await stack.outputs();
      expect(outputs).toMatchObject({
        platformGroupUid: platform,
        developerRoleUid: developer,
        ssoProviderUid: stack.uidOf("corporate-sso"),
        inviteExpires: invite.expirationTime,
        awsAccountId: "123456789012",
        deployerIdentityUid: stack.uidOf("cluster-deployer"),
      });
      expect(outputs.inviteCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it(
      "the policy pack passes the converged example (no mandatory finding, nothing from the new policies); the client secret and the invite code are out of state, events and logs, but encrypted",
      async () => {
        // One up for all of it, as a pipeline's next run with the pack: refreshing first
        // (the refresh itself, not its preview, writes what it read into state), it reads
        // every object back and finds nothing to change (what expectConverged checks,
        // with the pack added), and the pack checks what the program declares.
        const refreshed = await stack.up({
          policyPacks: [packDir],
          refresh: true,
          expectNoChanges: true,
        });
        expect(refreshed.error).toBeUndefined();
        expect(refreshed.planned).toEqual([]);
        expect(refreshed.changes).toEqual([]);
        // The engine reports `same` for a refresh that moved only outputs.
        expect(refreshed.refreshChanged).toEqual([]);
        const found = policyFindings(refreshed.output);
        expect(found.filter((v) => v.includes(" mandatory "))).toEqual([]);
        expect(found.filter((v) => NEW_POLICIES.some((p) => v.startsWith(`${p} `)))).toEqual([]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);

        const code = String((await stack.outputs()).inviteCode);
        const resources = await stack.resources();
        const outputOf = (name: string, key: string) =>
          resources.find((r) => r.name === name)?.outputs[key];
        // In state both are Pulumi secrets (the export shows them under the secret signature).
        expect(isSecret(outputOf("corporate-sso", "clientSecret"))).toBe(true);
        expect(isSecret(outputOf("new-hire", "code"))).toBe(true);
        // On disk (state, backups, history, logs, config) and in what the run printed
        // (but the debug log of `@pulumi/pulumi` itself, shown only under `--debug`):
        // never the plain values. Compared as booleans, so a failure cannot print them
        // either.
        for (const text of [withoutDebug(refreshed.output), stack.persistedText?.() ?? ""]) {
          expect(text.includes(clientSecret)).toBe(false);
          expect(text.includes(code)).toBe(false);
        }
        expect(stack.persistedText?.()).not.toBe("");
      },
      RUN_TIMEOUT_MS,
    );

    it(
      "refuses a bad variant in preview: match-all subject, long-lived reusable invite, granting default role",
      async () => {
        const edits: Array<[string, string]> = [
          [
            'subjectPattern: "system:serviceaccount:platform-deploy:(pulumi|argo-cd)"',
            'subjectPattern: ".*"',
          ],
          ["ttl: 3 * 24 * 3600,", "ttl: 30 * 24 * 3600,"],
          ["singleUse: true,", "singleUse: false,"],
          [
            '"CAP_ADVISORIES_LIST",\n  ],',
            '"CAP_ADVISORIES_LIST",\n    "CAP_IAM_ROLE_BINDINGS_CREATE",\n  ],',
          ],
        ];
        const state = await stack.resources();
        for (const [before, after] of edits) stack.editProgram(before, after);
        try {
          const refused = await stack.preview({ policyPacks: [packDir] });
          expect(refused.error).toBeDefined();
          const found = policyFindings(refused.output).filter((v) =>
            NEW_POLICIES.some((p) => v.startsWith(`${p} `)),
          );
          expect(found).toEqual(
            sorted([
              `${POLICY_NAMES.noMatchAllIdentityPattern} mandatory cluster-deployer`,
              `${POLICY_NAMES.noLongLivedOrReusableInvite} mandatory new-hire`,
              `${POLICY_NAMES.noPrivilegedDefaultRole} mandatory corporate-sso`,
            ]),
          );
          expect(refused.output).toContain("claimMatch.subjectPattern '.*'");
          expect(refused.output).toContain("lives 2592000s (30 days)");
          expect(refused.output).toContain("is reusable");
          expect(refused.output).toContain("which can grant access (CAP_IAM_ROLE_BINDINGS_CREATE)");
          expect(writesOf(await stack.takeRequests())).toEqual([]);
        } finally {
          for (const [before, after] of edits) stack.editProgram(after, before);
        }
        // The refused preview left the stack as it was (and wrote nothing, above).
        expect(await stack.resources()).toEqual(state);
      },
      RUN_TIMEOUT_MS,
    );

    it(
      "destroy deletes every object, one DELETE each, and leaves nothing behind",
      async () => {
        const platform = stack.uidOf("platform");
        const result = await stack.destroy({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(sorted(describeSteps(result.changes))).toEqual(
          sorted(RESOURCES.map((name) => `delete ${name}`)),
        );
        const deletes = writesOf(await stack.takeRequests());
        expect(deletes).toHaveLength(RESOURCES.length);
        expect(deletes.every((w) => w.startsWith("DELETE ") && w.endsWith(" 200"))).toBe(true);
        expect(await stack.resources()).toEqual([]);
        // A group with a custom role, identity provider, invite or account association left
        // cannot be deleted (RESOURCE_NOT_EMPTY): its absence shows those went first.
        const left: string[] = [];
        for await (const group of client.iam.groups.list({ childrenOf: emulator.rootGroupUid })) {
          left.push(group.uid);
        }
        expect(left).not.toContain(platform);
      },
      RUN_TIMEOUT_MS,
    );
  },
);
