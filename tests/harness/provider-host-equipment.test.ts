/**
 * The provider-host equipment against a toy dynamic provider: the provider is serialized
 * by a program running under `runtime.setMocks` (as `pulumi up` serializes it) and then
 * served by the real `@pulumi/pulumi` dynamic-provider host over gRPC.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "../../harness/installed-package";
import {
  type ProviderHost,
  ProviderHostError,
  startProviderHost,
  UNKNOWN_VALUE,
} from "../../harness/provider-host";

interface ToyInputs {
  name: string;
  size?: number;
  exclusive?: boolean;
  locked?: boolean;
}

// The settings object is copied into the serialized provider with it; configure fills it
// in inside the host process.
const toySettings = { prefix: "", secretLength: 0 };

const toyProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    toySettings.prefix = req.config.get("toy:prefix") ?? "none";
    toySettings.secretLength = (req.config.get("toy:secret") ?? "").length;
  },
  async check(_olds, news) {
    const name = String(news.name ?? "");
    if (name === "")
      return { inputs: news, failures: [{ property: "name", reason: "name is required" }] };
    return { inputs: { ...news, name: name.toLowerCase() } };
  },
  async diff(_id, olds, news) {
    const replaces = olds.name === news.name ? [] : ["name"];
    const changes = replaces.length > 0 || olds.size !== news.size;
    return { changes, replaces, deleteBeforeReplace: news.exclusive === true };
  },
  async create(inputs) {
    if (inputs.name === "boom") throw new Error("toy cannot create boom");
    return {
      id: `${toySettings.prefix}-${inputs.name}`,
      outs: { ...inputs, secretLength: toySettings.secretLength },
    };
  },
  async read(id, props) {
    if (id.startsWith("gone")) return { id: "" };
    return {
      id,
      props: { ...props, refreshed: true },
      inputs: { name: props.name, size: props.size },
    };
  },
  async update(_id, _olds, news) {
    return { outs: { ...news, updated: true } };
  },
  async delete(_id, props) {
    if (props.locked) throw new Error("toy refuses to delete a locked resource");
  },
};

class ToyResource extends pulumi.dynamic.Resource {
  constructor(name: string, args: ToyInputs) {
    super(toyProvider, name, { ...args }, undefined, "toy", "Thing");
  }
}

/** Runs a one-resource program under mocks and returns the serialized provider text. */
async function serializedToyProvider(): Promise<{ type: string; providerText: string }> {
  let captured: { type: string; providerText: string } | undefined;
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        captured = { type: args.type, providerText: String(args.inputs.__provider) };
        return { id: "mock-id", state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "toy-project",
    "dev",
  );
  const thing = new ToyResource("thing", { name: "Thing" });
  await new Promise<void>((resolve) => thing.urn.apply(() => resolve()));
  if (!captured) throw new Error("the program registered no resource");
  return captured;
}

const urn = "urn:pulumi:dev::toy-project::pulumi-nodejs:dynamic/toy:Thing::thing";

describe("provider host (real @pulumi/pulumi dynamic-provider host over gRPC)", () => {
  let host: ProviderHost;
  let providerText: string;
  let resourceType: string;

  beforeAll(async () => {
    ({ providerText, type: resourceType } = await serializedToyProvider());
    const cwd = scratchDir("provider-host-toy");
    fs.mkdirSync(cwd, { recursive: true });
    fs.writeFileSync(
      path.join(cwd, "package.json"),
      JSON.stringify({ name: "toy", private: true }),
    );
    host = await startProviderHost({ cwd, projectName: "toy-project" });
    await host.configure({ "toy:prefix": "p", "toy:secret": "s3cr3t-value" }, ["toy:secret"]);
  });

  afterAll(async () => {
    await host?.close();
    fs.rmSync(scratchDir("provider-host-toy"), { recursive: true, force: true });
  });

  const withProvider = (props: Record<string, unknown>) => ({ ...props, __provider: providerText });

  it("serializes the provider under the dynamic type token", () => {
    expect(resourceType).toBe("pulumi-nodejs:dynamic/toy:Thing");
    expect(providerText).toContain("toy cannot create boom");
  });

  it("runs check, returning normalized inputs and failures", async () => {
    const ok = await host.check(urn, {}, withProvider({ name: "Thing" }));
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toEqual(withProvider({ name: "thing" }));

    const bad = await host.check(urn, {}, withProvider({ name: "" }));
    expect(bad.failures).toEqual([{ property: "name", reason: "name is required" }]);
  });

  it("passes unknown values through check untouched", async () => {
    const result = await host.check(urn, {}, withProvider({ name: "thing", size: UNKNOWN_VALUE }));
    expect(result.inputs.size).toBe(UNKNOWN_VALUE);
  });

  it("creates with the configuration it was given, secrets unwrapped", async () => {
    const created = await host.create(urn, withProvider({ name: "thing", size: 1 }));
    expect(created.id).toBe("p-thing");
    expect(created.properties).toEqual(withProvider({ name: "thing", size: 1, secretLength: 12 }));
  });

  it("reports diffs: none, some, replace, delete-before-replace", async () => {
    const olds = withProvider({ name: "thing", size: 1 });
    expect(await host.diff("p-thing", urn, olds, withProvider({ name: "thing", size: 1 }))).toEqual(
      {
        changes: "none",
        replaces: [],
        deleteBeforeReplace: false,
      },
    );
    expect(
      (await host.diff("p-thing", urn, olds, withProvider({ name: "thing", size: 2 }))).changes,
    ).toBe("some");
    expect(
      await host.diff("p-thing", urn, olds, withProvider({ name: "other", exclusive: true })),
    ).toEqual({
      changes: "some",
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
  });

  it("updates, returning the provider's full outputs", async () => {
    const outputs = await host.update(
      "p-thing",
      urn,
      withProvider({ name: "thing", size: 1 }),
      withProvider({ name: "thing", size: 2 }),
    );
    expect(outputs).toEqual(withProvider({ name: "thing", size: 2, updated: true }));
  });

  it("reads: refreshed properties and inputs, or an empty id when gone", async () => {
    const read = await host.read("p-thing", urn, withProvider({ name: "thing", size: 2 }));
    expect(read).toEqual({
      id: "p-thing",
      properties: withProvider({ name: "thing", size: 2, refreshed: true }),
      inputs: withProvider({ name: "thing", size: 2 }),
    });
    const gone = await host.read("gone-thing", urn, withProvider({ name: "thing" }));
    expect(gone.id).toBe("");
  });

  it("surfaces the provider's error message from create and delete", async () => {
    const createError = await host
      .create(urn, withProvider({ name: "boom" }))
      .catch((e: unknown) => e);
    expect(createError).toBeInstanceOf(ProviderHostError);
    expect(createError).toMatchObject({ method: "Create", urn, message: "toy cannot create boom" });

    await expect(
      host.delete("p-thing", urn, withProvider({ name: "thing", locked: true })),
    ).rejects.toThrow("toy refuses to delete a locked resource");
    await expect(
      host.delete("p-thing", urn, withProvider({ name: "thing" })),
    ).resolves.toBeUndefined();
  });

  it("never echoes the secret configuration value", () => {
    expect(host.stderr()).not.toContain("s3cr3t-value");
  });
});
