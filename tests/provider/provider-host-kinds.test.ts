/**
 * Role, IdentityProvider, GroupInvite and AccountAssociation through the real provider
 * host: a program under `runtime.setMocks` serializes each type's provider from an
 * installed copy of the package, and `@pulumi/pulumi`'s dynamic-provider host runs it
 * over gRPC against the emulator, as the engine would. A broken `exports` map, a
 * captured client, a leaked client secret or invite code fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject } from "../../harness/installed-package";
import {
  type PropertyMap,
  type ProviderHost,
  startProviderHost,
  UNKNOWN_VALUE,
} from "../../harness/provider-host";
import type * as Package from "../../provider/index";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";

type Pulumi = typeof import("@pulumi/pulumi");

const PROJECT = "provider-host-kinds";
const CLIENT_SECRET = "host-client-secret-3b9a71-never-logged";
const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);

let project: ConsumerProject;
let pkg: typeof Package;
/** Serialized provider of each type token, from the program's registrations. */
const providers = new Map<string, string>();
let emu: ProviderFixture;
let host: ProviderHost;
let groupUid: string;
let viewerRoleUid: string;

function urn(type: string, name: string): string {
  return `urn:pulumi:dev::${PROJECT}::${type}::${name}`;
}

/** Runs a program declaring one resource of each type, to collect their serialized providers. */
async function serializeProviders(): Promise<void> {
  const pulumi = project.require("@pulumi/pulumi") as Pulumi;
  pkg = project.require("pulumi-irm") as typeof Package;
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        providers.set(args.type, args.inputs.__provider as string);
        return { id: `${ROOT}/${String(providers.size).padStart(16, "0")}`, state: args.inputs };
      },
      call: () => ({}),
    },
    "program",
    "dev",
    false,
  );
  const role = new pkg.Role("r", { parentUid: ROOT, name: "r", capabilities: ["CAP_REPO_LIST"] });
  new pkg.IdentityProvider("idp", {
    parentUid: ROOT,
    name: "idp",
    defaultRole: ROLE,
    oidc: { issuer: "https://login.example.com", clientId: "c" },
    clientSecret: CLIENT_SECRET,
  });
  new pkg.GroupInvite("inv", { groupUid: ROOT, roleUid: ROLE, ttl: 60 });
  const association = new pkg.AccountAssociation("acc", {
    groupUid: ROOT,
    name: "acc",
    amazon: { account: "123456789012" },
  });
  await new Promise<void>((resolve) =>
    pulumi.all([role.uid, association.uid]).apply(() => resolve()),
  );
}

beforeAll(async () => {
  project = createConsumerProject({
    name: "provider-host-kinds",
    requiredSubpaths: [".", "./provider/runtime", "./sdk"],
  });
  await serializeProviders();
  emu = await startProviderFixture();
  [groupUid] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "host" }] })).groups;
  viewerRoleUid = (await emu.client.iam.roles.list({ name: "viewer" })).items[0].uid;
  host = await startProviderHost({ cwd: project.dir, projectName: PROJECT });
  await host.configure({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
}, 120_000);

afterAll(async () => {
  await host?.close();
  await emu?.close();
});

/** Check, then create; answers the id, the outputs and the checked inputs. */
async function checkAndCreate(type: string, name: string, news: PropertyMap) {
  const checked = await host.check(
    urn(type, name),
    {},
    { ...news, __provider: providers.get(type) },
  );
  expect(checked.failures).toEqual([]);
  const created = await host.create(urn(type, name), checked.inputs);
  return { id: created.id, outs: created.properties, inputs: checked.inputs };
}

const requestsOf = async () =>
  (await emu.requests()).map((r) => `${r.method} ${r.query ? `${r.query}` : r.path}`);

