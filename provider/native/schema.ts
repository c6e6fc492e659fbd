/**
 * The native plugin's Pulumi package schema (`irm`), generated from the description
 * tables of the resource kinds and from the lookups, never written by hand: `npm run
 * build` writes it to `dist/plugin/schema.json` (`write-schema.ts`), the plugin answers
 * it to `GetSchema`, and the SDKs of the other languages are generated from it.
 */
import { PROVIDER_SETTINGS } from "../config";
import { type ArgumentRule, LOOKUP_ARGUMENTS } from "../lookups";
import { type KindShape, PROVIDER_SHAPES, type PropertyShape, type ValueShape } from "../shapes";
import { functionToken, LOOKUP_FUNCTIONS, PACKAGE, resourceToken } from "./tokens";

export { PACKAGE } from "./tokens";

/** A property in the schema's words. */
export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  default?: unknown;
  replaceOnChanges?: boolean;
  oneOf?: PropertySpec[];
}

export interface ObjectSpec {
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
  type?: "object";
}

export interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
}

export interface NativeSchema {
  name: string;
  version: string;
  displayName: string;
  description: string;
  config: { variables: Record<string, PropertySpec> };
  provider: ResourceSpec;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { description?: string; inputs?: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
  language: Record<string, unknown>;
}

const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };

/** A token of the package's own object types: `irm:index:IdentityClaimMatch`. */
function typeToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

const capitalised = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;

/**
 * A value's shape as a schema type; an object becomes the named type `name` (kept in
 * `types`), a string with values lists them in the description.
 */
function typeOf(shape: ValueShape, name: string, types: Record<string, ObjectSpec>): PropertySpec {
  switch (shape.type) {
    case "array":
      return { type: "array", items: typeOf(shape.items, `${name}Item`, types) };
    case "map":
      return { type: "object", additionalProperties: typeOf(shape.values, name, types) };
    case "object": {
      const spec = objectOf(shape.properties, name, types);
      // An output whose object differs from the input's of the same name (an identity's
      // `staticKeys`) gets a name of its own.
      const taken = types[typeToken(name)];
      const token =
        taken === undefined || JSON.stringify(taken) === JSON.stringify(spec)
          ? typeToken(name)
          : typeToken(`${name}State`);
      types[token] = spec;
      return { $ref: `#/types/${token}` };
    }
    default:
      return { type: shape.type };
  }
}

/** What the doc of a property says, with the values of an enum and of map keys. */
function docOf(doc: string, shape: ValueShape): string {
  if (shape.type === "string" && shape.enum) return `${doc} One of: ${shape.enum.join(", ")}.`;
  if (shape.type === "map" && shape.keys) return `${doc} Keys: ${shape.keys.join(", ")}.`;
  return doc;
}

/** One input (or member) as a schema property. */
function inputProperty(
  input: PropertyShape,
  name: string,
  types: Record<string, ObjectSpec>,
): PropertySpec {
  const main = typeOf(input.shape, name, types);
  const accepted = (input.alsoAccepts ?? []).map((shape) => typeOf(shape, name, types));
  return {
    ...(accepted.length > 0 ? { oneOf: [main, ...accepted] } : main),
    description: docOf(input.doc, input.shape),
    ...(input.secret ? { secret: true } : {}),
    ...(input.replaces === true ? { replaceOnChanges: true } : {}),
    ...(input.default !== undefined && typeof input.default !== "object"
      ? { default: input.default }
      : {}),
  };
}

/** An object type of these members (each named `<name><Member>` when it is an object). */
function objectOf(
  properties: Readonly<Record<string, PropertyShape>>,
  name: string,
  types: Record<string, ObjectSpec>,
): ObjectSpec {
  const required = Object.keys(properties).filter((key) => properties[key].required === true);
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([key, member]) => [
        key,
        inputProperty(member, `${name}${capitalised(key)}`, types),
      ]),
    ),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** A kind's state as schema properties. */
