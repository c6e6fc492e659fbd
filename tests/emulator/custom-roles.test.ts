/**
 * Custom roles, refined (addendum 7): at least one capability, reserved built-in names,
 * deletes refused while a binding or an identity provider's defaultRole uses the role
 * (never because of an invite), and usable only in the role's own group and below.
 */
import { describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;

useTestOrg((started) => {
  ({ emu, o } = started);
});

const roles = (suffix = "") => `/iam/v2beta1/roles${suffix}`;

describe("capabilities are required", () => {
  it.each([[{}], [{ capabilities: [] }], [{ capabilities: null }]])(
    "a create with %j is refused",
    async (extra) => {
      const reply = await o.call("POST", roles(`/${emu.rootGroupUid}`), {
        body: { name: "empty", ...extra },
      });
      expect(failure(reply)).toEqual([
        400,
        "Invalid argument: capabilities: at least one capability is required",
      ]);
    },
  );

  it("an update may not leave the list empty, with or without a mask; the role is unchanged", async () => {
    const uid = await o.role(emu.rootGroupUid, ["CAP_IAM_GROUPS_LIST"]);
    for (const path of [roles(`/${uid}`), roles(`/${uid}?updateMask=capabilities`)]) {
      const reply = await o.call("PATCH", path, { body: { capabilities: [] } });
      expect(failure(reply)).toEqual([
        400,
        "Invalid argument: capabilities: at least one capability is required",
      ]);
    }
    const star = await o.call("PATCH", roles(`/${uid}?updateMask=*`), {
      body: { name: "still named" },
    });
    expect(failure(star)).toEqual([
      400,
      "Invalid argument: capabilities: at least one capability is required",
    ]);
    const stored = await o.call<Json>("GET", roles(`/${uid}`));
    expect(stored.body.capabilities).toEqual(["CAP_IAM_GROUPS_LIST"]);
  });
});

describe("built-in names are reserved", () => {
  it.each(["owner", "editor", "viewer", "registry.pull"])(
    "%s cannot name a custom role, at create or by update",
    async (name) => {
      const created = await o.call("POST", roles(`/${emu.rootGroupUid}`), {
        body: { name, capabilities: ["CAP_IAM_GROUPS_LIST"] },
      });
      expect(failure(created)).toEqual([
        400,
        "Invalid argument: name: is the name of a built-in role",
      ]);
      const uid = await o.role(emu.rootGroupUid, ["CAP_IAM_GROUPS_LIST"]);
      const renamed = await o.call("PATCH", roles(`/${uid}`), { body: { name } });
      expect(failure(renamed)).toEqual([
        400,
        "Invalid argument: name: is the name of a built-in role",
      ]);
    },
  );

  it("other duplicate names are allowed", async () => {
    await o.role(emu.rootGroupUid, ["CAP_IAM_GROUPS_LIST"], "twin");
    await o.role(emu.rootGroupUid, ["CAP_IAM_GROUPS_LIST"], "twin");
  });
});

describe("deletes refused while the role is in use", () => {
  it("a binding blocks the delete until it is gone", async () => {
    const group = await o.group(emu.rootGroupUid);
    const role = await o.role(group, ["CAP_IAM_GROUPS_LIST"]);
    const binding = await o.bind(group, await o.identity(group), role);
    const refused = await o.call<Json>("DELETE", roles(`/${role}`));
    expect(failure(refused)).toEqual([
      400,
      `Precondition failed: role ${role} is still bound by 1 role binding`,
    ]);
    expect(JSON.stringify(refused.body)).toContain('"type":"RESOURCE_IN_USE"');
    await o.call("DELETE", `/iam/v2beta1/roleBindings/${binding}`);
    expect((await o.call("DELETE", roles(`/${role}`))).status).toBe(200);
  });

  it("an identity provider's defaultRole blocks the delete; the message counts both uses", async () => {
    const group = await o.group(emu.rootGroupUid);
    const role = await o.role(group, ["CAP_IAM_GROUPS_LIST"]);
    const provider = await o.identityProvider(group, role);
    const binding = await o.bind(group, await o.identity(group), role);
    const both = await o.call<Json>("DELETE", roles(`/${role}`));
    expect(failure(both)).toEqual([
      400,
      `Precondition failed: role ${role} is still bound by 1 role binding and the default role of 1 identity provider`,
    ]);
    await o.call("DELETE", `/iam/v2beta1/roleBindings/${binding}`);
    const providerOnly = await o.call<Json>("DELETE", roles(`/${role}`));
    expect(failure(providerOnly)).toEqual([
      400,
      `Precondition failed: role ${role} is still the default role of 1 identity provider`,
    ]);
    expect(JSON.stringify(providerOnly.body)).toContain('"type":"RESOURCE_IN_USE"');
    await o.call("DELETE", `/iam/v2beta1/identityProviders/${provider}`);
    expect((await o.call("DELETE", roles(`/${role}`))).status).toBe(200);
  });

  it("a group invite never blocks it: the invite stays, without its hydrated role", async () => {
    const group = await o.group(emu.rootGroupUid);
    const role = await o.role(group, ["CAP_IAM_GROUPS_LIST"]);
    const invite = await o.call<Json>("POST", `/iam/v2beta1/groupInvites/${group}`, {
      body: { roleUid: role, ttl: "3600s" },
    });
    expect(invite.body.role).toMatchObject({ uid: role, capabilities: ["CAP_IAM_GROUPS_LIST"] });
    expect((await o.call("DELETE", roles(`/${role}`))).status).toBe(200);
    const after = await o.call<Json>("GET", `/iam/v2beta1/groupInvites/${invite.body.uid}`);
    expect(after.status).toBe(200);
    expect(after.body.roleUid).toBe(role);
    expect(after.body).not.toHaveProperty("role");
  });
});

describe("usable only in its own group and below", () => {
  it("bindings, invites and default roles accept the role in its group and a child, refuse it elsewhere", async () => {
    const parent = await o.group(emu.rootGroupUid);
    const child = await o.group(parent);
    const sibling = await o.group(emu.rootGroupUid);
    const role = await o.role(parent, ["CAP_IAM_GROUPS_LIST"]);
    const attempts = (group: string) => ({
      roleBindings: [
        `/iam/v2beta1/roleBindings/${group}`,
        { identityUid: `${emu.rootGroupUid}/${"0".repeat(16)}`, roleUid: role },
        "roleUid",
      ],
      groupInvites: [
        `/iam/v2beta1/groupInvites/${group}`,
        { roleUid: role, ttl: "60s" },
        "roleUid",
      ],
      identityProviders: [
        `/iam/v2beta1/identityProviders/${group}`,
        {
          name: "sso",
          defaultRole: role,
          oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
        },
        "defaultRole",
      ],
    });
    for (const group of [parent, child]) {
      const identity = await o.identity(group);
      expect(
        (
          await o.call("POST", `/iam/v2beta1/roleBindings/${group}`, {
            body: { identityUid: identity, roleUid: role },
          })
        ).status,
      ).toBe(200);
      for (const [path, body] of Object.values(attempts(group)).slice(1)) {
        expect((await o.call("POST", path as string, { body })).status, `${path}`).toBe(200);
      }
    }
    for (const group of [sibling, emu.rootGroupUid]) {
      const identity = await o.identity(group);
      const cases = attempts(group);
      cases.roleBindings[1] = { identityUid: identity, roleUid: role };
      for (const [path, body, field] of Object.values(cases)) {
        const reply = await o.call("POST", path as string, { body });
        expect(failure(reply), `${path}`).toEqual([
          400,
          `Invalid argument: ${field}: the role belongs to a group that is not this group or an ancestor`,
        ]);
      }
    }
  });
});