describe("the four IAM resources in the real provider host", () => {
  it("registers each class under its type token, each with a thin shim", () => {
    const types = [pkg.Role, pkg.IdentityProvider, pkg.GroupInvite, pkg.AccountAssociation].map(
      (c) => c.__pulumiType,
    );
    expect(types).toEqual([
      "pulumi-nodejs:dynamic/irm:Role",
      "pulumi-nodejs:dynamic/irm:IdentityProvider",
      "pulumi-nodejs:dynamic/irm:GroupInvite",
      "pulumi-nodejs:dynamic/irm:AccountAssociation",
    ]);
    for (const type of types) {
      const provider = providers.get(type) ?? "";
      expect(provider.length, type).toBeLessThan(2048);
      expect(provider).toContain('require("pulumi-irm/provider/runtime")');
      expect(provider).not.toContain(CLIENT_SECRET);
    }
  });

  it("runs check (unknowns pass), create, diff, update, read and delete for each", async () => {
    const roleType = pkg.Role.__pulumiType;
    const preview = await host.check(
      urn(roleType, "later"),
      {},
      {
        parentUid: UNKNOWN_VALUE,
        name: "later",
        capabilities: [UNKNOWN_VALUE],
        __provider: providers.get(roleType),
      },
    );
    expect(preview.failures).toEqual([]);

    // Role: capabilities as a set.
    await emu.clearRequests();
    const role = await checkAndCreate(roleType, "readers", {
      parentUid: groupUid,
      name: "readers",
      capabilities: ["CAP_TAG_LIST", "CAP_REPO_LIST"],
    });
    expect(role.outs).toMatchObject({
      uid: role.id,
      capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"],
    });
    const reordered = {
      ...role.inputs,
      capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST", "CAP_TAG_LIST"],
    };
    expect((await host.diff(role.id, urn(roleType, "readers"), role.outs, reordered)).changes).toBe(
      "none",
    );
    // State written before capabilities were the API's enum names (a *.get had a name
    // of its own): through the host, the same set in enum names is no change.
    const formerState = { ...role.outs, capabilities: ["repos.get", "repos.list", "tags.list"] };
    expect(
      (await host.diff(role.id, urn(roleType, "readers"), formerState, role.inputs)).changes,
    ).toBe("none");
    expect(
      (
        await host.diff(role.id, urn(roleType, "readers"), formerState, {
          ...role.inputs,
          capabilities: ["CAP_REPO_LIST"],
        })
      ).changes,
    ).not.toBe("none");
    const wider = {
      ...role.inputs,
      capabilities: ["CAP_REPO_LIST", "CAP_MANIFEST_LIST", "CAP_TAG_LIST"],
    };
    const roleAfter = await host.update(role.id, urn(roleType, "readers"), role.outs, wider);
    expect(roleAfter.capabilities).toEqual(["CAP_MANIFEST_LIST", "CAP_REPO_LIST", "CAP_TAG_LIST"]);

    // IdentityProvider: the secret goes out once per change, comes back only as sent.
    const idpType = pkg.IdentityProvider.__pulumiType;
    const idp = await checkAndCreate(idpType, "sso", {
      parentUid: groupUid,
      name: "corp sso",
      defaultRole: role.id,
      oidc: { issuer: "https://login.example.com", clientId: "irm" },
      clientSecret: CLIENT_SECRET,
    });
    expect(idp.outs).toMatchObject({ clientSecret: CLIENT_SECRET, defaultRole: role.id });
    const oid = {
      ...idp.inputs,
      oidc: {
        ...(idp.inputs.oidc as PropertyMap),
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
      },
    };
    expect((await host.diff(idp.id, urn(idpType, "sso"), idp.outs, oid)).replaces).toEqual([
      "oidc",
    ]);
    const idpRead = await host.read(idp.id, urn(idpType, "sso"), idp.outs);
    expect(idpRead.properties.clientSecret).toBe(CLIENT_SECRET);
    expect(idpRead.inputs?.clientSecret).toBe(CLIENT_SECRET);

    // GroupInvite: the code from the create answer, kept by refresh; a change replaces.
    const inviteType = pkg.GroupInvite.__pulumiType;
    const invite = await checkAndCreate(inviteType, "invite", {
      groupUid,
      roleUid: viewerRoleUid,
      ttl: 3600,
    });
    expect(invite.outs.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const inviteRead = await host.read(invite.id, urn(inviteType, "invite"), invite.outs);
    expect(inviteRead.properties.code).toBe(invite.outs.code);
    // Read by uid alone, as the static get does: what the API never answers is empty,
    // the lifetime comes from the invite's times.
    const got = await host.read(invite.id, urn(inviteType, "got"), {
      __provider: providers.get(inviteType),
    });
    expect(got.properties).toMatchObject({ uid: invite.id, groupUid, ttl: "3600s", code: "" });
    const gotIdp = await host.read(idp.id, urn(idpType, "got"), {
      __provider: providers.get(idpType),
    });
    expect(gotIdp.properties).toMatchObject({ uid: idp.id, name: "corp sso", clientSecret: "" });
    const emailed = { ...invite.inputs, email: "dev@example.com" };
    expect(
      (await host.diff(invite.id, urn(inviteType, "invite"), invite.outs, emailed)).replaces,
    ).toEqual(["email"]);

    // AccountAssociation: uid is the group's.
    const associationType = pkg.AccountAssociation.__pulumiType;
    const association = await checkAndCreate(associationType, "accounts", {
      groupUid,
      name: "prod",
      amazon: { account: "123456789012" },
    });
    expect(association.id).toBe(groupUid);
    const google = {
      ...association.inputs,
      google: { projectId: "acme-prod", projectNumber: "7" },
    };
    await emu.clearRequests();
    await host.update(groupUid, urn(associationType, "accounts"), association.outs, google);
    expect(await requestsOf()).toEqual(["PATCH updateMask=google"]);

    // Delete, dependants first: one DELETE each.
    await emu.clearRequests();
    await host.delete(groupUid, urn(associationType, "accounts"), association.outs);
    await host.delete(invite.id, urn(inviteType, "invite"), inviteRead.properties);
    await host.delete(idp.id, urn(idpType, "sso"), idpRead.properties);
    await host.delete(role.id, urn(roleType, "readers"), roleAfter);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "DELETE 200",
      "DELETE 200",
      "DELETE 200",
      "DELETE 200",
    ]);

    // Neither the token nor the client secret nor the code in the host's log.
    const log = host.stderr();
    for (const secret of [emu.token, CLIENT_SECRET, invite.outs.code as string]) {
      expect(log).not.toContain(secret);
    }
  });

  it("a refused create names the field, never the client secret", async () => {
    const idpType = pkg.IdentityProvider.__pulumiType;
    const checked = await host.check(
      urn(idpType, "bad"),
      {},
      {
        parentUid: groupUid,
        name: "bad role",
        defaultRole: "f".repeat(40),
        oidc: { issuer: "https://login.example.com", clientId: "irm" },
        clientSecret: CLIENT_SECRET,
        __provider: providers.get(idpType),
      },
    );
    const error = await host.create(urn(idpType, "bad"), checked.inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/f{40}/);
    expect(error?.message).not.toContain(CLIENT_SECRET);
    expect(host.stderr()).not.toContain(CLIENT_SECRET);
  });
});
