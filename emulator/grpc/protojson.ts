/**
 * Protocol buffers <-> their canonical JSON (the mapping the platform's HTTP gateway
 * uses): JSON names, enums by name, 64-bit integers as strings, Timestamp as RFC 3339,
 * Duration as `"<seconds>s"`, FieldMask as comma-separated camelCase paths, wrappers as
 * their value. Unset fields are left out, as the gateway leaves them out. (Struct and
 * Any are not mapped: no message the emulator serves uses them.)
 */
import * as protobuf from "protobufjs";
import { type GrpcDefinitions, lowerCamel } from "./descriptors";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
type Message = Record<string, unknown>;

const WRAPPERS = new Set(
  [
    "DoubleValue",
    "FloatValue",
    "Int64Value",
    "UInt64Value",
    "Int32Value",
    "UInt32Value",
    "BoolValue",
    "StringValue",
    "BytesValue",
  ].map((name) => `.google.protobuf.${name}`),
);

/** A value the mapping cannot carry (a malformed timestamp, a wrong JSON type): names the field. */
export class ProtoJsonError extends Error {}

function isLong(value: unknown): value is { toString(): string } {
  return typeof value === "object" && value !== null && "low" in value && "high" in value;
}

function numberOf(value: unknown): number {
  if (typeof value === "number") return value;
  if (isLong(value)) return Number(value.toString());
  return Number(value);
}

