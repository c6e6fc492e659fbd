/**
 * The contract suite's driver: performs every operation the SDK exposes and every update
 * mask the provider's handlers send, against the front door the Go suite serves (the
 * official gateway over recorders), each under a label the Go side pairs with the RPC
 * and request message it expects. Run from the repository root:
 *
 *   node --import tsx contract/driver/front-door.ts <front door URL>
 *
 * Prints one JSON line per operation (`{"label","ok","error"?}`), then one line with the
 * SDK's tables (`{"tables":{...}}`). The uids come from the Go side (`CONTRACT_UIDS`).
 *
 * The calls are written as a program after the project's decisions would write them
 * (`CAP_` capabilities, `identity`/`group`/`role` binding filters, the official advisory
 * filters): they go through loosely typed handles so that the driver runs on any version
 * of the SDK, and the Go side judges what reaches the wire.
 */
import * as lookups from "../../provider/lookups";
import * as runtime from "../../provider/runtime";
import { GRPC_STATUSES } from "../../sdk/core/grpc-status";
import * as sdk from "../../sdk/index";
import * as identities from "../../sdk/resources/identities";
import * as idps from "../../sdk/resources/identity-providers";

type Loose = (...args: unknown[]) => Promise<unknown>;
type Handle = Record<string, Loose>;

const url = process.argv[2];
if (!url) throw new Error("usage: front-door.ts <front door URL>");
const U = JSON.parse(process.env.CONTRACT_UIDS ?? "{}") as Record<string, string>;

function emit(line: unknown): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function label(name: string): Promise<void> {
  const answer = await fetch(`${url}/_contract/label`, { method: "POST", body: name });
  if (answer.status !== 204) throw new Error(`label ${name}: HTTP ${answer.status}`);
}

/** Runs one labelled operation; a failure is reported, never thrown. */
async function op(name: string, run: () => Promise<unknown>): Promise<void> {
  await label(name);
  try {
    const result = await run();
    // A list answers a page promise: await the first page.
    if (result && typeof (result as PromiseLike<unknown>).then === "function") await result;
    emit({ label: name, ok: true });
  } catch (error) {
    const e = error as Error;
    emit({ label: name, ok: false, error: `${e.name}: ${e.message}` });
  }
}

const retry = { retries: 0 };
/** An API token as the settings check wants one (a JWT, no `exp`); the front door reads none. */
const TOKEN = process.env.IRM_TOKEN ?? "";
const client = new sdk.IrmClient({ baseUrl: url, token: TOKEN, retry });
const h = (collection: unknown) => collection as Handle;

const groups = h(client.iam.groups);
const ids = h(client.iam.identities);
const roles = h(client.iam.roles);
const bindings = h(client.iam.roleBindings);
const providers = h(client.iam.identityProviders);
const invites = h(client.iam.groupInvites);
const assocs = h(client.iam.accountAssociations);

const LIST_ALL = {
  childrenOf: U.root,
  name: "team",
  pageSize: 10,
  pageToken: "page-2",
  orderBy: "name desc",
  skip: 2,
};

