/**
 * Provider methods of `ExternalGroupRoleMapping`. A mapping never changes (the API has
 * no update: delete and create anew), so every input replaces it. The service allows
 * one mapping per provider, outside group, role and scope, so after a lost create the
 * mapping that create made is the one matching all four, made since it was sent.
 */
import type { ExternalGroupRoleMapping, IrmClient } from "../../sdk/index";
import { MAX_PAGE_SIZE } from "../../sdk/index";
import { checkExternalGroupRoleMappingInputs } from "../checks";
import type {
  ExternalGroupRoleMappingInputs,
  ExternalGroupRoleMappingOutputs,
} from "../shapes/index";
import { createOrNameDuplicate, type FieldSpec, firstMatching, pick, sameField } from "./common";
import { objectHandler } from "./object-handler";

type Field = FieldSpec<ExternalGroupRoleMappingInputs, ExternalGroupRoleMappingOutputs>;
/** Every input but the provider (the container): the API cannot change a mapping. */
const REPLACING: readonly Field[] = [
  sameField("externalGroupId"),
  sameField("roleUid"),
  sameField("scope"),
];

export function externalGroupRoleMappingOutputs(
  mapping: ExternalGroupRoleMapping,
): ExternalGroupRoleMappingOutputs {
  return {
    uid: mapping.uid,
    identityProviderUid: mapping.identityProviderUid,
    externalGroupId: mapping.externalGroupId,
    roleUid: mapping.roleUid,
    scope: mapping.scope,
    createTime: mapping.createTime,
  };
}

/** The mapping of this outside group to this role and scope in the provider, if any. */
function findMapping(
  client: IrmClient,
  inputs: ExternalGroupRoleMappingInputs,
): Promise<ExternalGroupRoleMapping | undefined> {
  return firstMatching(
    client.iam.externalGroupRoleMappings.list({
      identityProviderUid: inputs.identityProviderUid,
      pageSize: MAX_PAGE_SIZE,
    }),
    (mapping) =>
      mapping.externalGroupId === inputs.externalGroupId &&
      mapping.roleUid === inputs.roleUid &&
      mapping.scope === inputs.scope,
  );
}

/** One create; a duplicate is refused with the existing mapping's uid and how to adopt it. */
function createMapping(
  client: IrmClient,
  inputs: ExternalGroupRoleMappingInputs,
): Promise<ExternalGroupRoleMapping> {
  return createOrNameDuplicate(
    `A mapping of outside group ${JSON.stringify(inputs.externalGroupId)} to role ${inputs.roleUid} ` +
      `in identity provider ${inputs.identityProviderUid}`,
    () =>
      client.iam.externalGroupRoleMappings.create(inputs.identityProviderUid, {
        externalGroupId: inputs.externalGroupId,
        roleUid: inputs.roleUid,
        scope: inputs.scope,
      }),
    () => findMapping(client, inputs),
  );
}

export const externalGroupRoleMappingHandler = objectHandler<
  ExternalGroupRoleMappingInputs,
  ExternalGroupRoleMappingOutputs,
  ExternalGroupRoleMapping,
  Record<string, never>,
  never
>({
  kind: "external group role mapping",
  container: sameField("identityProviderUid"),
  containerKind: {
    noun: "identity provider",
    api: (client) => client.iam.identityProviders,
  },
  replacing: REPLACING,
  updatable: [],
  check: checkExternalGroupRoleMappingInputs,
  api: (client) => ({
    get: (uid: string) => client.iam.externalGroupRoleMappings.get(uid),
    delete: (uid: string) => client.iam.externalGroupRoleMappings.delete(uid),
    isGone: (error: unknown, uid: string) =>
      client.iam.externalGroupRoleMappings.isGone(error, uid),
    // Every input replaces the mapping, so the lifecycle never sends an update.
    update: (uid: string): Promise<ExternalGroupRoleMapping> =>
      Promise.reject(
        new Error(`External group role mapping ${uid} cannot be changed; it is replaced instead.`),
      ),
  }),
  outputs: async (mapping) => externalGroupRoleMappingOutputs(mapping),
  inputsFrom: (outputs) =>
    pick(outputs, ["identityProviderUid", "externalGroupId", "roleUid", "scope"]),
  patchBody: () => ({}),
  create: createMapping,
  candidates: async (client, inputs) => {
    const existing = await findMapping(client, inputs);
    return existing ? [existing] : [];
  },
  describe: (inputs) =>
    `a mapping of outside group ${JSON.stringify(inputs.externalGroupId)} to role ${inputs.roleUid} in identity provider ${inputs.identityProviderUid}`,
});
