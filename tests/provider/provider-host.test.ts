/**
 * The real provider host: each resource's provider is serialized by a program under
 * `runtime.setMocks` from an installed copy of the package, then `@pulumi/pulumi`'s
 * dynamic-provider host runs it (cwd = the consumer project) over gRPC against the
 * emulator, exactly as the engine would. A broken `exports` map, a captured client or a
 * leaked token fails here.
 */
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject } from "../../harness/installed-package";
import {
  type PropertyMap,
  type ProviderHost,
  ProviderHostError,
  startProviderHost,
} from "../../harness/provider-host";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";
import { type ProgramRun, runProgramUnderMocks } from "../support/provider-program";

const PROJECT = "provider-host";
/** A well-formed API token (a JWT, unexpired) the API refuses: it reaches the API. */
const SENTINEL_TOKEN = new UnsecuredJWT({ sub: "sentinel-token-b4d1e0-never-in-state" })
  .setExpirationTime(Date.parse("2099-01-01T00:00:00Z") / 1000)
  .encode();

let project: ConsumerProject;
let run: ProgramRun;
let emu: ProviderFixture;
const hosts: ProviderHost[] = [];

function urn(type: string, name: string): string {
  return `urn:pulumi:dev::${PROJECT}::${type}::${name}`;
}

/** A fresh host (it caches providers per `__provider` text), configured like the engine does. */
async function startConfiguredHost(
  token: string,
  extra: Record<string, string> = {},
  target: ConsumerProject = project,
): Promise<ProviderHost> {
  const host = await startProviderHost({ cwd: target.dir, projectName: PROJECT });
  hosts.push(host);
  await host.configure({ "irm:apiUrl": emu.url, "irm:token": token, ...extra }, ["irm:token"]);
  return host;
}

let shared: Promise<ProviderHost> | undefined;

/**
 * The host the tests configured with the fixture's token share, started by whichever
 * asks first: one process serves every resource of a deployment too, and starting one
 * (loading `@pulumi/pulumi`) is most of a test's time. A test with another token or
 * another project starts its own.
 */
function sharedHost(): Promise<ProviderHost> {
  shared ??= startConfiguredHost(emu.token);
  return shared;
}

beforeAll(async () => {
  project = createConsumerProject({
    name: "provider-host",
    requiredSubpaths: [".", "./provider/runtime", "./sdk"],
  });
  run = await runProgramUnderMocks(project, { "irm:token": SENTINEL_TOKEN }, ["irm:token"]);
  emu = await startProviderFixture();
});

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await emu?.close();
});

