/** Provider methods of `Identity`. */
import type { Identity, IdentityMaskPath, IdentityUpdate } from "../../sdk/index";
import type { IdentityInputs, IdentityOutputs } from "../types";
import { checkIdentityInputs, parentOf } from "../validation";
import {
  type FieldSpec,
  type HandlerContext,
  type ResourceHandler,
  withoutUndefined,
} from "./common";
import { objectHandler } from "./object-handler";

const UPDATABLE: ReadonlyArray<FieldSpec<IdentityInputs, IdentityOutputs>> = [
  { path: "name", fromInputs: (i) => i.name, fromOutputs: (o) => o.name },
  { path: "description", fromInputs: (i) => i.description, fromOutputs: (o) => o.description },
  {
    path: "claimMatch.issuer",
    fromInputs: (i) => i.claimMatch?.issuer,
    fromOutputs: (o) => o.claimMatch?.issuer,
  },
  {
    path: "claimMatch.subject",
    fromInputs: (i) => i.claimMatch?.subject,
    fromOutputs: (o) => o.claimMatch?.subject,
  },
];

/** State of an identity as the API returns it. */
export function identityOutputs(identity: Identity): IdentityOutputs {
  return withoutUndefined({
    uid: identity.uid,
    parentUid: parentOf(identity.uid) ?? "",
    name: identity.name,
    description: identity.description ?? "",
    claimMatch: { issuer: identity.claimMatch.issuer, subject: identity.claimMatch.subject },
    lastSeenTime: identity.lastSeenTime,
    createTime: identity.createTime,
    updateTime: identity.updateTime,
  });
}

function identityInputsFrom(outputs: IdentityOutputs): IdentityInputs {
  return {
    parentUid: outputs.parentUid,
    name: outputs.name,
    description: outputs.description,
    claimMatch: outputs.claimMatch,
  };
}

function patchBody(inputs: IdentityInputs, mask: readonly IdentityMaskPath[]): IdentityUpdate {
  const body: IdentityUpdate = {};
  if (mask.includes("name")) body.name = inputs.name;
  if (mask.includes("description")) body.description = inputs.description;
  if (mask.includes("claimMatch.issuer") || mask.includes("claimMatch.subject")) {
    body.claimMatch = {};
    if (mask.includes("claimMatch.issuer")) body.claimMatch.issuer = inputs.claimMatch.issuer;
    if (mask.includes("claimMatch.subject")) body.claimMatch.subject = inputs.claimMatch.subject;
  }
  return body;
}

export function identityHandler(
  context: HandlerContext,
): ResourceHandler<IdentityInputs, IdentityOutputs> {
  return objectHandler(context, {
    kind: "identity",
    container: {
      path: "parentUid",
      fromInputs: (i) => i.parentUid,
      fromOutputs: (o) => o.parentUid,
    },
    updatable: UPDATABLE,
    check: checkIdentityInputs,
    api: (client) => client.iam.identities,
    outputs: identityOutputs,
    inputsFrom: identityInputsFrom,
    patchBody,
    create: (client, inputs) =>
      client.iam.identities.create(inputs.parentUid, {
        name: inputs.name,
        description: inputs.description,
        claimMatch: { issuer: inputs.claimMatch.issuer, subject: inputs.claimMatch.subject },
      }),
    // By name among the group's identities.
    candidates: async (client, inputs) =>
      (
        await client.iam.identities.list({
          childrenOf: inputs.parentUid,
          name: inputs.name,
          pageSize: 200,
        })
      ).items,
    nameOf: (outputs) => outputs?.name,
    describe: (inputs) => `identity ${JSON.stringify(inputs.name)} under ${inputs.parentUid}`,
  });
}
