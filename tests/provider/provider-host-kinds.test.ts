/**
 * Role, IdentityProvider, GroupInvite and AccountAssociation through the real provider
 * host: a program under `runtime.setMocks` serializes each type's provider from an
 * installed copy of the package, and `@pulumi/pulumi`'s dynamic-provider host runs it
 * over gRPC against the emulator, as the engine would. A broken `exports` map, a
 * captured client, a leaked client secret or invite code fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumerProject } from "../../harness/installed-package";
import {
  type PropertyMap,
  type ProviderHost,
  startProviderHost,
  UNKNOWN_VALUE,
} from "../../harness/provider-host";
import type * as Package from "../../provider/index";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";
import {
  iamKindsProgram,
  type Registration,
  registerUnderMocks,
} from "../support/provider-program";

const PROJECT = "provider-host-kinds";
const CLIENT_SECRET = "host-client-secret-3b9a71-never-logged";

let run: Registration;
let pkg: typeof Package;
let emu: ProviderFixture;
let host: ProviderHost;
let groupUid: string;
let viewerRoleUid: string;

function urn(type: string, name: string): string {
  return `urn:pulumi:dev::${PROJECT}::${type}::${name}`;
}

beforeAll(async () => {
  const project = createConsumerProject({
    name: "provider-host-kinds",
    requiredSubpaths: [".", "./provider/runtime", "./sdk"],
  });
  // A program declaring one resource of each type, to collect their serialized providers.
  run = await registerUnderMocks(project, iamKindsProgram(CLIENT_SECRET));
  pkg = run.pkg;
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

/** The host's check of a new resource `name` of `type`, with the type's provider. */
const check = (type: string, name: string, news: PropertyMap) =>
  host.check(urn(type, name), {}, { ...news, __provider: run.providerOf(type) });

/** Reads by uid alone, as a resource's static get does. */
const readByUid = (type: string, id: string, name: string) =>
  host.read(id, urn(type, name), { __provider: run.providerOf(type) });

/** Check, then create; answers the id, the outputs and the checked inputs. */
async function checkAndCreate(type: string, name: string, news: PropertyMap) {
  const checked = await check(type, name, news);
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
      const provider = run.providerOf(type);
      expect(provider.length, type).toBeLessThan(2048);
      expect(provider).toContain('require("pulumi-irm/provider/runtime")');
      expect(provider).not.toContain(CLIENT_SECRET);
    }
  });

  it("runs check (unknowns pass), create, diff, update, read and delete for each", async () => {
    const roleType = pkg.Role.__pulumiType;
    const preview = await check(roleType, "later", {
      parentUid: UNKNOWN_VALUE,
      name: "later",
      capabilities: [UNKNOWN_VALUE],
    });
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
    const got = await readByUid(inviteType, invite.id, "got");
    expect(got.properties).toMatchObject({ uid: invite.id, groupUid, ttl: "3600s", code: "" });
    const gotIdp = await readByUid(idpType, idp.id, "got");
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
    const checked = await check(idpType, "bad", {
      parentUid: groupUid,
      name: "bad role",
      defaultRole: "f".repeat(40),
      oidc: { issuer: "https://login.example.com", clientId: "irm" },
      clientSecret: CLIENT_SECRET,
    });
    const error = await host.create(urn(idpType, "bad"), checked.inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/f{40}/);
    expect(error?.message).not.toContain(CLIENT_SECRET);
    expect(host.stderr()).not.toContain(CLIENT_SECRET);
  });
});
