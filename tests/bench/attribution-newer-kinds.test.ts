/**
 * The per-resource rows of the operations benchmark for the kinds the registry writes
 * and event subscriptions added: a repo's README requests count for the repo, a
 * mapping's create (addressed to its identity provider) for the mapping, and the check
 * of a replacement reading its container for the replacement, not the container.
 */
import { describe, expect, it } from "vitest";
import { attributeRequests, type StepRef } from "../../bench/lib/attribution";
import type { LogEntry } from "../../harness/emulator";
import type { StateResource } from "../../harness/stack";

const ROOT = "b".repeat(40);
const TEAM = `${ROOT}/1111111111111111`;
const SSO = `${TEAM}/2222222222222222`;
const TYPE = (kind: string) => `pulumi-nodejs:dynamic/irm:${kind}`;

function resource(name: string, kind: string, id: string, inputs: Record<string, unknown>) {
  return {
    urn: `urn:pulumi:dev::operations::${TYPE(kind)}::${name}`,
    name,
    type: TYPE(kind),
    id,
    inputs,
    outputs: {},
    protect: false,
    retainOnDelete: false,
    dependencies: [],
  } satisfies StateResource;
}

let seq = 0;
function request(method: string, path: string, query = ""): LogEntry {
  seq += 1;
  return { seq, method, path, query, status: 200, time: "2026-11-29T08:00:00.000Z" };
}
const step = (op: string, r: StateResource): StepRef => ({ op, urn: r.urn });
const methods = (entries: LogEntry[] | undefined) => (entries ?? []).map((e) => e.method);

describe("attribution of the newer kinds", () => {
  it("a repo's README PATCH and GET are the repo's", () => {
    const web = resource("web", "Repo", `${TEAM}/3333333333333333`, { parentUid: TEAM });
    const readme = `/registry/v2beta1/repos/${encodeURIComponent(web.id)}/readme`;
    const created = attributeRequests(
      [
        request("POST", `/registry/v2beta1/repos/${TEAM}`),
        request("PATCH", readme, "updateMask=content"),
      ],
      [],
      [web],
      [step("create", web)],
    );
    expect(methods(created.byName.get("web"))).toEqual(["POST", "PATCH"]);
    expect(created.unattributed).toEqual([]);
    const refreshed = attributeRequests(
      [request("GET", `/registry/v2beta1/repos/${web.id}`), request("GET", readme)],
      [web],
      [web],
      [],
    );
    expect(methods(refreshed.byName.get("web"))).toEqual(["GET", "GET"]);
    expect(refreshed.unattributed).toEqual([]);
  });

  it("a mapping is created under its identity provider, and replaced there", () => {
    const old = resource("staff", "ExternalGroupRoleMapping", `${SSO}/4444444444444444`, {
      identityProviderUid: SSO,
    });
    const next = { ...old, id: `${SSO}/5555555555555555` };
    const replaced = attributeRequests(
      [
        request("POST", `/iam/v2beta1/externalGroupRoleMappings/${SSO}`),
        request("DELETE", `/iam/v2beta1/externalGroupRoleMappings/${old.id}`),
      ],
      [old],
      [next],
      [step("create-replacement", next), step("delete-replaced", old)],
    );
    expect(methods(replaced.byName.get("staff"))).toEqual(["POST", "DELETE"]);
    expect(replaced.unattributed).toEqual([]);
  });

  it("a replacement's check reading its container counts for the replacement", () => {
    const sso = resource("team-sso", "IdentityProvider", SSO, { parentUid: TEAM });
    const old = resource("staff", "ExternalGroupRoleMapping", `${SSO}/4444444444444444`, {
      identityProviderUid: SSO,
    });
    const next = { ...old, id: `${SSO}/5555555555555555` };
    const accounts = resource("accounts", "AccountAssociation", TEAM, { groupUid: TEAM });
    const run = attributeRequests(
      [
        request("PATCH", `/iam/v2beta1/identityProviders/${SSO}`, "updateMask=description"),
        request("GET", `/iam/v2beta1/identityProviders/${SSO}`),
        request("PATCH", `/iam/v2beta1/accountAssociations/${TEAM}`, "updateMask=description"),
        request("POST", `/iam/v2beta1/externalGroupRoleMappings/${SSO}`),
        request("DELETE", `/iam/v2beta1/externalGroupRoleMappings/${old.id}`),
      ],
      [sso, old, accounts],
      [sso, next, accounts],
      [
        step("update", sso),
        step("update", accounts),
        step("create-replacement", next),
        step("delete-replaced", old),
      ],
    );
    expect(methods(run.byName.get("staff"))).toEqual(["GET", "POST", "DELETE"]);
    expect(methods(run.byName.get("team-sso"))).toEqual(["PATCH"]);
    expect(run.unattributed).toEqual([]);
  });

  it("a GET with no create under it later stays the object's own", () => {
    const sso = resource("team-sso", "IdentityProvider", SSO, { parentUid: TEAM });
    const run = attributeRequests(
      [request("GET", `/iam/v2beta1/identityProviders/${SSO}`)],
      [sso],
      [sso],
      [],
    );
    expect(methods(run.byName.get("team-sso"))).toEqual(["GET"]);
  });
});
