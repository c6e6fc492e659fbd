/**
 * The gRPC face's definitions: the FileDescriptorSet that `npm run build` writes from the
 * platform's published Go module (`contract/cmd/descriptors`), turned into protobufjs
 * types, plus each method's `google.api.http` rule. Nothing here restates a definition.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as protobuf from "protobufjs";
import * as descriptor from "protobufjs/ext/descriptor";

/** Where the build puts the set, beside the compiled module. */
export const DESCRIPTOR_FILE = "descriptors.binpb";

/** One way of reaching a method over HTTP: `google.api.HttpRule` without its bindings. */
export interface HttpBinding {
  verb: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The path template, e.g. `/iam/v2beta1/groups/{group.uid=**}`. */
  template: string;
  /** `""` (no body), `*` (every field not in the path) or one top-level field's name. */
  body: string;
}

export interface GrpcMethod {
  /** `/<package>.<Service>/<Method>`, the HTTP/2 path of a call. */
  path: string;
  input: protobuf.Type;
  output: protobuf.Type;
  /** The primary rule, then its additional bindings. */
  bindings: HttpBinding[];
  streaming: boolean;
}

export interface GrpcDefinitions {
  root: protobuf.Root;
  methods: Map<string, GrpcMethod>;
  /** Field -> JSON name, for every field of every message. */
  jsonNames: WeakMap<protobuf.FieldBase, string>;
  /** The members of real oneofs (not the synthetic one of a proto3 `optional` field). */
  oneofMembers: WeakSet<protobuf.FieldBase>;
  /** Fields whose zero value is still a value: oneof members and proto3 `optional` fields. */
  explicitPresence: WeakSet<protobuf.FieldBase>;
  /** The set as shipped (`FileDescriptorSet` bytes), for server reflection. */
  descriptorSet: Uint8Array;
}

/** The built set: beside this module, or in `dist/` when running from the sources. */
export function descriptorFilePath(): string | undefined {
  const candidates = [
    join(__dirname, DESCRIPTOR_FILE),
    resolve(__dirname, "..", "..", "dist", "emulator", "grpc", DESCRIPTOR_FILE),
  ];
  return candidates.find((file) => existsSync(file));
}

/** The definitions of the built set, or undefined when the build had no Go (gRPC is off). */
export function loadGrpcDefinitions(file = descriptorFilePath()): GrpcDefinitions | undefined {
  if (file === undefined) return undefined;
  return buildDefinitions(readFileSync(file));
}

const SCALARS: Record<number, string> = {
  1: "double",
  2: "float",
  3: "int64",
  4: "uint64",
  5: "int32",
  6: "fixed64",
  7: "fixed32",
  8: "bool",
  9: "string",
  12: "bytes",
  13: "uint32",
  15: "sfixed32",
  16: "sfixed64",
  17: "sint32",
  18: "sint64",
};
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_REPEATED = 3;

