/**
 * The IAM additions end to end against the emulator: identity providers, group
 * invites, account associations, identity kinds, the collection-specific list
 * filters and the refined custom-role rules, each through the SDK's verbs, with
 * the emulator's request log for what went over the wire.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  AlreadyExistsError,
  type Identity,
  InvalidArgumentError,
  type IrmClient,
  NotFoundError,
  type RoleCreate,
} from "../../sdk";
import { clientFor, closeClients, failure, requestLines } from "../support/sdk-helpers";

let emu: TestEmulator;
let client: IrmClient;
let team: string;
let viewer: string;

/** Everything of a value or an error someone could print. */
function printed(value: unknown): string {
  const error = value as Error;
  return `${String(value)}\n${error?.stack ?? ""}\n${inspect(value, { depth: 6 })}\n${JSON.stringify(value)}`;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  client = clientFor(emu).client;
  team = (await client.iam.groups.create(emu.rootGroupUid, { name: "iam extras" })).uid;
  const roles = await client.iam.roles.list({ name: "viewer" });
  viewer = roles.items[0].uid;
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(async () => {
  await emu.clearRequests();
});

describe("identity providers on the emulator", () => {
  const SECRET = "client-secret-0f9e8d7c6b5a";
  const body = () => ({
    name: "corporate sso",
    defaultRole: viewer,
    oidc: {
      issuer: "https://sso.example.com",
      clientId: "irm-client",
      clientSecret: SECRET,
      additionalScopes: ["email"],
    },
  });

  it("creates, reads, lists, updates and deletes", async () => {
    const created = await client.iam.identityProviders.create(team, body());
    expect(created.uid.startsWith(`${team}/`)).toBe(true);
    expect(created.oidc).toEqual({
      issuer: "https://sso.example.com",
      clientId: "irm-client",
      additionalScopes: ["email"],
      groupsClaim: "",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
    });
    expect(printed(created)).not.toContain(SECRET);
    expect(await client.iam.identityProviders.get(created.uid)).toEqual(created);
    const page = await client.iam.identityProviders.list({
      childrenOf: team,
      name: "corporate sso",
    });
    expect(page.items.map((p) => p.uid)).toEqual([created.uid]);

    const updated = await client.iam.identityProviders.update(
      created.uid,
      { oidc: { pkceEnabled: true, groupsClaim: "groups" }, description: "ignored" },
      { updateMask: ["oidc.pkce_enabled", "oidc.groups_claim"] },
    );
    expect(updated.oidc).toMatchObject({ pkceEnabled: true, groupsClaim: "groups" });
    expect(updated.description).toBe("");

    await client.iam.identityProviders.delete(created.uid);
    const gone = await failure(client.iam.identityProviders.get(created.uid));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(client.iam.identityProviders.isGone(gone, created.uid)).toBe(true);
    const path = `/iam/v2beta1/identityProviders/${created.uid}`;
    expect(await requestLines(emu)).toEqual([
      `POST /iam/v2beta1/identityProviders/${team} -> 200`,
      `GET ${path} -> 200`,
      `GET /iam/v2beta1/identityProviders?uidp.children_of=${encodeURIComponent(team)}&name=corporate%20sso -> 200`,
      `PATCH ${path}?updateMask=oidc.pkce_enabled,oidc.groups_claim -> 200`,
      `DELETE ${path} -> 200`,
      `GET ${path} -> 404`,
    ]);
  });

  it("refuses a clear of the secret without PKCE, and no error shows the secret", async () => {
    const created = await client.iam.identityProviders.create(team, body());
    const refused = await failure(
      client.iam.identityProviders.update(
        created.uid,
        { oidc: { clientSecret: "" } },
        { updateMask: ["oidc.client_secret"] },
      ),
    );
    expect(refused).toBeInstanceOf(InvalidArgumentError);
    expect((refused as InvalidArgumentError).message).toContain("oidc.clientSecret");
    const wrong = await failure(
      client.iam.identityProviders.create(team, { ...body(), name: "x" }),
    );
    expect(wrong).toBeInstanceOf(InvalidArgumentError);
    expect(printed(refused)).not.toContain(SECRET);
    expect(printed(wrong)).not.toContain(SECRET);
    await client.iam.identityProviders.delete(created.uid);
  });
});

describe("group invites on the emulator", () => {
  it("creates with ttl in seconds, shows the code once, finds it by key id, deletes", async () => {
    const created = await client.iam.groupInvites.create(team, {
      roleUid: viewer,
      ttl: 3600,
      email: "dev@example.com",
    });
    expect(created.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(printed(created)).not.toContain(created.code);
    expect(Date.parse(created.expirationTime) - Date.parse(created.createTime)).toBe(3_600_000);
    expect(created.role?.uid).toBe(viewer);
    expect(created.role?.capabilities).toContain("CAP_IAM_GROUPS_LIST");

    const read = await client.iam.groupInvites.get(created.uid);
    expect(read).toEqual({ ...created });
    expect("code" in read).toBe(false);
    const byKey = await client.iam.groupInvites.list({ keyId: created.keyId });
    expect(byKey.items.map((i) => i.uid)).toEqual([created.uid]);

    await client.iam.groupInvites.delete(created.uid);
    expect(await failure(client.iam.groupInvites.get(created.uid))).toBeInstanceOf(NotFoundError);
    expect(await requestLines(emu)).toEqual([
      `POST /iam/v2beta1/groupInvites/${team} -> 200`,
      `GET /iam/v2beta1/groupInvites/${created.uid} -> 200`,
      `GET /iam/v2beta1/groupInvites?key_id=${created.keyId} -> 200`,
      `DELETE /iam/v2beta1/groupInvites/${created.uid} -> 200`,
      `GET /iam/v2beta1/groupInvites/${created.uid} -> 404`,
    ]);
  });

  it("sends a fractional ttl the service accepts, and a bad one never leaves the client", async () => {
    const created = await client.iam.groupInvites.create(team, { roleUid: viewer, ttl: 1.5 });
    expect(Date.parse(created.expirationTime) - Date.parse(created.createTime)).toBe(1500);
    await client.iam.groupInvites.delete(created.uid);
    await emu.clearRequests();
    expect(
      await failure(client.iam.groupInvites.create(team, { roleUid: viewer, ttl: "168h" })),
    ).toBeInstanceOf(TypeError);
    expect(await requestLines(emu)).toEqual([]);
    const tooLong = await failure(
      client.iam.groupInvites.create(team, { roleUid: viewer, ttl: 366 * 86400 }),
    );
    expect(tooLong).toBeInstanceOf(InvalidArgumentError);
    expect((tooLong as Error).message).toContain("ttl");
  });
});

describe("account associations on the emulator", () => {
  it("creates at the group's uid, updates blocks, deletes idempotently", async () => {
    const group = (await client.iam.groups.create(team, { name: "assoc" })).uid;
    const ingester = await client.iam.identities.create(group, {
      name: "ingester",
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    const created = await client.iam.accountAssociations.create(group, {
      name: "prod accounts",
      amazon: { account: "123456789012" },
      github: {
        appInstallations: {
          "123456": { installations: [{ installationId: 7890123, name: "acme" }] },
        },
      },
      chainguard: { serviceBindings: { INGESTER: ingester.uid } },
    });
    expect(created.uid).toBe(group);
    expect(created.github?.appInstallations["123456"].installations).toEqual([
      { installationId: 7890123, name: "acme" },
    ]);
    expect(await client.iam.accountAssociations.get(group)).toEqual(created);
    const again = await failure(
      client.iam.accountAssociations.create(group, {
        name: "x",
        amazon: { account: "123456789012" },
      }),
    );
    expect(again).toBeInstanceOf(AlreadyExistsError);

    const updated = await client.iam.accountAssociations.update(
      group,
      { google: { projectId: "acme-prod", projectNumber: "42" } },
      { updateMask: ["google", "amazon"] },
    );
    expect(updated.google).toEqual({ projectId: "acme-prod", projectNumber: "42" });
    expect(updated.amazon).toBeUndefined();
    expect(updated.github).toEqual(created.github);

    const listed = await client.iam.accountAssociations.list({ childrenOf: team });
    expect(listed.items.map((a) => a.uid)).toContain(group);

    await client.iam.accountAssociations.delete(group);
    await client.iam.accountAssociations.delete(group);
    expect(await failure(client.iam.accountAssociations.get(group))).toBeInstanceOf(NotFoundError);
  });
});

describe("identity kinds on the emulator", () => {
  it("creates each kind, lists by relationship type, updates a pattern by mask", async () => {
    const group = (await client.iam.groups.create(team, { name: "kinds" })).uid;
    const made: Identity[] = [
      await client.iam.identities.create(group, {
        name: "ci deployer",
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
          claims: { repository_owner: "acme" },
        },
      }),
      await client.iam.identities.create(group, {
        name: "aws",
        awsIdentity: {
          awsAccount: "123456789012",
          arnPattern: "arn:aws:iam::123456789012:role/.*",
          userId: "AIDA1",
        },
      }),
      await client.iam.identities.create(group, {
        name: "cosigned",
        servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED",
      }),
    ];
    expect(made[0].claimMatch).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      claims: { repository_owner: "acme" },
    });
    const aws = await client.iam.identities.list({
      childrenOf: group,
      relationshipType: "RELATIONSHIP_TYPE_AWS_IDENTITY",
    });
    expect(aws.items.map((i) => i.uid)).toEqual([made[1].uid]);
    const all = await client.iam.identities.list({
      childrenOf: group,
      relationshipType: "RELATIONSHIP_TYPE_UNSPECIFIED",
    });
    expect(all.totalCount).toBe(3);

    const switched = await client.iam.identities.update(
      made[0].uid,
      { claimMatch: { subject: "repo:acme/infra:ref:refs/heads/main" } },
      { updateMask: ["claim_match.subject"] },
    );
    expect(switched.claimMatch).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/infra:ref:refs/heads/main",
      claims: { repository_owner: "acme" },
    });
    const otherKind = await failure(
      client.iam.identities.update(made[2].uid, { servicePrincipal: "SERVICE_PRINCIPAL_SKILLS" }),
    );
    expect(otherKind).toBeInstanceOf(InvalidArgumentError);
  });
});