function twoDigits(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** RFC 3339 in UTC with 0, 3, 6 or 9 fraction digits, as the canonical mapping writes it. */
export function timestampToJson(seconds: number, nanos: number): string {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtoJsonError("timestamp is out of range");
  const base =
    `${twoDigits(date.getUTCFullYear(), 4)}-${twoDigits(date.getUTCMonth() + 1)}-` +
    `${twoDigits(date.getUTCDate())}T${twoDigits(date.getUTCHours())}:` +
    `${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}`;
  return `${base}${fraction(nanos)}Z`;
}

function fraction(nanos: number): string {
  if (nanos === 0) return "";
  const digits = String(nanos).padStart(9, "0");
  if (digits.endsWith("000000")) return `.${digits.slice(0, 3)}`;
  if (digits.endsWith("000")) return `.${digits.slice(0, 6)}`;
  return `.${digits}`;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

export function timestampFromJson(text: string, field: string): { seconds: number; nanos: number } {
  const match = RFC3339.exec(text);
  const ms = match ? Date.parse(`${text.slice(0, 19)}${match[8]}`) : Number.NaN;
  if (!match || Number.isNaN(ms)) {
    throw new ProtoJsonError(`${field}: is not an RFC 3339 timestamp`);
  }
  return { seconds: Math.floor(ms / 1000), nanos: Number((match[7] ?? "").padEnd(9, "0")) };
}

function durationToJson(seconds: number, nanos: number): string {
  const sign = seconds < 0 || nanos < 0 ? "-" : "";
  return `${sign}${Math.abs(seconds)}${fraction(Math.abs(nanos))}s`;
}

function durationFromJson(text: string, field: string): { seconds: number; nanos: number } {
  const match = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(text);
  if (!match) throw new ProtoJsonError(`${field}: is not a duration such as "3600s"`);
  const sign = match[1] ? -1 : 1;
  return {
    seconds: sign * Number(match[2]),
    nanos: sign * Number((match[3] ?? "").padEnd(9, "0")),
  };
}

const LONG_KEYS = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** A decoded map key: protobufjs keeps 64-bit keys as 8-character hashes. */
function mapKeyToJson(field: protobuf.FieldBase, key: string): string {
  const keyType = (field as protobuf.MapField).keyType;
  if (!LONG_KEYS.has(keyType) || key.length !== 8) return key;
  const unsigned = keyType === "uint64" || keyType === "fixed64";
  return String(protobuf.util.LongBits.fromHash(key).toLong(unsigned));
}

/** A scalar or enum at its zero value (proto3 sends no such field). */
export function isZero(value: unknown): boolean {
  if (value === "" || value === 0 || value === false) return true;
  if (value instanceof Uint8Array) return value.length === 0;
  return isLong(value) && value.toString() === "0";
}

export class ProtoJson {
  constructor(private readonly defs: GrpcDefinitions) {}

  private jsonName(field: protobuf.Field): string {
    return this.defs.jsonNames.get(field) ?? lowerCamel(field.name);
  }

  /** A decoded message as canonical JSON. */
  toJson(type: protobuf.Type, message: Message): Json {
    switch (type.fullName) {
      case ".google.protobuf.Timestamp":
        return timestampToJson(numberOf(message.seconds ?? 0), numberOf(message.nanos ?? 0));
      case ".google.protobuf.Duration":
        return durationToJson(numberOf(message.seconds ?? 0), numberOf(message.nanos ?? 0));
      case ".google.protobuf.FieldMask":
        return ((message.paths as string[] | undefined) ?? []).map(lowerCamel).join(",");
    }
    if (WRAPPERS.has(type.fullName)) {
      return this.scalarToJson(type.fields.value, message.value ?? type.fields.value.defaultValue);
    }
    const out: JsonObject = {};
    for (const field of type.fieldsArray) {
      if (!Object.hasOwn(message, field.name)) continue;
      const value = message[field.name];
      if (value === null || value === undefined) continue;
      if (
        !field.repeated &&
        !field.map &&
        !(field.resolvedType instanceof protobuf.Type) &&
        isZero(value)
      ) {
        // proto3: a zero scalar is unset, unless the field tracks presence.
        if (!this.defs.explicitPresence.has(field)) continue;
      }
      const name = this.jsonName(field);
      if (field.map) {
        const entries = Object.entries(value as Message);
        if (entries.length === 0) continue;
        out[name] = Object.fromEntries(
          entries.map(([key, item]) => [
            mapKeyToJson(field, key),
            this.fieldValueToJson(field, item),
          ]),
        );
      } else if (field.repeated) {
        const items = value as unknown[];
        if (items.length === 0) continue;
        out[name] = items.map((item) => this.fieldValueToJson(field, item));
      } else {
        out[name] = this.fieldValueToJson(field, value);
      }
    }
    return out;
  }

  private fieldValueToJson(field: protobuf.Field, value: unknown): Json {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) return this.toJson(resolved, value as Message);
    if (resolved instanceof protobuf.Enum) {
      const name = resolved.valuesById[numberOf(value)];
      return name ?? numberOf(value);
    }
    return this.scalarToJson(field, value);
  }

  private scalarToJson(field: protobuf.Field, value: unknown): Json {
    switch (field.type) {
      case "int64":
      case "uint64":
      case "sint64":
      case "fixed64":
      case "sfixed64":
        return String(isLong(value) ? value.toString() : value);
      case "bytes":
        return Buffer.from(value as Uint8Array).toString("base64");
      case "double":
      case "float": {
        const n = value as number;
        if (Number.isNaN(n)) return "NaN";
        if (n === Number.POSITIVE_INFINITY) return "Infinity";
        if (n === Number.NEGATIVE_INFINITY) return "-Infinity";
        return n;
      }
      default:
        return value as Json;
    }
  }

  /**
   * Canonical JSON as a message (through `Type.fromObject`). Members the message does
   * not define are ignored; a member of the wrong JSON type is a ProtoJsonError.
   */
  fromJson(type: protobuf.Type, json: unknown, path = ""): protobuf.Message {
    return type.fromObject(this.objectFromJson(type, json, path));
  }

  private objectFromJson(type: protobuf.Type, json: unknown, path: string): Message {
    const where = path || type.name;
    switch (type.fullName) {
      case ".google.protobuf.Timestamp":
        if (typeof json !== "string") throw new ProtoJsonError(`${where}: must be a string`);
        return timestampFromJson(json, where);
      case ".google.protobuf.Duration":
        if (typeof json !== "string") throw new ProtoJsonError(`${where}: must be a string`);
        return durationFromJson(json, where);
      case ".google.protobuf.FieldMask":
        if (typeof json !== "string") throw new ProtoJsonError(`${where}: must be a string`);
        return { paths: json === "" ? [] : json.split(",") };
      case ".google.protobuf.Empty":
        return {};
    }
    if (WRAPPERS.has(type.fullName)) {
      return { value: this.scalarFromJson(type.fields.value, json, where) };
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new ProtoJsonError(`${where}: must be an object`);
    }
    const source = json as Record<string, unknown>;
    const out: Message = {};
    for (const field of type.fieldsArray) {
      const jsonName = this.jsonName(field);
      const value = Object.hasOwn(source, jsonName) ? source[jsonName] : source[field.name];
      if (value === undefined || value === null) continue;
      // A oneof member at its default is not the chosen case (the answer may spell out
      // every member): setting it would override the one that is.
      if (this.defs.oneofMembers.has(field) && (value === "" || value === 0 || value === false)) {
        continue;
      }
      const at = path ? `${path}.${jsonName}` : jsonName;
      if (field.map) {
        if (typeof value !== "object" || Array.isArray(value)) {
          throw new ProtoJsonError(`${at}: must be an object`);
        }
        out[field.name] = Object.fromEntries(
          Object.entries(value as Record<string, unknown>).map(([key, item]) => [
            key,
            this.fieldValueFromJson(field, item, `${at}.${key}`),
          ]),
        );
      } else if (field.repeated) {
        if (!Array.isArray(value)) throw new ProtoJsonError(`${at}: must be an array`);
        const items =
          field.resolvedType instanceof protobuf.Enum
            ? value.filter(
                (item) => !this.isUnnamedEnumValue(field.resolvedType as protobuf.Enum, item),
              )
            : value;
        out[field.name] = items.map((item, index) =>
          this.fieldValueFromJson(field, item, `${at}[${index}]`),
        );
      } else {
        out[field.name] = this.fieldValueFromJson(field, value, at);
      }
    }
    return out;
  }

  /**
   * A value name the set's enum does not have: a value added to the platform after the
   * module the set comes from (a newer capability). Its number is not known here, so
   * a repeated field leaves it out, as a client of that module could not name it either.
   */
  private isUnnamedEnumValue(type: protobuf.Enum, item: unknown): boolean {
    return typeof item === "string" && !(item in type.values) && /^[A-Z][A-Z0-9_]*$/.test(item);
  }

  private fieldValueFromJson(field: protobuf.Field, value: unknown, at: string): unknown {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) return this.objectFromJson(resolved, value, at);
    if (resolved instanceof protobuf.Enum) {
      if (typeof value === "string" && value in resolved.values) return resolved.values[value];
      if (typeof value === "number" && Number.isInteger(value)) return value;
      throw new ProtoJsonError(`${at}: is not a value of ${resolved.name}`);
    }
    return this.scalarFromJson(field, value, at);
  }

  private scalarFromJson(field: protobuf.Field, value: unknown, at: string): unknown {
    switch (field.type) {
      case "string":
        if (typeof value !== "string") throw new ProtoJsonError(`${at}: must be a string`);
        return value;
      case "bool":
        if (typeof value !== "boolean") throw new ProtoJsonError(`${at}: must be a boolean`);
        return value;
      case "bytes":
        if (typeof value !== "string") throw new ProtoJsonError(`${at}: must be a string`);
        return value;
      case "int64":
      case "uint64":
      case "sint64":
      case "fixed64":
      case "sfixed64":
        if (typeof value === "string" && /^-?\d+$/.test(value)) return value;
        if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
        throw new ProtoJsonError(`${at}: must be an integer`);
      case "double":
      case "float":
        if (typeof value === "number") return value;
        if (value === "NaN" || value === "Infinity" || value === "-Infinity") return Number(value);
        throw new ProtoJsonError(`${at}: must be a number`);
      default: {
        const n = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
        if (typeof n !== "number" || !Number.isInteger(n)) {
          throw new ProtoJsonError(`${at}: must be an integer`);
        }
        return n;
      }
    }
  }
}
