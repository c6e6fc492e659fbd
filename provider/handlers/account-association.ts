/**
 * Provider methods of `AccountAssociation`: a group's outside accounts (cloud
 * accounts, GitHub App installations) and the identities the platform's services
 * assume in it. A group has at most one, addressed by the group's uid, so the
 * association's uid is its group's. Blocks are updated whole, and a block dropped
 * from the program is named in the mask so that the API removes it.
 */
import type { AccountAssociation, AccountAssociationUpdate, IrmClient } from "../../sdk/index";
import { AlreadyExistsError } from "../../sdk/index";
import { ASSOCIATION_BLOCKS, checkAccountAssociationInputs, isRecord } from "../checks";
import type {
  AccountAssociationInputs,
  AccountAssociationOutputs,
  AssociationBlocks,
} from "../shapes/index";
import {
  type FieldSpec,
  getOrUndefined,
  maskedFields,
  namedOutputs,
  pick,
  sameField,
  withoutUndefined,
} from "./common";
import { objectHandler } from "./object-handler";

export type {
  AccountAssociationInputs,
  AccountAssociationOutputs,
  AssociationBlocks,
} from "../shapes/index";

type BlockName = (typeof ASSOCIATION_BLOCKS)[number];

/** JSON with object keys sorted, so two equal blocks always read the same. */
function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return "";
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (isRecord(v)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((key) => [key, sorted(v[key])]),
      );
    }
    return v;
  };
  return JSON.stringify(sorted(value));
}

type Field = FieldSpec<AccountAssociationInputs, AccountAssociationOutputs>;

const blockField = (block: BlockName): Field => ({
  path: block,
  fromInputs: (i) => canonicalJson(i[block]),
  fromOutputs: (o) => canonicalJson(o[block]),
});

const UPDATABLE: readonly Field[] = [
  sameField("name"),
  sameField("description"),
  ...ASSOCIATION_BLOCKS.map(blockField),
];

/** State of an association as the API returns it. */
export function accountAssociationOutputs(
  association: AccountAssociation,
): AccountAssociationOutputs {
  return withoutUndefined({
    ...namedOutputs(association),
    groupUid: association.uid,
    amazon: association.amazon,
    google: association.google,
    azure: association.azure,
    github: association.github,
    chainguard: association.chainguard,
  });
}

function inputsFrom(outputs: AccountAssociationOutputs): AccountAssociationInputs {
  return pick(outputs, ["groupUid", "name", "description", ...ASSOCIATION_BLOCKS]);
}

/** The blocks the inputs carry, as sent. */
function blocksOf(inputs: AssociationBlocks): AssociationBlocks {
  return pick(inputs, ASSOCIATION_BLOCKS);
}

function patchBody(
  inputs: AccountAssociationInputs,
  mask: readonly string[],
): AccountAssociationUpdate {
  const body: AccountAssociationUpdate = maskedFields(inputs, mask, ["name", "description"]);
  const blocks = blocksOf(inputs);
  for (const block of ASSOCIATION_BLOCKS) {
    // A named block absent from the body is removed: that is how a dropped one goes.
    if (mask.includes(block) && blocks[block] !== undefined) {
      Object.assign(body, { [block]: blocks[block] });
    }
  }
  return body;
}

/** One create; an existing association is refused with how to adopt it. */
async function createAssociation(
  client: IrmClient,
  inputs: AccountAssociationInputs,
): Promise<AccountAssociation> {
  try {
    return await client.iam.accountAssociations.create(inputs.groupUid, {
      name: inputs.name,
      description: inputs.description,
      ...blocksOf(inputs),
    });
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    throw new Error(
      `Group ${inputs.groupUid} already has an account association (a group has at most one). ` +
        `To manage it from this stack, set adoptUid to ${inputs.groupUid}; otherwise remove ` +
        "this declaration or delete the existing association.",
    );
  }
}

export const accountAssociationHandler = objectHandler({
  kind: "account association",
  container: sameField<AccountAssociationInputs, AccountAssociationOutputs>("groupUid"),
  updatable: UPDATABLE,
  check: checkAccountAssociationInputs,
  api: (client) => client.iam.accountAssociations,
  outputs: accountAssociationOutputs,
  inputsFrom,
  patchBody,
  create: createAssociation,
  // The group's association, if any: a group has at most one.
  candidates: async (client, inputs) => {
    const existing = await getOrUndefined(
      () => client.iam.accountAssociations.get(inputs.groupUid),
      (error) => client.iam.accountAssociations.isGone(error, inputs.groupUid),
    );
    return existing ? [existing] : [];
  },
  nameOf: (outputs) => outputs?.name,
  describe: (inputs) => `the account association of group ${inputs.groupUid}`,
});
