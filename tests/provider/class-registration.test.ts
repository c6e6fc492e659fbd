/**
 * What each resource class hands the engine when a program declares it: every output
 * it registers (in order), the defaults of the inputs the program leaves out, the
 * outputs stored as secrets and its provider text. These are in users' state and plans,
 * so they are pinned here as written out, whatever the classes derive them from (the
 * shape tables of `provider/shapes/`).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as irm from "../../provider/index";
import { PROVIDER_KINDS } from "../../provider/kinds";

interface Registered {
  props: Record<string, unknown>;
  additionalSecretOutputs: readonly string[];
}

const ROOT = "a".repeat(40);

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${ROOT}/made`, state: args.inputs }),
      call: () => ({}),
    },
    "class-registration",
    "dev",
    false,
  );
});

/** What `new Class(name, {})` registers, taken by a resource transformation. */
function registered(type: string): Registered {
  const Class = (irm as unknown as Record<string, unknown>)[type] as new (
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) => pulumi.CustomResource;
  let taken: Registered | undefined;
  new Class(
    `registered-${type}`,
    {},
    {
      transformations: [
        (args) => {
          taken = {
            props: { ...args.props },
            additionalSecretOutputs:
              (args.opts as pulumi.CustomResourceOptions).additionalSecretOutputs ?? [],
          };
          return undefined;
        },
      ],
    },
  );
  if (!taken) throw new Error(`${type} registered nothing`);
  return taken;
}

/** Per class: its registered outputs in order, the defaults of its inputs, its secret outputs. */
const EXPECTED: Record<
  string,
  { outputs: string[]; defaults: Record<string, unknown>; secret: string[] }
> = {
  Group: {
    outputs: [
      "parentUid",
      "name",
      "description",
      "verified",
      "resourceLimits",
      "createTime",
      "updateTime",
    ],
    defaults: { description: "" },
    secret: [],
  },
  Identity: {
    outputs: [
      "parentUid",
      "name",
      "description",
      "claimMatch",
      "staticKeys",
      "awsIdentity",
      "servicePrincipal",
      "lastSeenTime",
      "createTime",
      "updateTime",
    ],
    defaults: { description: "" },
    secret: [],
  },
  RoleBinding: {
    outputs: ["groupUid", "identityUid", "roleUid", "builtInRoleName", "createTime"],
    defaults: {},
    secret: [],
  },
  Role: {
    outputs: ["parentUid", "name", "description", "capabilities", "createTime", "updateTime"],
    defaults: { description: "" },
    secret: [],
  },
  IdentityProvider: {
    outputs: [
      "parentUid",
      "name",
      "description",
      "defaultRole",
      "oidc",
      "clientSecret",
      "createTime",
      "updateTime",
    ],
    defaults: { description: "" },
    secret: ["clientSecret"],
  },
  GroupInvite: {
    outputs: [
      "groupUid",
      "roleUid",
      "ttl",
      "email",
      "singleUse",
      "expirationTime",
      "keyId",
      "createTime",
      "code",
    ],
    defaults: { email: "", singleUse: false },
    secret: ["code"],
  },
  AccountAssociation: {
    outputs: [
      "groupUid",
      "name",
      "description",
      "amazon",
      "google",
      "azure",
      "github",
      "chainguard",
      "createTime",
      "updateTime",
    ],
    defaults: { description: "" },
    secret: [],
  },
  ExternalGroupRoleMapping: {
    outputs: ["identityProviderUid", "externalGroupId", "roleUid", "scope", "createTime"],
    defaults: {},
    secret: [],
  },
  Repo: {
    outputs: [
      "parentUid",
      "name",
      "description",
      "catalogTier",
      "aliases",
      "readme",
      "createTime",
      "updateTime",
    ],
    defaults: {
      description: "",
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      aliases: [],
      readme: "",
    },
    secret: [],
  },
  // `createTime` is kept in state only (the API never answers one): not registered.
  Subscription: { outputs: ["parentUid", "sink"], defaults: {}, secret: [] },
};

describe("what each resource class registers", () => {
  it("covers every kind", () => {
    expect(Object.keys(EXPECTED)).toEqual(PROVIDER_KINDS.map((kind) => kind.type));
  });

  it.each(PROVIDER_KINDS.map((kind) => [kind.type, kind.text] as const))(
    "%s: its outputs, defaults, secret outputs and provider text",
    (type, text) => {
      const expected = EXPECTED[type];
      const { props, additionalSecretOutputs } = registered(type);
      const { __provider, ...rest } = props;
      expect(__provider).toBe(text);
      // Every output but `uid` registered (not known yet), in order, then nothing but the
      // defaults: `uid` is answered from the resource's id, with no property of its own.
      expect(Object.keys(rest)).toEqual(expected.outputs);
      const given = Object.fromEntries(
        Object.entries(rest).filter(([, value]) => value !== undefined),
      );
      expect(given).toEqual(expected.defaults);
      expect([...additionalSecretOutputs]).toEqual(expected.secret);
    },
  );

  it.each(PROVIDER_KINDS.map((kind) => [kind.type] as const))(
    "%s: its uid is its id, not a registered output",
    (type) => {
      const Class = (irm as unknown as Record<string, unknown>)[type] as new (
        name: string,
        args: object,
      ) => pulumi.CustomResource & { uid: unknown };
      const resource = new Class(`uid-${type}`, {});
      expect(registered(type).props).not.toHaveProperty("uid");
      expect(resource.uid).toBe(resource.id);
    },
  );
});
