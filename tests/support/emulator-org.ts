/**
 * Building blocks for tests of the IAM collections: groups, identities, custom roles and
 * bindings made over HTTP, and callers acting as an identity bound to chosen roles.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc } from "./emulator-http";

export type Json = Record<string, unknown>;

export interface Org {
  emu: TestEmulator;
  /** The owner's caller. */
  call: Caller;
  group(parent: string, name?: string): Promise<string>;
  identity(parent: string, body?: Json): Promise<string>;
  role(parent: string, capabilities: string[], name?: string): Promise<string>;
  builtIn(name: string): Promise<string>;
  bind(groupUid: string, identityUid: string, roleUid: string): Promise<string>;
  /** An identity provider "sso" in `parent` with `defaultRole`; PKCE, no client secret. */
  identityProvider(parent: string, defaultRole: string): Promise<string>;
  /**
   * A caller acting as a new identity in `home` bound to each `[group, role uid]` given.
   * Answers the caller and the identity's uid.
   */
  actor(
    home: string,
    grants: Array<[string, string]>,
  ): Promise<{ call: Caller; identityUid: string }>;
  /** A caller acting as a new identity in `home` bound there to a new role of `capabilities`. */
  actorWith(home: string, capabilities: string[]): Promise<{ call: Caller; identityUid: string }>;
}

let counter = 0;

/** A name unique within a test run (names need not be unique, but it helps reading failures). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix} ${counter}`;
}

export function org(emu: TestEmulator): Org {
  const call = caller(emu.url, emu.token);
  const builtIns = new Map<string, string>();
  const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const reply = await call<Json>(method, path, { body });
    if (reply.status !== 200) {
      throw new Error(`${method} ${path} answered ${reply.status}: ${reply.text}`);
    }
    return reply.body;
  };
  const self: Org = {
    emu,
    call,
    group: async (parent, name = uniqueName("group")) =>
      (await ok("POST", `/iam/v2beta1/groups/${parent}`, { name })).uid as string,
    identity: async (parent, body) =>
      (
        await ok(
          "POST",
          `/iam/v2beta1/identities/${parent}`,
          body ?? {
            name: uniqueName("identity"),
            claimMatch: { issuer: "https://issuer.example", subject: uniqueName("subject") },
          },
        )
      ).uid as string,
    role: async (parent, capabilities, name = uniqueName("role")) =>
      (await ok("POST", `/iam/v2beta1/roles/${parent}`, { name, capabilities })).uid as string,
    builtIn: async (name) => {
      const known = builtIns.get(name);
      if (known) return known;
      const reply = await call<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=${enc(name)}`);
      const found = reply.body.roles.find((role) => !String(role.uid).includes("/"));
      expect(found, `built-in role ${name}`).toBeDefined();
      builtIns.set(name, found?.uid as string);
      return found?.uid as string;
    },
    bind: async (groupUid, identityUid, roleUid) =>
      (await ok("POST", `/iam/v2beta1/roleBindings/${groupUid}`, { identityUid, roleUid }))
        .uid as string,
    identityProvider: async (parent, defaultRole) =>
      (
        await ok("POST", `/iam/v2beta1/identityProviders/${parent}`, {
          name: "sso",
          defaultRole,
          oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
        })
      ).uid as string,
    actor: async (home, grants) => {
      const identityUid = await self.identity(home);
      for (const [groupUid, roleUid] of grants) await self.bind(groupUid, identityUid, roleUid);
      return { call: caller(emu.url, await emu.mintToken(identityUid)), identityUid };
    },
    actorWith: async (home, capabilities) =>
      self.actor(home, [[home, await self.role(home, capabilities)]]),
  };
  return self;
}

/**
 * Starts a test emulator before the file's tests, closing it after them, and hands it
 * and its Org to `onStart` (before any `beforeAll` registered after this call runs).
 */
export function useTestOrg(onStart: (started: { emu: TestEmulator; o: Org }) => void): void {
  let emu: TestEmulator | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator();
    onStart({ emu, o: org(emu) });
  });
  afterAll(() => emu?.close());
}

/** The error message and HTTP status of a reply, for compact assertions. */
export function failure(reply: { status: number; body: unknown }): [number, string] {
  return [reply.status, String((reply.body as Json | undefined)?.message)];
}
