/**
 * The native plugin as the engine runs it (`plugin/pulumi-resource-irm`, the built
 * package), called over gRPC without the CLI: configuration, secrets, checks, detailed
 * diffs, preview outputs, the lifecycle against the emulator, functions, the move of
 * dynamic state, and its schema generated from the tables.
 */
import * as messages from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { LOOKUP_ARGUMENTS } from "../../provider/lookups";
import { generateSchema } from "../../provider/native/schema";
import { SECRET_SIG, SIG_KEY, UNKNOWN } from "../../provider/native/values";
import { PROVIDER_SHAPES } from "../../provider/shapes";
import { type PluginProcess, startPlugin } from "./support";

const GROUP = "irm:index:Group";
const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

type Plain = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: generated protobuf messages
type Message = any;

describe("the native plugin over gRPC", () => {
  let emulator: TestEmulator;
  let plugin: PluginProcess;

  const call = (method: string, request: Message): Promise<Message> => plugin.call(method, request);
  const struct = (plain: Plain) => Struct.fromJavaScript(plain as never);
  const configure = (args: Plain) => {
    const request = new messages.ConfigureRequest();
    request.setArgs(struct(args));
    request.setAcceptsecrets(true);
    return call("configure", request);
  };
  const check = async (type: string, news: Plain, olds: Plain = {}) => {
    const request = new messages.CheckRequest();
    request.setUrn(urn(type, "r"));
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const response = await call("check", request);
    return {
      inputs: response.getInputs()?.toJavaScript() as Plain,
      failures: response
        .getFailuresList()
        .map((f: Message) => `${f.getProperty()}: ${f.getReason()}`),
    };
  };
  const diff = async (type: string, id: string, olds: Plain, news: Plain) => {
    const request = new messages.DiffRequest();
    request.setUrn(urn(type, "r"));
    request.setId(id);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const response = await call("diff", request);
    const detailed: Record<string, number> = {};
    response.getDetaileddiffMap().forEach((entry: Message, key: string) => {
      detailed[key] = entry.getKind();
    });
    return { changes: response.getChanges(), replaces: response.getReplacesList(), detailed };
  };
  const create = async (type: string, properties: Plain, preview = false) => {
    const request = new messages.CreateRequest();
    request.setUrn(urn(type, "r"));
    request.setProperties(struct(properties));
    request.setPreview(preview);
    const response = await call("create", request);
    return {
      id: response.getId() as string,
      outs: response.getProperties().toJavaScript() as Plain,
    };
  };
  const update = async (type: string, id: string, olds: Plain, news: Plain) => {
    const request = new messages.UpdateRequest();
    request.setUrn(urn(type, "r"));
    request.setId(id);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    return (await call("update", request)).getProperties().toJavaScript() as Plain;
  };
  const remove = (type: string, id: string, properties: Plain) => {
    const request = new messages.DeleteRequest();
    request.setUrn(urn(type, "r"));
    request.setId(id);
    request.setProperties(struct(properties));
    return call("delete", request);
  };
  const writes = async () =>
    (await emulator.requests())
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}?${r.query}`);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    plugin = await startPlugin();
  }, 30_000);

  afterAll(async () => {
    plugin?.close();
    await emulator?.close();
  });

  it("answers the schema generated from the tables and the lookups", async () => {
    const response = await call("getSchema", new messages.GetSchemaRequest());
    const schema = JSON.parse(response.getSchema());
    expect(schema).toEqual(JSON.parse(JSON.stringify(generateSchema(undefined, schema.version))));
    expect(Object.keys(schema.resources).sort()).toEqual(
      Object.keys(PROVIDER_SHAPES)
        .map((type) => `irm:${"index"}:${type}`)
        .sort(),
    );
    expect(Object.keys(schema.functions).sort()).toEqual(
      Object.keys(LOOKUP_ARGUMENTS)
        .map((name) => `irm:index:${name}`)
        .sort(),
    );
    for (const [type, shape] of Object.entries(PROVIDER_SHAPES)) {
      const resource = schema.resources[`irm:index:${type}`];
      expect(Object.keys(resource.inputProperties)).toEqual(Object.keys(shape.inputs));
      expect(Object.keys(resource.properties)).toEqual(Object.keys(shape.outputs));
      for (const [name, input] of Object.entries(shape.inputs) as Array<
        [string, { secret?: boolean; replaces?: unknown }]
      >) {
        expect(resource.inputProperties[name].secret === true, `${type}.${name} secret`).toBe(
          input.secret === true,
        );
        expect(
          resource.inputProperties[name].replaceOnChanges === true,
          `${type}.${name} replaces`,
        ).toBe(input.replaces === true);
      }
    }
    expect(schema.config.variables.token.secret).toBe(true);
    // Generating again gives the same text: nothing depends on order or time.
    expect(JSON.stringify(generateSchema())).toBe(JSON.stringify(generateSchema()));
  });

  it("refuses configuration without an API address, naming the setting, before any request", async () => {
    await expect(configure({})).rejects.toThrow(/irm:apiUrl is not set/);
  });

  it("takes a secret token from configure, and keeps secret inputs secret in check's answer", async () => {
    await configure({
      apiUrl: emulator.url,
      token: secret(emulator.token),
      deleteTimeoutMs: "300",
    });
    const checked = await check(GROUP, {
      parentUid: emulator.rootGroupUid,
      name: "secretive",
      description: secret("not for logs"),
    });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.description).toEqual(secret("not for logs"));
    expect(checked.inputs.name).toBe("secretive");
  });

  it("diffs in detail an input the program dropped, not only those it gives", async () => {
    const parentUid = emulator.rootGroupUid;
    const issuer = "https://issuer.example.com";
    const olds = {
      uid: `${parentUid}/0123456789abcdef`,
      parentUid,
      name: "deployer",
      description: "",
      claimMatch: { issuer, subject: "main" },
    };
    const switched = await diff("irm:index:Identity", olds.uid, olds, {
      parentUid,
      name: "deployer",
      description: "",
      staticKeys: { issuer, issuerKeys: "{}", expiration: "2030-01-01T00:00:00Z" },
    });
    expect(switched.changes).toBe(messages.DiffResponse.DiffChanges.DIFF_SOME);
    expect(Object.keys(switched.detailed).sort()).toEqual(["claimMatch", "staticKeys"]);
  });

  it("fails check naming the input and the rule; unknown values pass in preview", async () => {
    const bad = await check(GROUP, { parentUid: emulator.rootGroupUid, name: "Not Valid!" });
    expect(bad.failures).toHaveLength(1);
    expect(bad.failures[0]).toMatch(/^name: /);
    const unknown = await check(GROUP, { parentUid: UNKNOWN, name: "later" });
    expect(unknown.failures).toEqual([]);
  });

  it("diffs in detail: an update in place, or a replacement", async () => {
    const olds = { uid: "u", parentUid: emulator.rootGroupUid, name: "a", description: "x" };
    const inPlace = await diff(GROUP, "u", olds, {
      parentUid: emulator.rootGroupUid,
      name: "a",
      description: "y",
    });
    expect(inPlace.changes).toBe(messages.DiffResponse.DiffChanges.DIFF_SOME);
    expect(inPlace.replaces).toEqual([]);
    expect(inPlace.detailed).toEqual({ description: messages.PropertyDiff.Kind.UPDATE });
    const moved = await diff(GROUP, "u", olds, {
      parentUid: `${emulator.rootGroupUid}/0123456789abcdef`,
      name: "a",
      description: "x",
    });
    expect(moved.replaces).toEqual(["parentUid"]);
    expect(moved.detailed).toEqual({ parentUid: messages.PropertyDiff.Kind.UPDATE_REPLACE });
    const same = await diff(GROUP, "u", olds, {
      parentUid: emulator.rootGroupUid,
      name: "a",
      description: "x",
    });
    expect(same.changes).toBe(messages.DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("predicts outputs in preview (the uid not known yet) and sends nothing", async () => {
    await emulator.clearRequests();
    const predicted = await create(
      GROUP,
      { parentUid: emulator.rootGroupUid, name: "p", description: "" },
      true,
    );
    expect(predicted.outs.uid).toBe(UNKNOWN);
    expect(predicted.outs.name).toBe("p");
    expect(await emulator.requests()).toEqual([]);
  });

  it("creates, updates with one PATCH, and refuses a blocked delete with the dynamic face's message", async () => {
    await emulator.clearRequests();
    const parent = await create(GROUP, {
      parentUid: emulator.rootGroupUid,
      name: "parent",
      description: "",
    });
    const child = await create(GROUP, { parentUid: parent.id, name: "child", description: "" });
    const updated = await update(GROUP, parent.id, parent.outs, {
      parentUid: emulator.rootGroupUid,
      name: "parent",
      description: "new",
    });
    expect(updated.description).toBe("new");
    expect(await writes()).toEqual([
      `POST /iam/v2beta1/groups/${emulator.rootGroupUid}?`,
      `POST /iam/v2beta1/groups/${parent.id}?`,
      `PATCH /iam/v2beta1/groups/${parent.id}?updateMask=description`,
    ]);
    await expect(remove(GROUP, parent.id, updated)).rejects.toThrow(
      `Cannot delete group "parent" (${parent.id}): it still holds group "child" (${child.id})`,
    );
    await remove(GROUP, child.id, child.outs);
    await remove(GROUP, parent.id, updated);
  });

  it("serves the lookups as functions, listings as items", async () => {
    const request = new messages.InvokeRequest();
    request.setTok("irm:index:getRole");
    request.setArgs(struct({ name: "viewer" }));
    const role = (await call("invoke", request)).getReturn().toJavaScript() as Plain;
    expect(role.name).toBe("viewer");
    request.setTok("irm:index:getRoles");
    request.setArgs(struct({}));
    const roles = (await call("invoke", request)).getReturn().toJavaScript() as { items: Plain[] };
    expect(roles.items.some((r) => r.uid === role.uid)).toBe(true);
    request.setTok("irm:index:getRole");
    request.setArgs(struct({}));
    await expect(call("invoke", request)).rejects.toThrow(/getRole: name: is required/);
  });

  it("drops the provider text of state a dynamic resource wrote, with a read and no write", async () => {
    const made = await create(GROUP, {
      parentUid: emulator.rootGroupUid,
      name: "moved",
      description: "",
    });
    const dynamicState = {
      ...made.outs,
      __provider: "exports.handler = require('pulumi-irm/provider/runtime').group",
    };
    const news = { parentUid: emulator.rootGroupUid, name: "moved", description: "" };
    const planned = await diff(GROUP, made.id, dynamicState, news);
    expect(planned.detailed).toEqual({ __provider: messages.PropertyDiff.Kind.DELETE });
    await emulator.clearRequests();
    const outs = await update(GROUP, made.id, dynamicState, news);
    expect(outs).toEqual(made.outs);
    expect(await writes()).toEqual([]);
    await remove(GROUP, made.id, outs);
  });
});
