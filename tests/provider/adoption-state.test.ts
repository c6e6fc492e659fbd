/**
 * The state of an adopted resource across refresh, for every kind that adopts: the
 * provider host hands `read` only the old outputs and takes the inputs it returns as
 * the new ones, so the uid a resource adopted is kept in its outputs and given back in
 * the inputs `read` returns; `check` keeps it in the inputs of an existing resource
 * whatever the program now says. A resource that did not adopt stores no `adoptUid`.
 * Provider methods called directly against the emulator, as the host calls them.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ResourceHandler } from "../../provider/handlers/common";
import * as runtime from "../../provider/runtime";
import { type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

let emu: ProviderFixture;
let viewerRoleUid: string;

const { freshGroup, uniqueName } = useProviderFixture({
  groupPrefix: "adoption-state",
  async onStart(fixture) {
    emu = fixture;
    await emu.configureRuntime();
    const roles = await emu.client.iam.roles.list({ pageSize: 200 });
    viewerRoleUid = roles.items.find((r) => r.name === "viewer")!.uid;
  },
});

/** A JWKS document of one public EC key, as a string. */
function jwks(): string {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1" }] });
}

type State = Record<string, unknown>;
/** The provider methods of one kind, over plain records (each kind's own types aside). */
type Handler = ResourceHandler<State, State>;
const handlerOf = (methods: unknown) => methods as Handler;

/**
 * One kind that adopts: its handler, a program declaring a new object in `group`, and
 * the `adoptUid` that adopts the object a create of that program made.
 */
interface Kind {
  name: string;
  handler: () => Handler;
  program(group: string): Promise<State>;
  adoptUid?(created: { id: string }, program: State): string;
}

async function identityIn(group: string): Promise<string> {
  const made = await emu.client.iam.identities.create(group, {
    name: uniqueName("member"),
    claimMatch: { issuer: "https://issuer.example", subject: "member" },
  });
  return made.uid;
}

const identity = (member: State): Kind["program"] => {
  return async (group) => ({ parentUid: group, name: uniqueName("identity"), ...member });
};

const KINDS: Kind[] = [
  {
    name: "group",
    handler: () => handlerOf(runtime.group),
    program: async (group) => ({ parentUid: group, name: uniqueName("team") }),
  },
  {
    name: "custom role",
    handler: () => handlerOf(runtime.role),
    program: async (group) => ({
      parentUid: group,
      name: uniqueName("role"),
      capabilities: ["CAP_REPO_LIST"],
    }),
  },
  {
    name: "identity (claimMatch)",
    handler: () => handlerOf(runtime.identity),
    program: identity({ claimMatch: { issuer: "https://issuer.example", subject: "ci" } }),
  },
  {
    name: "identity (staticKeys)",
    handler: () => handlerOf(runtime.identity),
    program: identity({
      staticKeys: { issuer: "https://issuer.internal.example", subject: "b", issuerKeys: jwks() },
    }),
  },
  {
    name: "identity (awsIdentity)",
    handler: () => handlerOf(runtime.identity),
    program: identity({
      awsIdentity: {
        awsAccount: "123456789012",
        arn: "arn:aws:iam::123456789012:role/ci",
        userId: "AROAEXAMPLE",
      },
    }),
  },
  {
    name: "identity (servicePrincipal)",
    handler: () => handlerOf(runtime.identity),
    program: identity({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }),
  },
  {
    name: "identity provider",
    handler: () => handlerOf(runtime.idp),
    program: async (group) => ({
      parentUid: group,
      name: uniqueName("sso"),
      defaultRole: viewerRoleUid,
      oidc: { issuer: "https://login.example.com", clientId: "irm-client" },
      clientSecret: "adoption-state-secret",
    }),
  },
  {
    name: "role binding",
    handler: () => handlerOf(runtime.binding),
    program: async (group) => ({
      groupUid: group,
      identityUid: await identityIn(group),
      roleUid: viewerRoleUid,
    }),
  },
  {
    name: "account association",
    handler: () => handlerOf(runtime.assoc),
    program: async (group) => ({
      groupUid: group,
      name: uniqueName("accounts"),
      amazon: { account: "123456789012" },
    }),
    // The group's one association is adopted by the group's uid.
    adoptUid: (_created, program) => String(program.groupUid),
  },
];

async function checked(handler: Handler, olds: State, news: State): Promise<State> {
  const result = await handler.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as State;
}

