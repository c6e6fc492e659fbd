/**
 * The lifecycle every managed object shares — check, diff, create (with adoption and
 * recovery from an unknown outcome), read, update, delete — written once. Each
 * resource type supplies only what differs: its API collection, its fields and how
 * its outputs are built.
 */
import type { CheckResult } from "@pulumi/pulumi/dynamic";
import type { IrmClient } from "../../sdk/index";
import { OutcomeUnknownError } from "../../sdk/index";
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
} from "./common";

/** The verbs of one SDK collection the lifecycle uses. */
export interface ObjectApi<T, Body, MaskPath extends string> {
  get(uid: string): Promise<T>;
  update(uid: string, body: Body, options: { updateMask: MaskPath[] }): Promise<T>;
  delete(uid: string): Promise<unknown>;
}

/** What one resource type adds to the shared lifecycle. */
export interface ObjectSpec<
  Inputs extends { adoptUid?: string },
  Outputs extends { uid: string; createTime: string },
  T,
  Body,
  MaskPath extends string,
> {
  /** The object's kind in messages: `group`, `identity`, `role binding`. */
  kind: "group" | "identity" | "role binding";
  /** The input naming where the object lives; a change replaces the object. */
  container: FieldSpec<Inputs, Outputs>;
  /** Inputs updated in place, each with its `updateMask` path. */
  updatable: ReadonlyArray<FieldSpec<Inputs, Outputs>>;
  check(news: Record<string, unknown>): CheckResult<Inputs>;
  api(client: IrmClient): ObjectApi<T, Body, MaskPath>;
  /** Outputs (state) from the API's answer. */
  outputs(object: T): Outputs;
  /** The inputs that the live object implies, for refresh. */
  inputsFrom(outputs: Outputs): Inputs;
  /** The PATCH body carrying the fields the mask names. */
  patchBody(inputs: Inputs, mask: readonly MaskPath[]): Body;
  /** One create request. */
  create(client: IrmClient, inputs: Inputs): Promise<T>;
  /** After a create's outcome was lost: the objects that create may have made. */
  candidates(client: IrmClient, inputs: Inputs): Promise<T[]>;
  /** The object's name for messages, when it has one. */
  nameOf?(outputs: Outputs | undefined): string | undefined;
}

export function objectHandler<
  Inputs extends { adoptUid?: string },
  Outputs extends { uid: string; createTime: string },
  T,
  Body,
  MaskPath extends string,
>(
  context: HandlerContext,
  spec: ObjectSpec<Inputs, Outputs, T, Body, MaskPath>,
): ResourceHandler<Inputs, Outputs> {
  const api = () => spec.api(context.client());
  const maskOf = (olds: Outputs, news: Inputs) =>
    changedPaths(spec.updatable, olds, news) as MaskPath[];

  /** One PATCH with exactly the fields that differ; no request when nothing does. */
  async function patchDifferences(current: Outputs, inputs: Inputs): Promise<Outputs> {
    const mask = maskOf(current, inputs);
    if (mask.length === 0) return current;
    const updated = await api().update(current.uid, spec.patchBody(inputs, mask), {
      updateMask: mask,
    });
    return spec.outputs(updated);
  }

  async function adopt(inputs: Inputs, uid: string) {
    const existing = await getOrUndefined(() => api().get(uid));
    if (existing === undefined) {
      throw new Error(
        `adoptUid: no ${spec.kind} ${uid} exists (or it is not visible to this token)`,
      );
    }
    const current = spec.outputs(existing);
    const actual = spec.container.fromOutputs(current);
    const declared = spec.container.fromInputs(inputs);
    if (actual !== declared) {
      throw new Error(
        `adoptUid: ${spec.kind} ${uid} sits under ${actual}, not under ${spec.container.path} ${declared}`,
      );
    }
    const outs = await patchDifferences(current, inputs);
    return { id: outs.uid, outs };
  }

  return {
    async check(_olds, news) {
      return spec.check(news);
    },

    async diff(_id, olds, news) {
      return diffFields([spec.container], spec.updatable, olds, news);
    },

    async create(inputs) {
      if (inputs.adoptUid) return adopt(inputs, inputs.adoptUid);
      const client = context.client();
      let created: T;
      const attemptStartedAt = Date.now();
      try {
        created = await spec.create(client, inputs);
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        // Only an object made since this attempt began is ours: an older namesake is
        // another stack's or someone's by hand, and is never taken over.
        const found = await findAfterUnknownOutcome(context, error, async () =>
          createdSince((await spec.candidates(client, inputs)).map(spec.outputs), attemptStartedAt),
        );
        if (found !== undefined) {
          const outs = await patchDifferences(found, inputs);
          return { id: outs.uid, outs };
        }
        created = await spec.create(client, inputs);
      }
      const outs = spec.outputs(created);
      return { id: outs.uid, outs };
    },

    async read(id) {
      const object = await getOrUndefined(() => api().get(id));
      if (object === undefined) return { id: "" };
      const outs = spec.outputs(object);
      return { id: outs.uid, props: outs, inputs: spec.inputsFrom(outs) };
    },

    async update(id, olds, news) {
      const mask = maskOf(olds, news);
      if (mask.length === 0) return { outs: spec.outputs(await api().get(id)) };
      const updated = await api().update(id, spec.patchBody(news, mask), { updateMask: mask });
      return { outs: spec.outputs(updated) };
    },

    async delete(id, props) {
      const name = spec.nameOf?.(props);
      await deleteWaitingForChildren(context, { kind: spec.kind, uid: id, name }, () =>
        api().delete(id),
      );
    },
  };
}
