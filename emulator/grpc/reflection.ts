/**
 * gRPC server reflection (`grpc.reflection.v1` and `v1alpha`, the same messages under two
 * names; grpcurl asks v1 first, older clients v1alpha), answered from the shipped
 * descriptor set, so `grpcurl -plaintext host:port list` and `describe` work with no
 * `-protoset`. A file is answered with the files it imports, all of them, as servers do.
 * The reflection services themselves are not listed: their files are not in the set.
 *
 * The messages are the reflection protocol's, declared here field by field.
 */
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import * as protobuf from "protobufjs";
import { delimited, stringOf } from "./descriptors";

/** The HTTP/2 paths of the reflection call, one per protocol version. */
export const REFLECTION_PATHS: ReadonlySet<string> = new Set([
  "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
  "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
]);

/** A message's fields, all but the first `plain` of them members of the one oneof `name`. */
function withOneof(name: string, plain: number, fields: Record<string, protobuf.IField>) {
  return { oneofs: { [name]: { oneof: Object.keys(fields).slice(plain) } }, fields };
}

/** A `string` field numbered `id`. */
function text(id: number): protobuf.IField {
  return { type: "string", id };
}

/** A field of the message `type`, numbered `id`. */
function message(type: string, id: number): protobuf.IField {
  return { type, id };
}

const REFLECTION = protobuf.Root.fromJSON({
  nested: {
    reflection: {
      nested: {
        ServerReflectionRequest: withOneof("messageRequest", 1, {
          host: text(1),
          fileByFilename: text(3),
          fileContainingSymbol: text(4),
          fileContainingExtension: message("ExtensionRequest", 5),
          allExtensionNumbersOfType: text(6),
          listServices: text(7),
        }),
        ExtensionRequest: {
          fields: {
            containingType: text(1),
            extensionNumber: { type: "int32", id: 2 },
          },
        },
        ServerReflectionResponse: withOneof("messageResponse", 2, {
          validHost: text(1),
          originalRequest: message("ServerReflectionRequest", 2),
          fileDescriptorResponse: message("FileDescriptorResponse", 4),
          allExtensionNumbersResponse: message("ExtensionNumberResponse", 5),
          listServicesResponse: message("ListServiceResponse", 6),
          errorResponse: message("ErrorResponse", 7),
        }),
        FileDescriptorResponse: {
          fields: { fileDescriptorProto: { rule: "repeated", type: "bytes", id: 1 } },
        },
        ExtensionNumberResponse: {
          fields: {
            baseTypeName: text(1),
            extensionNumber: { rule: "repeated", type: "int32", id: 2 },
          },
        },
        ListServiceResponse: {
          fields: { service: { rule: "repeated", type: "ServiceResponse", id: 1 } },
        },
        ServiceResponse: { fields: { name: text(1) } },
        ErrorResponse: {
          fields: {
            errorCode: { type: "int32", id: 1 },
            errorMessage: text(2),
          },
        },
      },
    },
  },
});
const Request = REFLECTION.lookupType("reflection.ServerReflectionRequest");
const Response = REFLECTION.lookupType("reflection.ServerReflectionResponse");

const NOT_FOUND = 5;
const UNIMPLEMENTED = 12;

interface ReflectionRequest {
  host?: string;
  fileByFilename?: string;
  fileContainingSymbol?: string;
  fileContainingExtension?: { containingType?: string; extensionNumber?: number };
  allExtensionNumbersOfType?: string;
  listServices?: string;
}

/** One file of the set: its bytes as shipped, what it imports, the symbols it declares. */
interface SetFile {
  name: string;
  bytes: Uint8Array;
  dependencies: string[];
}

/** The set's files by name, every symbol's file, and the services, read from the raw set. */
export class ReflectionIndex {
  readonly files = new Map<string, SetFile>();
  readonly symbols = new Map<string, string>();
  readonly services: string[] = [];
  private readonly listed: (service: string) => boolean;

  /** `listed` says whether a service is offered (one not offered is left out of `list`). */
  constructor(descriptorSet: Uint8Array, listed: (service: string) => boolean = () => true) {
    this.listed = listed;
    for (const [number, bytes] of delimited(descriptorSet)) {
      if (number !== 1) continue;
      let name = "";
      let pkg = "";
      const dependencies: string[] = [];
      const declared: Array<[number, Uint8Array]> = [];
      for (const [field, value] of delimited(bytes)) {
        if (field === 1) name = stringOf(value);
        else if (field === 2) pkg = stringOf(value);
        else if (field === 3) dependencies.push(stringOf(value));
        else if (field === 4 || field === 5 || field === 6) declared.push([field, value]);
      }
      this.files.set(name, { name, bytes, dependencies });
      const prefix = pkg ? `${pkg}.` : "";
      for (const [field, value] of declared) this.declare(name, prefix, field, value);
    }
  }

