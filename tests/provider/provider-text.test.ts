/**
 * The provider texts of `provider/shim.ts`: their exact content and size (stored twice per
 * resource, never changed once released), what they load as the dynamic-provider host
 * loads them, and how the runtime keeps a resource's stored text in step under the
 * host's own writes (`check` keeps it, `read` moves it to this release's).
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumerProject } from "../../harness/installed-package";
import { PROVIDER_KINDS } from "../../provider/kinds";
import * as runtime from "../../provider/runtime";
import * as shim from "../../provider/shim";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";

const requireFromString = require("require-from-string") as (code: string) => {
  handler(): Record<string, unknown>;
};

/** Each type and its runtime export, as released: a change of a text changes every stored resource. */
const RELEASED: Record<string, string> = {
  Group: "group",
  Identity: "identity",
  RoleBinding: "binding",
  Role: "role",
  IdentityProvider: "idp",
  GroupInvite: "invite",
  AccountAssociation: "assoc",
  ExternalGroupRoleMapping: "egrm",
  Repo: "repo",
  Subscription: "subscription",
};

/** The text each type's resources get: the one its class registers (`PROVIDER_KINDS`). */
const texts = Object.entries(RELEASED).map(([type, entry]) => ({
  type,
  entry,
  text: PROVIDER_KINDS.find((kind) => kind.type === type)?.text ?? "",
}));

const METHODS = ["check", "diff", "create", "read", "update", "delete"];

/** A text of the closure-serialized kind older releases stored (2 KB, same runtime entry). */
const OLD_TEXT = `exports.handler = __f0;\nfunction __f0() { return require("pulumi-irm/provider/runtime").group; }\n${"// ".padEnd(1900, "x")}`;

describe("provider texts", () => {
  it("are the released texts, under 110 bytes each", () => {
    for (const { type, entry, text } of texts) {
      expect(text, type).toBe(
        `const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.${entry},configure:r.configure})`,
      );
      expect(Buffer.byteLength(text), type).toBeLessThanOrEqual(110);
    }
    expect(Buffer.byteLength(shim.providerText("group"))).toBe(103);
    expect(texts.map(({ entry }) => shim.providerText(entry))).toEqual(texts.map((t) => t.text));
    expect(PROVIDER_KINDS.map((kind) => kind.type)).toEqual(Object.keys(RELEASED));
  });

  it("load as the host loads them: the runtime's object of the type, with configure", () => {
    // The host loads a text from the program's folder, where the package is installed.
    const project = createConsumerProject({
      name: "provider-text",
      requiredSubpaths: ["./provider/runtime"],
    });
    const cwd = process.cwd();
    process.chdir(project.dir);
    try {
      const installed = project.require("pulumi-irm/provider/runtime") as Record<
        string,
        Record<string, unknown>
      >;
      for (const { type, entry, text } of texts) {
        const provider = requireFromString(text).handler();
        expect(provider.configure, type).toBe(installed.configure);
        for (const method of METHODS) {
          expect(provider[method], `${type}.${method}`).toBe(installed[entry][method]);
        }
      }
    } finally {
      process.chdir(cwd);
      project.remove();
    }
  });

  it("only name what every release's runtime exports", () => {
    expect(typeof runtime.configure).toBe("function");
    for (const { entry } of texts) {
      const handler = (runtime as unknown as Record<string, Record<string, unknown>>)[entry];
      for (const method of METHODS)
        expect(typeof handler[method], `${entry}.${method}`).toBe("function");
    }
  });

  it("are recognised as this package's, of any release", () => {
    for (const { text } of texts) expect(shim.isPackageProviderText(text)).toBe(true);
    expect(shim.isPackageProviderText(OLD_TEXT)).toBe(true);
    expect(shim.isPackageProviderText('exports.handler=()=>require("other")')).toBe(false);
    expect(shim.isPackageProviderText(undefined)).toBe(false);
  });
});

describe("the runtime keeps the stored text in step", () => {
  // A new resource's check reads its parent group once: the runtime talks to an emulator,
  // and the group is the emulator's root.
  let fixture: ProviderFixture;
  let news: { parentUid: string; name: string; description: string };

  beforeAll(async () => {
    fixture = await startProviderFixture();
    await fixture.configureRuntime();
    news = { parentUid: fixture.rootGroupUid, name: "team", description: "" };
  });
  afterAll(() => fixture?.close());

  it("check keeps the text a resource stores, through the host's write of the program's", async () => {
    const result = await runtime.group.check({ ...news, __provider: OLD_TEXT }, { ...news });
    const inputs = result.inputs as unknown as Record<string, unknown>;
    // What the host does with check's inputs before answering.
    inputs.__provider = shim.providerText("group");
    expect(Struct.fromJavaScript(inputs as never).toJavaScript().__provider).toBe(OLD_TEXT);
  });

  it("check of a new resource, or over a foreign text, takes the program's text", async () => {
    for (const olds of [{}, { ...news, __provider: 'exports.handler=()=>require("x")' }]) {
      const result = await runtime.group.check(olds, { ...news });
      const inputs = result.inputs as unknown as Record<string, unknown>;
      inputs.__provider = shim.providerText("group");
      expect(Struct.fromJavaScript(inputs as never).toJavaScript().__provider).toBe(
        shim.providerText("group"),
      );
    }
  });
});