async function sdkOperations(): Promise<void> {
  // Groups.
  await op("sdk iam.groups.create", () =>
    groups.create(U.root, { name: "team", description: "the team" }),
  );
  await op("sdk iam.groups.createOrganization", () =>
    groups.createOrganization({ name: "acme-org", description: "a new organisation" }),
  );
  await op("sdk iam.groups.get", () => groups.get(U.group));
  await op("sdk iam.groups.list (every common parameter)", () => groups.list(LIST_ALL));
  await op("sdk iam.groups.list (descendantsOf)", () => groups.list({ descendantsOf: U.root }));
  await op("sdk iam.groups.update (mask description)", () =>
    groups.update(U.group, { description: "new" }, { updateMask: ["description"] }),
  );
  await op("sdk iam.groups.update (no mask)", () => groups.update(U.group, { name: "renamed" }));
  await op("sdk iam.groups.delete", () => groups.delete(U.group));

  // Identities, each kind.
  await op("sdk iam.identities.create (claimMatch)", () =>
    ids.create(U.group, {
      name: "ci",
      description: "ci jobs",
      claimMatch: {
        issuer: "https://token.example",
        subject: "repo:org/app:ref:refs/heads/main",
        audience: "contract-audience",
        claims: { repository: "org/app" },
      },
    }),
  );
  await op("sdk iam.identities.create (claimMatch patterns)", () =>
    ids.create(U.group, {
      name: "ci-patterns",
      claimMatch: {
        issuerPattern: "https://token\\.example/.*",
        subjectPattern: "repo:org/.*",
        audiencePattern: "aud-.*",
        claimPatterns: { ref: "refs/heads/.*" },
      },
    }),
  );
  await op("sdk iam.identities.create (staticKeys)", () =>
    ids.create(U.group, {
      name: "offline",
      staticKeys: {
        issuer: "https://offline.example",
        subject: "robot",
        issuerKeys: '{"keys":[]}',
        expirationTime: "2026-06-01T00:00:00Z",
        audiences: ["offline-aud"],
      },
    }),
  );
  await op("sdk iam.identities.create (awsIdentity)", () =>
    ids.create(U.group, {
      name: "aws",
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:iam::123456789012:role/.*",
        userId: "AROAEXAMPLE",
      },
    }),
  );
  await op("sdk iam.identities.create (servicePrincipal INGESTER)", () =>
    ids.create(U.group, { name: "ingester", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }),
  );
  await op("sdk iam.identities.create (servicePrincipal GUARDENER, HEAD)", () =>
    ids.create(U.group, { name: "guardener", servicePrincipal: "SERVICE_PRINCIPAL_GUARDENER" }),
  );
  await op("sdk iam.identities.get", () => ids.get(U.identity));
  await op("sdk iam.identities.list (relationshipType)", () =>
    ids.list({ childrenOf: U.group, relationshipType: "RELATIONSHIP_TYPE_STATIC" }),
  );
  await op("sdk iam.identities.update (mask claim_match.subject_pattern)", () =>
    ids.update(
      U.identity,
      { claimMatch: { subjectPattern: "repo:org/.*" } },
      { updateMask: ["claim_match.subject_pattern"] },
    ),
  );
  await op("sdk iam.identities.delete", () => ids.delete(U.identity));

  // Roles.
  await op("sdk iam.roles.create", () =>
    roles.create(U.group, {
      name: "puller",
      description: "pulls",
      capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"],
    }),
  );
  await op("sdk iam.roles.get (custom)", () => roles.get(U.customRole));
  await op("sdk iam.roles.get (built-in)", () => roles.get(U.viewerRole));
  await op("sdk iam.roles.list (childrenOf)", () => roles.list({ childrenOf: U.group }));
  await op("sdk iam.roles.update (mask capabilities)", () =>
    roles.update(
      U.customRole,
      { capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"] },
      { updateMask: ["capabilities"] },
    ),
  );
  await op("sdk iam.roles.delete", () => roles.delete(U.customRole));

  // Role bindings.
  await op("sdk iam.roleBindings.create", () =>
    bindings.create(U.group, { identityUid: U.identity, roleUid: U.viewerRole }),
  );
  await op("sdk iam.roleBindings.get", () => bindings.get(U.binding));
  await op("sdk iam.roleBindings.list (identity, group, role)", () =>
    bindings.list({ identity: U.identity, group: U.group, role: U.viewerRole }),
  );
  await op("sdk iam.roleBindings.update (mask role_uid)", () =>
    bindings.update(U.binding, { roleUid: U.customRole }, { updateMask: ["role_uid"] }),
  );
  await op("sdk iam.roleBindings.delete", () => bindings.delete(U.binding));

  // Identity providers.
  await op("sdk iam.identityProviders.create", () =>
    providers.create(U.group, {
      name: "sso",
      description: "sign-in",
      defaultRole: U.viewerRole,
      oidc: {
        issuer: "https://login.example",
        clientId: "client-id",
        clientSecret: "contract-client-secret",
        additionalScopes: ["email", "profile"],
        groupsClaim: "groups",
        pkceEnabled: true,
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
      },
    }),
  );
  await op("sdk iam.identityProviders.get", () => providers.get(U.idp));
  await op("sdk iam.identityProviders.list (childrenOf, name)", () =>
    providers.list({ childrenOf: U.group, name: "sso" }),
  );
  await op("sdk iam.identityProviders.update (mask oidc.client_id)", () =>
    providers.update(U.idp, { oidc: { clientId: "client-2" } }, { updateMask: ["oidc.client_id"] }),
  );
  await op("sdk iam.identityProviders.delete", () => providers.delete(U.idp));

  // Group invites.
  await op("sdk iam.groupInvites.create", () =>
    invites.create(U.group, {
      roleUid: U.viewerRole,
      ttl: 3600,
      email: "someone@example.com",
      singleUse: true,
    }),
  );
  await op("sdk iam.groupInvites.get", () => invites.get(U.invite));
  await op("sdk iam.groupInvites.list (childrenOf, keyId)", () =>
    invites.list({ childrenOf: U.group, keyId: "contract-key-1" }),
  );
  await op("sdk iam.groupInvites.delete", () => invites.delete(U.invite));

  // Account associations (addressed by the group's uid).
  await op("sdk iam.accountAssociations.create", () =>
    assocs.create(U.group, {
      name: "accounts",
      description: "outside accounts",
      amazon: { account: "123456789012" },
      google: { projectId: "my-project", projectNumber: "123456" },
      azure: {
        tenantId: "00000000-0000-0000-0000-000000000001",
        clientIds: { ingester: "00000000-0000-0000-0000-000000000002" },
      },
      github: {
        appInstallations: { "42": { installations: [{ installationId: 7, name: "org" }] } },
      },
      chainguard: { serviceBindings: { INGESTER: U.identity } },
    }),
  );
  await op("sdk iam.accountAssociations.get", () => assocs.get(U.group));
  await op("sdk iam.accountAssociations.list (descendantsOf)", () =>
    assocs.list({ descendantsOf: U.root }),
  );
  await op("sdk iam.accountAssociations.update (mask amazon)", () =>
    assocs.update(U.group, { amazon: { account: "210987654321" } }, { updateMask: ["amazon"] }),
  );
  await op("sdk iam.accountAssociations.delete", () => assocs.delete(U.group));

  // Registry and advisories (read only).
  const repos = h(client.registry.repos);
  const tags = h(client.registry.tags);
  const advisories = h(client.vulnerabilities.advisories);
  await op("sdk registry.repos.get", () => repos.get(U.repo));
  await op("sdk registry.repos.list (childrenOf, name)", () =>
    repos.list({ childrenOf: U.group, name: "nginx" }),
  );
  await op("sdk registry.tags.get", () => tags.get(U.tag));
  await op("sdk registry.tags.list (childrenOf)", () => tags.list({ childrenOf: U.repo }));
  await op("sdk vulnerabilities.advisories.get", () => advisories.get(U.advisory));
  await op("sdk vulnerabilities.advisories.list (official filters)", () =>
    advisories.list({
      artifactNames: ["nginx"],
      componentNames: ["openssl"],
      aliases: ["CVE-2024-0001"],
      query: "ssl",
      pageSize: 5,
    }),
  );

  // v1 listing the sign-in flows use.
  await op("sdk v1.groups.list", () => client.v1.groups.list());

  // Token exchange, then the call it was for.
  await op("sdk token exchange", async () => {
    const exchanging = new sdk.IrmClient({
      baseUrl: url,
      identity: U.identity,
      oidcToken: async () => "contract-oidc-token",
      retry,
    });
    try {
      await exchanging.iam.groups.get(U.group);
    } finally {
      await exchanging.close();
    }
  });
  await op("sdk token exchange (GitHub Actions OIDC)", async () => {
    const exchanging = new sdk.IrmClient({
      baseUrl: url,
      identity: U.identity,
      retry,
      env: {
        ACTIONS_ID_TOKEN_REQUEST_URL: `${url}/_contract/github-oidc`,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: "contract-github-request-token",
      },
    });
    try {
      await exchanging.iam.groups.get(U.group);
    } finally {
      await exchanging.close();
    }
  });
}

