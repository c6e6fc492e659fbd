/**
 * The runtime keeps a resource's stored provider text (`keepText` in
 * `provider/runtime.ts`) only because `@pulumi/pulumi`'s dynamic-provider host
 * *assigns* `__provider` into the very object a method returns: `inputs.__provider = ...`
 * after `check`, `Object.assign(result, { __provider })` after `read`. Here the real host
 * (`@pulumi/pulumi/cmd/dynamic-provider`, over gRPC, as the engine runs it) is driven
 * through both, so a host that copies the text in any other way fails this test by name
 * (see docs/provider.md, "What is stored in state").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject } from "../../harness/installed-package";
import { type ProviderHost, startProviderHost } from "../../harness/provider-host";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";
import { groupProvider } from "../support/provider-texts";

const PROJECT = "stored-text-in-host";
const URN = `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/irm:Group::team`;
/** A text of the closure-serialized kind older releases stored (same runtime entry). */
const OLDER_TEXT = `exports.handler = __f0;\nfunction __f0() { return require("pulumi-irm/provider/runtime").group; }\n${"// ".padEnd(1900, "x")}`;
const HOST_CHANGED =
  "@pulumi/pulumi's dynamic-provider host no longer assigns __provider into the object the " +
  "method returned, so keepText (provider/runtime.ts) no longer keeps the stored text: " +
  "see docs/provider.md, 'What is stored in state', and adapt the runtime to the new host";

let project: ConsumerProject;
let emu: ProviderFixture;
let host: ProviderHost;

beforeAll(async () => {
  project = createConsumerProject({ name: PROJECT, requiredSubpaths: ["./provider/runtime"] });
  emu = await startProviderFixture();
  host = await startProviderHost({ cwd: project.dir, projectName: PROJECT });
  await host.configure({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
});

afterAll(async () => {
  await host?.close();
  await emu?.close();
  project?.remove();
});

describe("the real dynamic-provider host and the stored text", () => {
  it("check: the text a resource stores survives the host's write of the program's", async () => {
    const news = { parentUid: emu.rootGroupUid, name: "team", description: "" };
    const checked = await host.check(
      URN,
      { ...news, __provider: OLDER_TEXT },
      { ...news, __provider: groupProvider },
    );
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.__provider, HOST_CHANGED).toBe(OLDER_TEXT);
  });

  it("read: this release's text replaces the stored one in outputs and inputs", async () => {
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "read me" });
    // The host loads the stored (older) text for a read, and writes it back into the result.
    const read = await host.read(group.uid, URN, {
      uid: group.uid,
      parentUid: emu.rootGroupUid,
      name: group.name,
      description: "",
      __provider: OLDER_TEXT,
    });
    expect(read.id).toBe(group.uid);
    expect(read.properties.__provider, HOST_CHANGED).toBe(groupProvider);
    expect(read.inputs?.__provider, HOST_CHANGED).toBe(groupProvider);
  });
});