describe.each(KINDS)("$name", (kind) => {
  /** A new object made by a create, and a second resource adopting it. */
  async function madeThenAdopted() {
    const handler = kind.handler();
    const group = await freshGroup();
    const program = await kind.program(group);
    const plainInputs = await checked(handler, {}, program);
    const plain = await handler.create(plainInputs);
    const adoptUid = kind.adoptUid?.(plain, program) ?? plain.id;
    const adoptedProgram = { ...program, adoptUid };
    const adoptedInputs = await checked(handler, {}, adoptedProgram);
    const adopted = await handler.create(adoptedInputs);
    expect(adopted.id).toBe(plain.id);
    return {
      handler,
      program,
      adoptUid,
      plain: { inputs: plainInputs, outs: plain.outs as State },
      adopted: { inputs: adoptedInputs, outs: adopted.outs as State },
    };
  }

  it("an adopted resource keeps adoptUid in its state, and a refresh gives it back in the inputs; a created one stores none", async () => {
    const { handler, adoptUid, plain, adopted } = await madeThenAdopted();
    expect(adopted.inputs.adoptUid).toBe(adoptUid);
    expect(adopted.outs.adoptUid).toBe(adoptUid);
    const refreshed = await handler.read(adoptUid, adopted.outs);
    expect((refreshed.props as State).adoptUid).toBe(adoptUid);
    expect((refreshed.inputs as State).adoptUid).toBe(adoptUid);
    // Not one byte more for a resource that did not adopt.
    expect(plain.outs).not.toHaveProperty("adoptUid");
    const plainRefreshed = await handler.read(adoptUid, plain.outs);
    expect(plainRefreshed.props).not.toHaveProperty("adoptUid");
    expect(plainRefreshed.inputs).not.toHaveProperty("adoptUid");
    // Either way, a refresh of an object as declared gives back the program's inputs.
    const withText = (inputs: State) => ({ ...inputs, __provider: expect.any(String) });
    expect(refreshed.inputs).toEqual(withText(adopted.inputs));
    expect(plainRefreshed.inputs).toEqual(withText(plain.inputs));
    // A second refresh reads back what the first stored.
    const again = await handler.read(adoptUid, refreshed.props);
    expect(again.inputs).toEqual(refreshed.inputs);
    expect(again.props).toEqual(refreshed.props);
  });

  it("adoptUid edited or removed after the adoption: the inputs keep the uid adopted, no diff, and an update keeps it in state", async () => {
    const { handler, program, adoptUid, plain, adopted } = await madeThenAdopted();
    const stored = adopted.inputs;
    // Removed from the program.
    const removed = await checked(handler, stored, program);
    expect(removed.adoptUid).toBe(adoptUid);
    expect(await handler.diff(adoptUid, adopted.outs, removed)).toEqual({
      changes: false,
    });
    expect(await handler.diff(adoptUid, adopted.outs, { ...program })).toEqual({
      changes: false,
    });
    // Set on a resource that was created, not adopted: ignored, nothing stored.
    const added = await checked(handler, plain.inputs, { ...program, adoptUid });
    expect(added).not.toHaveProperty("adoptUid");
    // An update (here with nothing to send, one GET) keeps the uid adopted in state.
    const updated = await handler.update(adoptUid, adopted.outs, removed);
    expect((updated.outs as State).adoptUid).toBe(adoptUid);
  });

  it("an object read with get: its state is marked external, and neither the read nor a refresh gives inputs but the provider text", async () => {
    // The engine's read step hands `read` the program's inputs (the provider text, no
    // uid) and keeps them as the state's inputs; a refresh must not replace them.
    const { handler, plain } = await madeThenAdopted();
    const uid = plain.outs.uid as string;
    const read = await handler.read(uid, { __provider: "the provider text" });
    expect(read.id).toBe(uid);
    expect(read.props).toMatchObject({ uid, external: true });
    // Only the provider text, as the read step stored: `get` declares nothing else.
    const providerTextOnly = { __provider: expect.any(String) };
    expect(read.inputs).toEqual(providerTextOnly);
    const refreshed = await handler.read(uid, read.props);
    expect(refreshed.props).toEqual(read.props);
    expect(refreshed.inputs).toEqual(providerTextOnly);
    // A managed resource's state carries no mark.
    expect(plain.outs).not.toHaveProperty("external");
    expect((await handler.read(uid, plain.outs)).props).not.toHaveProperty("external");
  });

  it("the old resource's delete, after another resource of the run adopted its object, deletes nothing", async () => {
    // A resource renamed in the program (no alias): the new name adopts the object, and
    // the engine then deletes the old name, whose state holds the same uid.
    const { handler, adoptUid, plain } = await madeThenAdopted();
    await emu.clearRequests();
    await handler.delete(adoptUid, plain.outs);
    expect(await emu.requests()).toEqual([]);
    const refreshed = await handler.read(adoptUid, plain.outs);
    expect(refreshed.id).toBe(adoptUid);
  });
});

describe("a group, further", () => {
  it("a change the API makes in place keeps adoptUid in state; a change that replaces takes the program's", async () => {
    const group = handlerOf(runtime.group);
    const parent = await freshGroup();
    const existing = await emu.client.iam.groups.create(parent, { name: uniqueName("kept") });
    const program = { parentUid: parent, name: existing.name, adoptUid: existing.uid };
    const inputs = await checked(group, {}, program);
    const adopted = await group.create(inputs);
    // Renamed, with adoptUid left out of the program.
    const renamed = { parentUid: parent, name: uniqueName("renamed") };
    const news = await checked(group, inputs, renamed);
    expect(news).toEqual({ ...renamed, description: "", adoptUid: existing.uid });
    expect(await group.diff(existing.uid, adopted.outs!, news)).toEqual({
      changes: true,
    });
    await emu.clearRequests();
    const updated = await group.update(existing.uid, adopted.outs!, news);
    expect((await emu.requests()).map((r) => `${r.method} ${r.query}`)).toEqual([
      "PATCH updateMask=name",
    ]);
    expect(updated.outs).toMatchObject({ name: renamed.name, adoptUid: existing.uid });
    // A new parent replaces the group: the create takes the program's adoptUid (here
    // none, so it creates), as a first create does.
    const elsewhere = await freshGroup();
    const moved = await checked(group, news, { ...renamed, parentUid: elsewhere });
    expect(moved).not.toHaveProperty("adoptUid");
    const movedAdopting = await checked(group, news, {
      ...renamed,
      parentUid: elsewhere,
      adoptUid: `${elsewhere}/0123456789abcdef`,
    });
    expect(movedAdopting.adoptUid).toBe(`${elsewhere}/0123456789abcdef`);
  });
});