type Handler = {
  read(id: string, props: unknown): Promise<unknown>;
  delete(id: string, props: unknown): Promise<unknown>;
  create(inputs: unknown): Promise<unknown>;
  update(id: string, olds: unknown, news: unknown): Promise<unknown>;
};
const handlers = runtime as unknown as Record<string, Handler>;
const T = "2026-01-02T03:04:05Z";

/** One provider update: `olds` (state) to `olds` with `change` applied (inputs). */
async function providerUpdate(
  resource: string,
  what: string,
  olds: Record<string, unknown>,
  change: Record<string, unknown>,
  inputKeys: readonly string[],
): Promise<void> {
  const news: Record<string, unknown> = {};
  for (const key of inputKeys) if (olds[key] !== undefined) news[key] = olds[key];
  Object.assign(news, change);
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete news[key];
  await op(`provider ${resource} update ${what}`, () =>
    handlers[resource].update(olds.uid as string, olds, news),
  );
}

async function providerOperations(): Promise<void> {
  await runtime.configure({
    config: {
      get: (key: string) => ({ "irm:apiUrl": url, "irm:token": TOKEN, "irm:maxRetries": "0" })[key],
      require: (key: string) => {
        throw new Error(`missing ${key}`);
      },
    },
  } as never);

  // Creates: the request body each resource sends.
  await op("provider group create", () =>
    handlers.group.create({ parentUid: U.root, name: "team", description: "the team" }),
  );
  await op("provider identity create", () =>
    handlers.identity.create({
      parentUid: U.group,
      name: "ci",
      description: "",
      claimMatch: { issuer: "https://token.example", subject: "ci" },
    }),
  );
  await op("provider role create", () =>
    handlers.role.create({
      parentUid: U.group,
      name: "puller",
      description: "",
      capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
    }),
  );
  await op("provider binding create", () =>
    handlers.binding.create({ groupUid: U.group, identityUid: U.identity, roleUid: U.viewerRole }),
  );
  await op("provider idp create", () =>
    handlers.idp.create({
      parentUid: U.group,
      name: "sso",
      description: "",
      defaultRole: U.viewerRole,
      oidc: {
        issuer: "https://login.example",
        clientId: "client-id",
        additionalScopes: [],
        groupsClaim: "",
        pkceEnabled: true,
        correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
      },
      clientSecret: "",
    }),
  );
  await op("provider invite create", () =>
    handlers.invite.create({
      groupUid: U.group,
      roleUid: U.viewerRole,
      ttl: "3600s",
      email: "",
      singleUse: false,
    }),
  );
  await op("provider assoc create", () =>
    handlers.assoc.create({
      groupUid: U.group,
      name: "accounts",
      description: "",
      amazon: { account: "123456789012" },
    }),
  );

  // Updates: one per mask path each handler can send.
  const group = {
    uid: U.group,
    parentUid: U.root,
    name: "team",
    description: "old",
    verified: false,
    resourceLimits: {},
    createTime: T,
    updateTime: T,
  };
  const groupKeys = ["parentUid", "name", "description"];
  await providerUpdate("group", "name", group, { name: "team-2" }, groupKeys);
  await providerUpdate("group", "description", group, { description: "new" }, groupKeys);

  const role = {
    uid: U.customRole,
    parentUid: U.group,
    name: "puller",
    description: "old",
    capabilities: ["CAP_REPO_LIST"],
    createTime: T,
    updateTime: T,
  };
  const roleKeys = ["parentUid", "name", "description", "capabilities"];
  await providerUpdate("role", "name", role, { name: "puller-2" }, roleKeys);
  await providerUpdate("role", "description", role, { description: "new" }, roleKeys);
  await providerUpdate(
    "role",
    "capabilities",
    role,
    { capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"] },
    roleKeys,
  );

  const binding = {
    uid: U.binding,
    groupUid: U.group,
    identityUid: U.identity,
    roleUid: U.viewerRole,
    builtInRoleName: "viewer",
    createTime: T,
  };
  const bindingKeys = ["groupUid", "identityUid", "roleUid"];
  await providerUpdate("binding", "roleUid", binding, { roleUid: U.customRole }, bindingKeys);
  await providerUpdate(
    "binding",
    "identityUid",
    binding,
    { identityUid: U.identity2 },
    bindingKeys,
  );

  const idp = {
    uid: U.idp,
    parentUid: U.group,
    name: "sso",
    description: "old",
    defaultRole: U.viewerRole,
    oidc: {
      issuer: "https://login.example",
      clientId: "client-id",
      additionalScopes: ["email"],
      groupsClaim: "groups",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
    },
    clientSecret: "old-client-secret",
    createTime: T,
    updateTime: T,
  };
  const idpKeys = ["parentUid", "name", "description", "defaultRole", "oidc", "clientSecret"];
  const oidc = (change: Record<string, unknown>) => ({ oidc: { ...idp.oidc, ...change } });
  await providerUpdate("idp", "name", idp, { name: "sso-2" }, idpKeys);
  await providerUpdate("idp", "description", idp, { description: "new" }, idpKeys);
  await providerUpdate("idp", "defaultRole", idp, { defaultRole: U.customRole }, idpKeys);
  await providerUpdate(
    "idp",
    "oidc.issuer",
    idp,
    oidc({ issuer: "https://login2.example" }),
    idpKeys,
  );
  await providerUpdate("idp", "oidc.clientId", idp, oidc({ clientId: "client-2" }), idpKeys);
  await providerUpdate(
    "idp",
    "oidc.additionalScopes",
    idp,
    oidc({ additionalScopes: ["email", "profile"] }),
    idpKeys,
  );
  await providerUpdate("idp", "oidc.groupsClaim", idp, oidc({ groupsClaim: "teams" }), idpKeys);
  await providerUpdate("idp", "oidc.pkceEnabled", idp, oidc({ pkceEnabled: true }), idpKeys);
  await providerUpdate("idp", "clientSecret", idp, { clientSecret: "new-client-secret" }, idpKeys);

  const identityKeys = [
    "parentUid",
    "name",
    "description",
    "claimMatch",
    "staticKeys",
    "awsIdentity",
    "servicePrincipal",
  ];
  const exact = {
    uid: U.identity,
    parentUid: U.group,
    name: "ci",
    description: "old",
    claimMatch: {
      issuer: "https://token.example",
      subject: "ci",
      audience: "aud-1",
      claims: { repository: "org/app" },
    },
    createTime: T,
    updateTime: T,
  };
  const cm = (base: typeof exact | typeof patterns, change: Record<string, unknown>) => ({
    claimMatch: { ...base.claimMatch, ...change },
  });
  await providerUpdate("identity", "name", exact, { name: "ci-2" }, identityKeys);
  await providerUpdate("identity", "description", exact, { description: "new" }, identityKeys);
  await providerUpdate(
    "identity",
    "claimMatch.issuer",
    exact,
    cm(exact, { issuer: "https://token2.example" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "claimMatch.subject",
    exact,
    cm(exact, { subject: "ci-2" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "claimMatch.audience",
    exact,
    cm(exact, { audience: "aud-2" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "claimMatch.claims",
    exact,
    cm(exact, { claims: { repository: "org/other" } }),
    identityKeys,
  );
  const patterns = {
    ...exact,
    claimMatch: {
      issuerPattern: "https://token\\.example/.*",
      subjectPattern: "ci-.*",
      audiencePattern: "aud-.*",
      claimPatterns: { ref: "refs/heads/.*" },
    },
  };
  await providerUpdate(
    "identity",
    "claimMatch.issuerPattern",
    patterns,
    cm(patterns, { issuerPattern: "https://token2\\.example/.*" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "claimMatch.subjectPattern",
    patterns,
    cm(patterns, { subjectPattern: "cd-.*" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "claimMatch.audiencePattern",
    patterns,
    cm(patterns, { audiencePattern: "aud2-.*" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "claimMatch.claimPatterns",
    patterns,
    cm(patterns, { claimPatterns: { ref: "refs/tags/.*" } }),
    identityKeys,
  );
  const statics = {
    uid: U.identity,
    parentUid: U.group,
    name: "offline",
    description: "",
    staticKeys: {
      issuer: "https://offline.example",
      subject: "robot",
      issuerKeys: '{"keys":[]}',
      expirationTime: "2026-06-01T00:00:00Z",
      audiences: ["aud-1"],
    },
    createTime: T,
    updateTime: T,
  };
  const sk = (change: Record<string, unknown>) => ({
    staticKeys: { ...statics.staticKeys, ...change },
  });
  await providerUpdate(
    "identity",
    "staticKeys.issuer",
    statics,
    sk({ issuer: "https://offline2.example" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "staticKeys.subject",
    statics,
    sk({ subject: "robot-2" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "staticKeys.issuerKeys",
    statics,
    sk({ issuerKeys: '{"keys":[{"kty":"OKP"}]}' }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "staticKeys.expirationTime",
    statics,
    sk({ expirationTime: "2026-07-01T00:00:00Z" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "staticKeys.audiences",
    statics,
    sk({ audiences: ["aud-2"] }),
    identityKeys,
  );
  const aws = {
    uid: U.identity,
    parentUid: U.group,
    name: "aws",
    description: "",
    awsIdentity: {
      awsAccount: "123456789012",
      arn: "arn:aws:iam::123456789012:role/ci",
      userId: "AROAEXAMPLE",
    },
    createTime: T,
    updateTime: T,
  };
  const aw = (change: Record<string, unknown>) => ({
    awsIdentity: { ...aws.awsIdentity, ...change },
  });
  await providerUpdate(
    "identity",
    "awsIdentity.awsAccount",
    aws,
    aw({ awsAccount: "210987654321" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "awsIdentity.arn",
    aws,
    aw({ arn: "arn:aws:iam::123456789012:role/cd" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "awsIdentity.arnPattern",
    aws,
    aw({ arn: undefined, arnPattern: "arn:aws:iam::123456789012:role/.*" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "awsIdentity.userId",
    aws,
    aw({ userId: "AROAOTHER" }),
    identityKeys,
  );
  await providerUpdate(
    "identity",
    "awsIdentity.userIdPattern",
    aws,
    aw({ userId: undefined, userIdPattern: "AROA.*" }),
    identityKeys,
  );

  const assoc = {
    uid: U.group,
    groupUid: U.group,
    name: "accounts",
    description: "old",
    amazon: { account: "123456789012" },
    createTime: T,
    updateTime: T,
  };
  const assocKeys = ["groupUid", "name", "description", "amazon", "google", "azure", "github"];
  await providerUpdate("assoc", "name", assoc, { name: "accounts-2" }, assocKeys);
  await providerUpdate("assoc", "description", assoc, { description: "new" }, assocKeys);
  await providerUpdate(
    "assoc",
    "amazon",
    assoc,
    { amazon: { account: "210987654321" } },
    assocKeys,
  );
  await providerUpdate(
    "assoc",
    "google",
    assoc,
    { google: { projectId: "my-project", projectNumber: "123456" } },
    assocKeys,
  );
  await providerUpdate(
    "assoc",
    "azure",
    assoc,
    {
      azure: {
        tenantId: "00000000-0000-0000-0000-000000000001",
        clientIds: { ingester: "00000000-0000-0000-0000-000000000002" },
      },
    },
    assocKeys,
  );
  await providerUpdate(
    "assoc",
    "github",
    assoc,
    {
      github: {
        appInstallations: { "42": { installations: [{ installationId: 7, name: "org" }] } },
      },
    },
    assocKeys,
  );
  await providerUpdate(
    "assoc",
    "chainguard",
    assoc,
    { chainguard: { serviceBindings: { INGESTER: U.identity } } },
    [...assocKeys, "chainguard"],
  );

  // Read (refresh) and delete of each resource.
  const invite = {
    uid: U.invite,
    groupUid: U.group,
    roleUid: U.viewerRole,
    ttl: "3600s",
    email: "",
    singleUse: false,
    expirationTime: T,
    keyId: "contract-key-1",
    createTime: T,
    code: "",
  };
  const states: Array<[string, Record<string, unknown>]> = [
    ["group", group],
    ["identity", exact],
    ["role", role],
    ["binding", binding],
    ["idp", idp],
    ["invite", invite],
    ["assoc", assoc],
  ];
  for (const [resource, state] of states) {
    await op(`provider ${resource} read`, () =>
      handlers[resource].read(state.uid as string, state),
    );
    await op(`provider ${resource} delete`, () =>
      handlers[resource].delete(state.uid as string, state),
    );
  }
}

/** The provider's lookups (they read IRM_API_URL and IRM_TOKEN, which the Go side sets). */
async function lookupOperations(): Promise<void> {
  const l = lookups as unknown as Record<string, Loose>;
  await op("provider lookup getGroup (uid)", () => l.getGroup({ uid: U.group }));
  await op("provider lookup getGroup (name)", () =>
    l.getGroup({ name: "team", parentUid: U.root }),
  );
  await op("provider lookup getIdentity (issuer, subject)", () =>
    l.getIdentity({ issuer: "https://token.example", subject: "ci", parentUid: U.group }),
  );
  await op("provider lookup getRole (name)", () => l.getRole({ name: "viewer" }));
  await op("provider lookup getRoles (parentUid)", () => l.getRoles({ parentUid: U.group }));
  await op("provider lookup getIdentityProvider (name)", () =>
    l.getIdentityProvider({ name: "sso", parentUid: U.group }),
  );
  await op("provider lookup getRepo (name)", () => l.getRepo({ name: "nginx", groupUid: U.group }));
  await op("provider lookup getRepos (groupUid)", () => l.getRepos({ groupUid: U.group }));
  await op("provider lookup getTag (name)", () => l.getTag({ repoUid: U.repo, name: "latest" }));
  await op("provider lookup getTags", () => l.getTags({ repoUid: U.repo }));
  await op("provider lookup getAdvisories (official filters)", () =>
    l.getAdvisories({
      artifactNames: ["nginx"],
      componentNames: ["openssl"],
      aliases: ["CVE-2024-0001"],
      query: "ssl",
    }),
  );
}

/** The SDK's tables, for the Go side to compare with the module's. */
function tables(): Record<string, unknown> {
  return {
    capabilities: [...sdk.CAPABILITIES],
    servicePrincipals: [...identities.SERVICE_PRINCIPALS],
    relationshipTypes: [...identities.RELATIONSHIP_TYPES],
    correlationRules: [...idps.CORRELATION_RULES],
    grpcStatuses: Object.entries(GRPC_STATUSES).map(
      ([name, status]) => `${name} ${status.code} ${status.http}`,
    ),
  };
}

async function main(): Promise<void> {
  await sdkOperations();
  await providerOperations();
  await lookupOperations();
  emit({ tables: tables() });
  await client.close();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
