/**
 * The provider's one list of resource types (`provider/kinds.ts`): the runtime's
 * per-type objects, the provider texts, the package's classes and the policy pack's
 * types all agree with it.
 */
import { describe, expect, it } from "vitest";
import { IRM_TYPES, POLICY_RESOURCE_TYPES } from "../../policy/resource-types";
import * as pkg from "../../provider/index";
import { PROVIDER_KINDS, PROVIDER_RESOURCE_TYPES } from "../../provider/kinds";
import { typeToken } from "../../provider/resource-class";
import * as runtime from "../../provider/runtime";
import { isPackageProviderText } from "../../provider/shim";

const METHODS = ["check", "diff", "create", "read", "update", "delete"];

describe("the provider's kinds list", () => {
  it("names ten types, each once, with distinct runtime exports and texts", () => {
    expect(PROVIDER_RESOURCE_TYPES).toEqual([
      "Group",
      "Identity",
      "RoleBinding",
      "Role",
      "IdentityProvider",
      "GroupInvite",
      "AccountAssociation",
      "ExternalGroupRoleMapping",
      "Repo",
      "Subscription",
    ]);
    for (const key of ["type", "runtimeExport", "text"] as const) {
      expect(new Set(PROVIDER_KINDS.map((kind) => kind[key])).size, key).toBe(
        PROVIDER_KINDS.length,
      );
    }
  });

  it("is what the runtime exports: one object per kind, configure, and nothing else", () => {
    const exported = runtime as unknown as Record<string, Record<string, unknown>>;
    for (const kind of PROVIDER_KINDS) {
      for (const method of METHODS) {
        expect(typeof exported[kind.runtimeExport]?.[method], `${kind.type}.${method}`).toBe(
          "function",
        );
      }
    }
    expect(Object.keys(runtime).sort()).toEqual(
      [...PROVIDER_KINDS.map((kind) => kind.runtimeExport), "configure", "describeSettings"].sort(),
    );
  });

  it("pairs each type with the text that calls its runtime export", () => {
    for (const kind of PROVIDER_KINDS) {
      expect(isPackageProviderText(kind.text), kind.type).toBe(true);
      expect(kind.text, kind.type).toContain(`{...r.${kind.runtimeExport},`);
    }
  });

  it("is what the package exports: a class per kind, registered under its type token", () => {
    const classes = pkg as unknown as Record<string, { __pulumiType?: string }>;
    for (const kind of PROVIDER_KINDS) {
      expect(classes[kind.type]?.__pulumiType, kind.type).toBe(typeToken(kind.type));
    }
  });

  it("is what the policy pack judges", () => {
    expect(POLICY_RESOURCE_TYPES).toEqual(PROVIDER_RESOURCE_TYPES);
    expect(Object.values(IRM_TYPES).sort()).toEqual(PROVIDER_RESOURCE_TYPES.map(typeToken).sort());
    expect(IRM_TYPES.roleBinding).toBe("pulumi-nodejs:dynamic/irm:RoleBinding");
    expect(IRM_TYPES.accountAssociation).toBe(pkg.AccountAssociation.__pulumiType);
  });
});
