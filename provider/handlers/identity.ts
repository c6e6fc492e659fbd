/** Provider methods of `Identity`. */
import type { Identity, IdentityMaskPath, IdentityUpdate } from "../../sdk/index";
import { OutcomeUnknownError } from "../../sdk/index";
import type { IdentityInputs, IdentityOutputs } from "../types";
import { checkIdentityInputs, parentOf } from "../validation";
import {
  changedPaths,
  createdSince,
  deleteWaitingForChildren,
  diffFields,
  type FieldSpec,
  findAfterUnknownOutcome,
  getOrUndefined,
  type HandlerContext,
  type ResourceHandler,
  withoutUndefined,
} from "./common";

const REPLACING: ReadonlyArray<FieldSpec<IdentityInputs, IdentityOutputs>> = [
  { path: "parentUid", fromInputs: (i) => i.parentUid, fromOutputs: (o) => o.parentUid },
];

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

function patchBody(inputs: IdentityInputs, mask: readonly string[]): IdentityUpdate {
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
  const identities = () => context.client().iam.identities;

  async function patchDifferences(current: IdentityOutputs, inputs: IdentityInputs) {
    const mask = changedPaths(UPDATABLE, current, inputs) as IdentityMaskPath[];
    if (mask.length === 0) return current;
    const updated = await identities().update(current.uid, patchBody(inputs, mask), {
      updateMask: mask,
    });
    return identityOutputs(updated);
  }

  async function adopt(inputs: IdentityInputs, uid: string) {
    const existing = await getOrUndefined(() => identities().get(uid));
    if (existing === undefined) {
      throw new Error(`adoptUid: no identity ${uid} exists (or it is not visible to this token)`);
    }
    const current = identityOutputs(existing);
    if (current.parentUid !== inputs.parentUid) {
      throw new Error(
        `adoptUid: identity ${uid} sits under ${current.parentUid}, not under parentUid ${inputs.parentUid}`,
      );
    }
    const outs = await patchDifferences(current, inputs);
    return { id: outs.uid, outs };
  }

  async function findCreated(
    inputs: IdentityInputs,
    attemptStartedAt: number,
  ): Promise<Identity | undefined> {
    const page = await identities().list({
      childrenOf: inputs.parentUid,
      name: inputs.name,
      pageSize: 200,
    });
    return createdSince(page.items, attemptStartedAt);
  }

  return {
    async check(_olds, news) {
      return checkIdentityInputs(news);
    },

    async diff(_id, olds, news) {
      return diffFields(REPLACING, UPDATABLE, olds, news);
    },

    async create(inputs) {
      if (inputs.adoptUid) return adopt(inputs, inputs.adoptUid);
      const body = {
        name: inputs.name,
        description: inputs.description,
        claimMatch: { issuer: inputs.claimMatch.issuer, subject: inputs.claimMatch.subject },
      };
      let created: Identity;
      const attemptStartedAt = Date.now();
      try {
        created = await identities().create(inputs.parentUid, body);
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        const found = await findAfterUnknownOutcome(context, error, () =>
          findCreated(inputs, attemptStartedAt),
        );
        if (found !== undefined) {
          const outs = await patchDifferences(identityOutputs(found), inputs);
          return { id: outs.uid, outs };
        }
        created = await identities().create(inputs.parentUid, body);
      }
      const outs = identityOutputs(created);
      return { id: outs.uid, outs };
    },

    async read(id) {
      const identity = await getOrUndefined(() => identities().get(id));
      if (identity === undefined) return { id: "" };
      const outs = identityOutputs(identity);
      return { id: outs.uid, props: outs, inputs: identityInputsFrom(outs) };
    },

    async update(id, olds, news) {
      const mask = changedPaths(UPDATABLE, olds, news) as IdentityMaskPath[];
      if (mask.length === 0) {
        return { outs: identityOutputs(await identities().get(id)) };
      }
      const updated = await identities().update(id, patchBody(news, mask), { updateMask: mask });
      return { outs: identityOutputs(updated) };
    },

    async delete(id, props) {
      await deleteWaitingForChildren(
        context,
        { kind: "identity", uid: id, name: props?.name },
        () => identities().delete(id),
      );
    },
  };
}