/** protoc's JSON name: underscores dropped, the letter after each one upper-cased. */
export function lowerCamel(name: string): string {
  return name.replace(/_+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

export function buildDefinitions(bytes: Uint8Array): GrpcDefinitions {
  const set = descriptor.FileDescriptorSet.decode(bytes) as unknown as {
    file: descriptor.IFileDescriptorProto[];
  };
  const root = new protobuf.Root();
  const jsonNames = new WeakMap<protobuf.FieldBase, string>();
  const oneofMembers = new WeakSet<protobuf.FieldBase>();
  const explicitPresence = new WeakSet<protobuf.FieldBase>();
  // Map entry types, by full name: fields of these types are maps.
  const mapEntries = new Map<string, descriptor.IDescriptorProto>();
  const collectEntries = (prefix: string, messages: descriptor.IDescriptorProto[] = []) => {
    for (const message of messages) {
      const full = `${prefix}.${message.name}`;
      if (message.options?.mapEntry) mapEntries.set(full, message);
      collectEntries(full, message.nestedType);
    }
  };
  for (const file of set.file)
    collectEntries(file.package ? `.${file.package}` : "", file.messageType);

  const addEnum = (ns: protobuf.Namespace, proto: descriptor.IEnumDescriptorProto) => {
    const values: Record<string, number> = {};
    for (const value of proto.value ?? []) values[value.name ?? ""] = value.number ?? 0;
    ns.add(new protobuf.Enum(proto.name ?? "", values, { allow_alias: true }));
  };
  const addMessage = (
    ns: protobuf.Namespace,
    proto: descriptor.IDescriptorProto,
    proto3: boolean,
  ) => {
    const type = new protobuf.Type(proto.name ?? "");
    ns.add(type);
    for (const nested of proto.nestedType ?? []) {
      if (!nested.options?.mapEntry) addMessage(type, nested, proto3);
    }
    for (const nested of proto.enumType ?? []) addEnum(type, nested);
    for (const field of proto.field ?? []) {
      const name = field.name ?? "";
      const typeName =
        field.type === TYPE_MESSAGE || field.type === TYPE_ENUM
          ? (field.typeName ?? "")
          : SCALARS[field.type ?? 0];
      if (typeName === undefined) throw new Error(`unsupported field type of ${name}`);
      const entry = field.type === TYPE_MESSAGE ? mapEntries.get(typeName) : undefined;
      let made: protobuf.FieldBase;
      if (entry) {
        const key = entry.field?.find((f) => f.number === 1);
        const value = entry.field?.find((f) => f.number === 2);
        const valueType =
          value?.type === TYPE_MESSAGE || value?.type === TYPE_ENUM
            ? (value.typeName ?? "")
            : SCALARS[value?.type ?? 0];
        made = new protobuf.MapField(name, field.number ?? 0, SCALARS[key?.type ?? 9], valueType);
      } else {
        const repeated = field.label === LABEL_REPEATED;
        // proto3 packs repeated numbers and enums unless a field says otherwise.
        const packable = field.type !== TYPE_MESSAGE && field.type !== 9 && field.type !== 12;
        const packed = repeated && packable && (field.options?.packed ?? proto3);
        made = new protobuf.Field(
          name,
          field.number ?? 0,
          typeName,
          repeated ? "repeated" : "optional",
          undefined,
          packed ? { packed: true } : { packed: false },
        );
      }
      type.add(made);
      // Decoded descriptors default oneofIndex to 0: only an own value says "in a oneof".
      const inOneof = Object.hasOwn(field, "oneofIndex");
      if (inOneof || !proto3) explicitPresence.add(made);
      if (inOneof && typeof field.oneofIndex === "number") {
        // protoc names the synthetic oneof of an `optional` field `_<field>`.
        const oneof = proto.oneofDecl?.[field.oneofIndex]?.name ?? "";
        if (oneof !== `_${name}`) oneofMembers.add(made);
      }
      jsonNames.set(made, typeof field.jsonName === "string" ? field.jsonName : lowerCamel(name));
    }
  };
  for (const file of set.file) {
    const ns = file.package ? root.define(file.package) : root;
    const proto3 = file.syntax === "proto3";
    for (const message of file.messageType ?? []) addMessage(ns, message, proto3);
    for (const proto of file.enumType ?? []) addEnum(ns, proto);
  }
  root.resolveAll();

  const rules = httpRulesOf(bytes, httpExtensionNumber(set.file), root);
  const methods = new Map<string, GrpcMethod>();
  for (const file of set.file) {
    for (const service of file.service ?? []) {
      const serviceName = file.package ? `${file.package}.${service.name}` : (service.name ?? "");
      for (const method of service.method ?? []) {
        const path = `/${serviceName}/${method.name}`;
        methods.set(path, {
          path,
          input: root.lookupType(method.inputType ?? ""),
          output: root.lookupType(method.outputType ?? ""),
          bindings: rules.get(path) ?? [],
          streaming: Boolean(method.clientStreaming || method.serverStreaming),
        });
      }
    }
  }
  return { root, methods, jsonNames, oneofMembers, explicitPresence, descriptorSet: bytes };
}

/** The field number of the `google.api.http` extension of MethodOptions, as the set declares it. */
function httpExtensionNumber(files: descriptor.IFileDescriptorProto[]): number | undefined {
  for (const file of files) {
    if (file.package !== "google.api") continue;
    for (const extension of file.extension ?? []) {
      if (extension.name === "http" && extension.extendee === ".google.protobuf.MethodOptions") {
        return extension.number;
      }
    }
  }
  return undefined;
}

/** Length-delimited fields of one message, by number (other wire types skipped). */
export function* delimited(bytes: Uint8Array): Generator<[number, Uint8Array]> {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if ((tag & 7) === 2) yield [tag >>> 3, reader.bytes()];
    else reader.skipType(tag & 7);
  }
}

export function stringOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** A descriptor's string field `nameField` (the last one given) and its `partField` members. */
function nameAndParts(
  bytes: Uint8Array,
  nameField: number,
  partField: number,
): [string, Uint8Array[]] {
  let name = "";
  const parts: Uint8Array[] = [];
  for (const [number, value] of delimited(bytes)) {
    if (number === nameField) name = stringOf(value);
    if (number === partField) parts.push(value);
  }
  return [name, parts];
}

/**
 * `/<package>.<Service>/<Method>` -> its HTTP bindings, read from the methods' options
 * in the raw set (the generic descriptor types do not carry extensions) and decoded
 * with the set's own `google.api.HttpRule`.
 */
function httpRulesOf(
  bytes: Uint8Array,
  extension: number | undefined,
  root: protobuf.Root,
): Map<string, HttpBinding[]> {
  const rules = new Map<string, HttpBinding[]>();
  if (extension === undefined) return rules;
  const HttpRule = root.lookupType("google.api.HttpRule");
  for (const [fileField, file] of delimited(bytes)) {
    if (fileField !== 1) continue;
    // FileDescriptorProto: package 2, service 6.
    const [pkg, services] = nameAndParts(file, 2, 6);
    for (const service of services) {
      // ServiceDescriptorProto: name 1, method 2.
      const [serviceName, methods] = nameAndParts(service, 1, 2);
      for (const method of methods) {
        // MethodDescriptorProto: name 1, options 4.
        const [methodName, options] = nameAndParts(method, 1, 4);
        let rule: Uint8Array | undefined;
        for (const [option, optionValue] of options.flatMap((message) => [...delimited(message)])) {
          if (option === extension) rule = optionValue;
        }
        if (!rule) continue;
        const decoded = HttpRule.toObject(HttpRule.decode(rule)) as RawHttpRule;
        const bindings = [decoded, ...(decoded.additional_bindings ?? [])]
          .map(bindingOf)
          .filter((binding): binding is HttpBinding => binding !== undefined);
        rules.set(`/${pkg ? `${pkg}.` : ""}${serviceName}/${methodName}`, bindings);
      }
    }
  }
  return rules;
}

interface RawHttpRule {
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  body?: string;
  additional_bindings?: RawHttpRule[];
}

function bindingOf(rule: RawHttpRule): HttpBinding | undefined {
  const body = rule.body ?? "";
  if (rule.get) return { verb: "GET", template: rule.get, body };
  if (rule.post) return { verb: "POST", template: rule.post, body };
  if (rule.patch) return { verb: "PATCH", template: rule.patch, body };
  if (rule.put) return { verb: "PUT", template: rule.put, body };
  if (rule.delete) return { verb: "DELETE", template: rule.delete, body };
  return undefined;
}