describe("the real provider host", () => {
  it("runs Configure, Check, Diff, Create, Read, Update and Delete for all three types", async () => {
    const host = await sharedHost();
    const { pkg } = run;
    const groupType = pkg.Group.__pulumiType;
    const groupUrn = urn(groupType, "team");
    const groupProvider = run.providerOf(groupType);
    const outputsSeen: PropertyMap[] = [];

    // Group: check normalizes, create makes one POST.
    const checked = await host.check(
      groupUrn,
      {},
      { parentUid: emu.rootGroupUid, name: "host team", __provider: groupProvider },
    );
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ description: "", __provider: groupProvider });
    await emu.clearRequests();
    const group = await host.create(groupUrn, checked.inputs);
    outputsSeen.push(group.properties);
    expect(group.id).toMatch(new RegExp(`^${emu.rootGroupUid}/[0-9a-f]{16}$`));
    expect(group.properties).toMatchObject({ uid: group.id, name: "host team", verified: false });
    expect((await emu.requests()).map((r) => r.method)).toEqual(["POST"]);

    // No change: no request.
    await emu.clearRequests();
    const same = await host.diff(group.id, groupUrn, group.properties, checked.inputs);
    expect(same.changes).toBe("none");
    // A new package version means another __provider text: still no change.
    const otherVersion = { ...checked.inputs, __provider: `${groupProvider}\n// v2` };
    expect((await host.diff(group.id, groupUrn, group.properties, otherVersion)).changes).toBe(
      "none",
    );
    expect(await emu.requests()).toEqual([]);

    // Update: one PATCH with exactly the changed field.
    const news = { ...checked.inputs, description: "from the host" };
    expect((await host.diff(group.id, groupUrn, group.properties, news)).changes).toBe("some");
    const moved = { ...checked.inputs, parentUid: `${emu.rootGroupUid}/${"0".repeat(16)}` };
    expect((await host.diff(group.id, groupUrn, group.properties, moved)).replaces).toEqual([
      "parentUid",
    ]);
    const updated = await host.update(group.id, groupUrn, group.properties, news);
    outputsSeen.push(updated);
    expect(updated).toMatchObject({ description: "from the host", __provider: groupProvider });
    const patches = await emu.requests();
    expect(patches.map((r) => `${r.method} ${r.query}`)).toEqual(["PATCH updateMask=description"]);

    // Refresh: one GET, inputs for the next diff.
    await emu.clearRequests();
    const read = await host.read(group.id, groupUrn, updated);
    outputsSeen.push(read.properties);
    expect(read.id).toBe(group.id);
    expect(read.inputs).toMatchObject({
      parentUid: emu.rootGroupUid,
      name: "host team",
      description: "from the host",
    });
    expect(await emu.requests()).toHaveLength(1);

    // Identity and RoleBinding through their own serialized providers.
    const identityType = pkg.Identity.__pulumiType;
    const identityInputs = (
      await host.check(
        urn(identityType, "deployer"),
        {},
        {
          parentUid: group.id,
          name: "deployer",
          claimMatch: { issuer: emu.issuer, subject: "main" },
          __provider: run.providerOf(identityType),
        },
      )
    ).inputs;
    const identity = await host.create(urn(identityType, "deployer"), identityInputs);
    outputsSeen.push(identity.properties);
    expect(identity.properties).toMatchObject({
      parentUid: group.id,
      claimMatch: { subject: "main" },
    });

    const roles = await emu.client.iam.roles.list({ name: "viewer" });
    const bindingType = pkg.RoleBinding.__pulumiType;
    const bindingUrn = urn(bindingType, "deployer-viewer");
    const bindingInputs = (
      await host.check(
        bindingUrn,
        {},
        {
          groupUid: group.id,
          identityUid: identity.id,
          roleUid: roles.items[0].uid,
          __provider: run.providerOf(bindingType),
        },
      )
    ).inputs;
    const binding = await host.create(bindingUrn, bindingInputs);
    outputsSeen.push(binding.properties);
    expect(binding.properties).toMatchObject({
      identityUid: identity.id,
      groupUid: group.id,
      builtInRoleName: "viewer",
    });
    expect(binding.properties).not.toHaveProperty("identity");

    // Delete, dependants first: one DELETE each.
    await emu.clearRequests();
    await host.delete(binding.id, bindingUrn, binding.properties);
    await host.delete(identity.id, urn(identityType, "deployer"), identity.properties);
    await host.delete(group.id, groupUrn, read.properties);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "DELETE 200",
      "DELETE 200",
      "DELETE 200",
    ]);
    // Gone out of band (here: by us): refresh reports no id.
    expect((await host.read(group.id, groupUrn, read.properties)).id).toBe("");

    // The token lives only in the host's memory: never in outputs or the host's log.
    for (const outputs of outputsSeen) expect(JSON.stringify(outputs)).not.toContain(emu.token);
    expect(host.stderr()).not.toContain(emu.token);
  });

  it("loads state of the previous version: its exact-match identity diffs clean", async () => {
    const host = await sharedHost();
    const { pkg } = run;
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "older state" });
    const identityType = pkg.Identity.__pulumiType;
    const identityUrn = urn(identityType, "older");
    const identityProvider = run.providerOf(identityType);
    const declared = {
      parentUid: group.uid,
      name: "older",
      claimMatch: { issuer: emu.issuer, subject: "main" },
      __provider: identityProvider,
    };
    const identity = await host.create(
      identityUrn,
      (await host.check(identityUrn, {}, declared)).inputs,
    );
    // What the previous version stored for an exact-match identity: these keys only.
    const olderOutputs = {
      uid: identity.id,
      parentUid: group.uid,
      name: "older",
      description: "",
      claimMatch: { issuer: emu.issuer, subject: "main" },
      createTime: identity.properties.createTime,
      updateTime: identity.properties.updateTime,
      __provider: identityProvider,
    };
    const checked = await host.check(identityUrn, olderOutputs, declared);
    expect(checked.failures).toEqual([]);
    expect((await host.diff(identity.id, identityUrn, olderOutputs, checked.inputs)).changes).toBe(
      "none",
    );

    await host.delete(identity.id, identityUrn, identity.properties);
  });

  it("reads an object from its uid and the provider alone, as get does", async () => {
    const host = await sharedHost();
    const type = run.pkg.Group.__pulumiType;
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, {
      name: "read by get",
      description: "outside the stack",
    });
    await emu.clearRequests();
    const read = await host.read(group.uid, urn(type, "existing"), {
      __provider: run.providerOf(type),
    });
    expect(read.id).toBe(group.uid);
    expect(read.properties).toMatchObject({
      uid: group.uid,
      parentUid: emu.rootGroupUid,
      name: "read by get",
      description: "outside the stack",
      verified: false,
      resourceLimits: {},
    });
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET"]);
  });

  it("fails a pattern that RE2 refuses in check, naming the field", async () => {
    const host = await sharedHost();
    const type = run.pkg.Identity.__pulumiType;
    const result = await host.check(
      urn(type, "lookahead"),
      {},
      {
        parentUid: emu.rootGroupUid,
        name: "lookahead",
        claimMatch: { issuer: emu.issuer, subjectPattern: "repo:(?=acme)" },
        __provider: run.providerOf(type),
      },
    );
    expect(result.failures).toEqual([
      {
        property: "claimMatch",
        reason: expect.stringMatching(/^claimMatch\.subjectPattern: not a valid RE2 pattern: /),
      },
    ]);
  });

  it("returns check failures that name the property and the rule", async () => {
    const host = await sharedHost();
    const type = run.pkg.Identity.__pulumiType;
    const result = await host.check(
      urn(type, "bad"),
      {},
      {
        parentUid: "not-a-uid",
        name: "Bad Name",
        claimMatch: { issuer: "http://issuer.example.com", subject: "x" },
        __provider: run.providerOf(type),
      },
    );
    // A member's failure is on its top-level input, the one the engine can show.
    expect(result.failures.map((f) => f.property).sort()).toEqual([
      "claimMatch",
      "name",
      "parentUid",
    ]);
    expect(result.failures.find((f) => f.property === "claimMatch")?.reason).toMatch(
      /^claimMatch\.issuer: must be an https URL/,
    );
  });

  it("keeps a sentinel secret token out of errors and the host's log", async () => {
    const host = await startConfiguredHost(SENTINEL_TOKEN);
    const type = run.pkg.Group.__pulumiType;
    const inputs = {
      parentUid: emu.rootGroupUid,
      name: "never created",
      description: "",
      __provider: run.providerOf(type),
    };
    const error = await host.create(urn(type, "denied"), inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderHostError);
    expect((error as Error).message).toMatch(/Unauthenticated|UNAUTHENTICATED/i);
    // What to check, by the settings' keys (it said only what the API answered).
    expect((error as Error).message).toContain(
      "the API refused the credentials (Unauthenticated: ",
    );
    expect((error as Error).message).toContain(
      "check irm:token (or IRM_TOKEN), or irm:identity and irm:identityTokenFile",
    );
    expect((error as Error).message).not.toContain(SENTINEL_TOKEN);
    expect(host.stderr()).not.toContain(SENTINEL_TOKEN);
    for (const resource of run.registered) {
      expect(JSON.stringify(resource.inputs)).not.toContain(SENTINEL_TOKEN);
    }
  });

  it("fails when the installed package does not export the runtime entry", async () => {
    const broken = createConsumerProject({
      name: "provider-host-broken-exports",
      requiredSubpaths: ["."],
      editManifest: (manifest) => {
        delete manifest.exports?.["./provider/runtime"];
      },
    });
    const host = await startConfiguredHost(emu.token, {}, broken);
    const type = run.pkg.Group.__pulumiType;
    await expect(
      host.check(
        urn(type, "team"),
        {},
        { parentUid: emu.rootGroupUid, name: "xyz", __provider: run.providerOf(type) },
      ),
    ).rejects.toThrow(/Package subpath .\.\/provider\/runtime. is not defined by "exports"/);
  });
});