function outputProperties(kind: KindShape, types: Record<string, ObjectSpec>) {
  return Object.fromEntries(
    Object.entries(kind.outputs).map(([key, output]) => {
      const property: PropertySpec = {
        ...typeOf(output.shape, `${kind.type}${capitalised(key)}`, types),
        description: docOf(output.doc, output.shape),
        ...(output.secret ? { secret: true } : {}),
      };
      return [key, property];
    }),
  );
}

/** The type of each lookup argument, by its rule. */
const ARGUMENT_TYPES: Record<ArgumentRule["kind"], PropertySpec> = {
  name: { type: "string" },
  text: { type: "string" },
  textList: { type: "array", items: { type: "string" } },
  groupUid: { type: "string" },
  childUid: { type: "string" },
  roleUid: { type: "string" },
};

/** The schema type of a setting (config and the provider's inputs). */
function settingSpec(key: string, spec: { config: string; env?: string }): PropertySpec {
  const type = key === "allowInsecureHttp" ? "boolean" : key.endsWith("Ms") ? "integer" : "string";
  return {
    type,
    description: `\`${spec.config}\`${spec.env ? `, else the variable ${spec.env}` : ""}.`,
    ...(key === "token" ? { secret: true } : {}),
  };
}

/**
 * The schema of the `irm` package: a resource per description table (`shapes/`), a
 * function per lookup (its arguments from `LOOKUP_ARGUMENTS`), config and provider
 * inputs from the provider's settings (`PROVIDER_SETTINGS`).
 */
export function generateSchema(
  kinds: readonly KindShape[] = Object.values(PROVIDER_SHAPES),
  version = "0.0.0",
): NativeSchema {
  const types: Record<string, ObjectSpec> = {};
  const variables: Record<string, PropertySpec> = Object.fromEntries(
    Object.entries(PROVIDER_SETTINGS).map(([key, spec]) => [key, settingSpec(key, spec)]),
  );
  const resources: Record<string, ResourceSpec> = {};
  const states = new Map<string, Record<string, PropertySpec>>();
  for (const kind of kinds) {
    const inputs = objectOf(kind.inputs, `${kind.type}`, types);
    const properties = outputProperties(kind, types);
    states.set(kind.type, properties);
    const required = Object.keys(kind.outputs).filter((key) => kind.outputs[key].setByCreate);
    resources[resourceToken(kind.type)] = {
      description: kind.doc,
      properties,
      ...(required.length > 0 ? { required } : {}),
      inputProperties: inputs.properties,
      ...(inputs.required ? { requiredInputs: inputs.required } : {}),
    };
  }
  const functions: NativeSchema["functions"] = {};
  for (const [name, spec] of Object.entries(LOOKUP_FUNCTIONS)) {
    const rules: Record<string, ArgumentRule> =
      LOOKUP_ARGUMENTS[name as keyof typeof LOOKUP_ARGUMENTS];
    const required = Object.keys(rules).filter((key) => rules[key].required === true);
    const inputs: ObjectSpec = {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(rules).map(([key, rule]) => [key, ARGUMENT_TYPES[rule.kind]]),
      ),
      ...(required.length > 0 ? { required } : {}),
    };
    // What a lookup answers is the API's object; its members are those of the kind's
    // state where there is one (none required: the API may leave some out).
    const state = spec.returns ? states.get(spec.returns) : undefined;
    const objectName = `${capitalised(name)}Result`;
    const one: ObjectSpec = { type: "object", properties: state ?? {} };
    const outputs: ObjectSpec = spec.listing
      ? {
          type: "object",
          properties: {
            items: {
              type: "array",
              items: state ? { $ref: `#/types/${typeToken(`${objectName}Item`)}` } : ANY,
            },
          },
          required: ["items"],
        }
      : one;
    if (spec.listing && state) types[typeToken(`${objectName}Item`)] = one;
    functions[functionToken(name)] = { inputs, outputs };
  }
  return {
    name: PACKAGE,
    version,
    displayName: "IRM",
    description:
      "Groups, identities, roles and role bindings on the Identity and Registry Management API (v2beta1).",
    config: { variables },
    provider: { properties: variables, inputProperties: variables },
    resources,
    functions,
    types,
    language: {},
  };
}