describe("list filters and custom roles on the emulator", () => {
  it("filters role bindings by identity, group and role, advisories by artifact", async () => {
    const group = (await client.iam.groups.create(team, { name: "filters" })).uid;
    const a = await client.iam.identities.create(group, {
      name: "alpha",
      claimMatch: { issuer: emu.issuer, subject: "a" },
    });
    const b = await client.iam.identities.create(group, {
      name: "bravo",
      claimMatch: { issuer: emu.issuer, subject: "b" },
    });
    const bindingA = await client.iam.roleBindings.create(group, {
      identityUid: a.uid,
      roleUid: viewer,
    });
    await client.iam.roleBindings.create(group, { identityUid: b.uid, roleUid: viewer });
    const ofA = await client.iam.roleBindings.list({ descendantsOf: team, identity: a.uid });
    expect(ofA.items.map((x) => x.uid)).toEqual([bindingA.uid]);
    const ofViewer = await client.iam.roleBindings.list({ childrenOf: group, role: viewer });
    expect(ofViewer.totalCount).toBe(2);
    const inGroup = await client.iam.roleBindings.list({ group });
    expect(inGroup.totalCount).toBe(2);

    const every = await client.vulnerabilities.advisories.list().all();
    expect(every.length).toBeGreaterThan(1);
    const artifact = every[0].artifactName;
    const ofArtifact = await client.vulnerabilities.advisories
      .list({ artifactNames: [artifact] })
      .all();
    expect(ofArtifact.map((x) => x.uid)).toEqual(
      every.filter((x) => x.artifactName === artifact).map((x) => x.uid),
    );
    const byId = await client.vulnerabilities.advisories
      .list({ advisoryIds: [every[1].advisoryId] })
      .all();
    expect(byId.map((x) => x.uid)).toEqual([every[1].uid]);
  });

  it("refuses a custom role without capabilities or with a built-in name", async () => {
    const none = await failure(client.iam.roles.create(team, { name: "empty", capabilities: [] }));
    expect(none).toBeInstanceOf(InvalidArgumentError);
    expect((none as Error).message).toContain("capabilities");
    const builtIn = await failure(
      client.iam.roles.create(team, {
        name: "viewer",
        capabilities: ["CAP_IAM_GROUPS_LIST"],
      } satisfies RoleCreate),
    );
    expect(builtIn).toBeInstanceOf(InvalidArgumentError);
    expect((builtIn as Error).message).toContain("name: is the name of a built-in role");
  });
});