  /** A message (4), enum (5) or service (6) of `file`, nested messages and methods too. */
  private declare(file: string, prefix: string, kind: number, bytes: Uint8Array): void {
    let name = "";
    const inner: Array<[number, Uint8Array]> = [];
    for (const [field, value] of delimited(bytes)) {
      if (field === 1) name = stringOf(value);
      else inner.push([field, value]);
    }
    const full = `${prefix}${name}`;
    this.symbols.set(full, file);
    if (kind === 6 && this.listed(full)) this.services.push(full);
    for (const [field, value] of inner) {
      // A message's nested messages (3) and enums (4); a service's methods (2).
      if (kind === 4 && field === 3) this.declare(file, `${full}.`, 4, value);
      else if (kind === 4 && field === 4) this.declare(file, `${full}.`, 5, value);
      else if (kind === 6 && field === 2) this.declare(file, `${full}.`, 0, value);
    }
  }

  /** `name` and every file it imports, directly or not, each once, `name` first. */
  withImports(name: string): Uint8Array[] {
    const seen = new Set<string>();
    const out: Uint8Array[] = [];
    const visit = (file: string) => {
      const found = this.files.get(file);
      if (!found || seen.has(file)) return;
      seen.add(file);
      out.push(found.bytes);
      for (const dependency of found.dependencies) visit(dependency);
    };
    visit(name);
    return out;
  }

  /** The answer to one request of the stream. */
  answer(request: ReflectionRequest): Record<string, unknown> {
    const error = (code: number, message: string) => ({
      errorResponse: { errorCode: code, errorMessage: message },
    });
    const files = (name: string | undefined, what: string) =>
      name !== undefined && this.files.has(name)
        ? { fileDescriptorResponse: { fileDescriptorProto: this.withImports(name) } }
        : error(NOT_FOUND, `${what} not found`);
    if (request.listServices !== undefined) {
      return { listServicesResponse: { service: this.services.map((name) => ({ name })) } };
    }
    if (request.fileByFilename !== undefined) {
      return files(request.fileByFilename, `file ${request.fileByFilename}`);
    }
    if (request.fileContainingSymbol !== undefined) {
      const symbol = request.fileContainingSymbol.replace(/^\./, "");
      return files(this.symbols.get(symbol), `symbol ${symbol}`);
    }
    if (request.allExtensionNumbersOfType !== undefined) {
      const type = request.allExtensionNumbersOfType;
      return this.symbols.has(type)
        ? { allExtensionNumbersResponse: { baseTypeName: type, extensionNumber: [] } }
        : error(NOT_FOUND, `type ${type} not found`);
    }
    if (request.fileContainingExtension !== undefined) {
      return error(NOT_FOUND, "no extension is offered");
    }
    return error(UNIMPLEMENTED, "unknown reflection request");
  }

  /**
   * Serves one reflection stream: each request message, as it arrives, gets its answer;
   * the call ends (status OK) when the client ends its side.
   */
  serve(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    response.writeHead(200, { "content-type": "application/grpc" });
    let pending = Buffer.alloc(0);
    return new Promise((resolve) => {
      const finish = (status: number, message?: string) => {
        if (!response.stream.destroyed && !response.writableEnded) {
          response.addTrailers({
            "grpc-status": String(status),
            ...(message ? { "grpc-message": message } : {}),
          });
          response.end();
        }
        resolve();
      };
      request.on("data", (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 5) {
          const length = pending.readUInt32BE(1);
          // One request is a name: a large frame is not a reflection request.
          if (pending[0] !== 0 || length > 64 * 1024) {
            request.removeAllListeners("data");
            request.resume();
            finish(13, "malformed reflection request");
            return;
          }
          if (pending.length < 5 + length) break;
          const body = pending.subarray(5, 5 + length);
          pending = pending.subarray(5 + length);
          let decoded: ReflectionRequest;
          try {
            decoded = Request.toObject(Request.decode(body)) as ReflectionRequest;
          } catch {
            finish(13, "malformed reflection request");
            return;
          }
          const answer = Response.encode(
            Response.fromObject({
              validHost: decoded.host ?? "",
              originalRequest: decoded,
              ...this.answer(decoded),
            }),
          ).finish();
          const framed = Buffer.alloc(5 + answer.length);
          framed.writeUInt32BE(answer.length, 1);
          framed.set(answer, 5);
          response.write(framed);
        }
      });
      request.on("end", () => finish(0));
      request.on("error", () => resolve());
      response.stream.on("close", () => resolve());
    });
  }
}
