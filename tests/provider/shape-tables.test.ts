/**
 * The provider's shape tables (`provider/shapes/`): each ties to its handler's types
 * (checked by the compiler: `npm run lint`), and what the resource classes and the
 * schema of the native plugin take from them is complete and consistent.
 */
import { describe, expect, it } from "vitest";
import type { ResourceHandler } from "../../provider/handlers/common";
import { PROVIDER_KINDS, type ProviderKind } from "../../provider/kinds";
import {
  type InputsOf,
  type KindShape,
  type OutputsOf,
  PROVIDER_SHAPES,
  type PropertyShape,
  type ValueShape,
} from "../../provider/shapes/index";

/** True when X and Y are the same type (optional members included). */
type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

/** A type with its string enums as `string` and its objects spelled out. */
type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer E)[]
        ? Widen<E>[]
        : T extends object
          ? { [K in keyof T]: Widen<T[K]> }
          : T;

type HandlerOf<N extends string> = ReturnType<Extract<ProviderKind, { type: N }>["handler"]>;
type HandlerInputs<H> =
  H extends ResourceHandler<infer I, unknown>
    ? Parameters<ResourceHandler<I, unknown>["create"]>[0]
    : never;
type HandlerOutputs<H> = H extends { delete(id: string, props: infer O): Promise<void> }
  ? O
  : never;

/** For each table: its inputs are the handler's inputs, its outputs the handler's state. */
type Ties = {
  [N in keyof typeof PROVIDER_SHAPES]: [
    Equal<Widen<HandlerInputs<HandlerOf<N>>>, Widen<InputsOf<(typeof PROVIDER_SHAPES)[N]>>>,
    Equal<Widen<HandlerOutputs<HandlerOf<N>>>, Widen<OutputsOf<(typeof PROVIDER_SHAPES)[N]>>>,
  ];
};
const TIED: { [N in keyof Ties]: [true, true] } = {} as Ties;

describe("the shape tables", () => {
  it("are one per kind, in PROVIDER_KINDS' order, each named as its kind", () => {
    expect(Object.keys(PROVIDER_SHAPES)).toEqual(PROVIDER_KINDS.map((kind) => kind.type));
    for (const [type, table] of Object.entries(PROVIDER_SHAPES)) expect(table.type).toBe(type);
    expect(TIED).toBeDefined();
  });

  /** Every problem of one value shape, with the path it is at. */
  function problemsOf(shape: ValueShape, at: string): string[] {
    switch (shape.type) {
      case "string":
        return shape.enum && shape.enum.length === 0 ? [`${at}: an empty enum`] : [];
      case "array":
        return problemsOf(shape.items, `${at}[]`);
      case "map":
        return problemsOf(shape.values, `${at}{}`);
      case "object":
        return Object.entries(shape.properties).flatMap(([name, property]) =>
          propertyProblems(property, `${at}.${name}`),
        );
      default:
        return [];
    }
  }
  function propertyProblems(property: PropertyShape, at: string): string[] {
    const problems = problemsOf(property.shape, at);
    if (property.doc.trim() === "") problems.push(`${at}: no doc`);
    if (property.required && property.default !== undefined) {
      problems.push(`${at}: both required and defaulted`);
    }
    return problems;
  }

  it.each(Object.values(PROVIDER_SHAPES).map((table) => [table.type, table] as const))(
    "%s: every input and output has a doc and a sound type; outputs echo their inputs",
    (_, table: KindShape) => {
      const problems = Object.entries(table.inputs).flatMap(([name, input]) =>
        propertyProblems(input, name),
      );
      for (const [name, output] of Object.entries(table.outputs)) {
        problems.push(...problemsOf(output.shape, name));
        if (output.doc.trim() === "") problems.push(`${name}: no doc`);
        const input = table.inputs[name];
        // An output named as an input stores that input: same type, secret when it is.
        if (input && JSON.stringify(input.shape) !== JSON.stringify(output.shape)) {
          if (name !== "staticKeys") problems.push(`${name}: not the input's type`);
        }
        if (input?.secret && !output.secret) problems.push(`${name}: a secret input in clear`);
      }
      expect(problems).toEqual([]);
      expect(Object.keys(table.outputs)[0]).toBe("uid");
    },
  );
});
