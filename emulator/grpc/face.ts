/**
 * The gRPC face: each unary call of an offered service becomes the HTTP request its
 * `google.api.http` rule describes (path from the template, the rule's body as JSON,
 * every other set field as a query parameter), goes through the same pipeline as an
 * HTTP request (faults, rate limit, router, journal, request log), and its answer is
 * turned back into the method's output message, or into a gRPC status whose
 * `grpc-status-details-bin` carries the answer's `google.rpc` details.
 */
import {
  type Http2ServerRequest,
  type Http2ServerResponse,
  constants as http2Constants,
  type OutgoingHttpHeaders,
} from "node:http2";
import type * as protobuf from "protobufjs";
// The standard `google.rpc.Code` table and gRPC's reading of a bare HTTP status: facts
// shared with the SDK, not rules of the fake.
import { GrpcCode, grpcCodeOfHttpStatus } from "../../sdk/core/grpc-status";
import { MAX_BODY_BYTES } from "../body";
import type { ApiCall, ApiOutcome } from "../pipeline";
import type { GrpcDefinitions, GrpcMethod, HttpBinding } from "./descriptors";
import { isZero, type JsonObject, ProtoJson, ProtoJsonError, timestampToJson } from "./protojson";
import { REFLECTION_PATHS, ReflectionIndex } from "./reflection";

interface GrpcStatus {
  code: number;
  message: string;
  /** `google.rpc.Status` as bytes, when the answer had details. */
  details?: Uint8Array;
}

export class GrpcStatusError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** `grpc-message` is percent-encoded outside printable ASCII (and `%` itself). */
function encodeGrpcMessage(message: string): string {
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A request's content type says gRPC (`application/grpc`, `application/grpc+proto`). */
export function isGrpcRequest(request: Http2ServerRequest): boolean {
  const type = request.headers["content-type"] ?? "";
  return type === "application/grpc" || type.startsWith("application/grpc+proto");
}

/**
 * A unary call's body, read no further than its one message: once the 5-byte prefix
 * is in, a message announced larger than `limit` is refused at once (the rest of the
 * body is not read, RESOURCE_EXHAUSTED as gRPC asks), and bytes past the announced
 * message end the read (a unary call carries exactly one message).
 */
function readMessage(request: Http2ServerRequest, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let announced: number | undefined;
    const finish = (error: GrpcStatusError | undefined) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      if (error) {
        request.pause();
        reject(error);
      } else {
        resolve(Buffer.concat(chunks));
      }
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (announced === undefined && size >= 5) {
        announced = Buffer.concat(chunks).readUInt32BE(1);
        if (announced > limit) {
          finish(
            new GrpcStatusError(
              GrpcCode.RESOURCE_EXHAUSTED,
              `the message must not exceed ${limit} bytes (its prefix announces ${announced})`,
            ),
          );
          return;
        }
      }
      if (announced !== undefined && size > 5 + announced) {
        finish(new GrpcStatusError(GrpcCode.INTERNAL, "a unary call carries exactly one message"));
      }
    };
    const onEnd = () => finish(undefined);
    const onError = (error: Error) => {
      request.off("data", onData);
      reject(error);
    };
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", onError);
  });
}

/** The one message of a unary call's body (5-byte prefix: compressed flag, length). */
function unframe(body: Buffer): Buffer {
  if (body.length < 5) throw new GrpcStatusError(GrpcCode.INTERNAL, "the request has no message");
  if (body[0] !== 0) {
    throw new GrpcStatusError(GrpcCode.UNIMPLEMENTED, "compressed messages are not accepted");
  }
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) {
    throw new GrpcStatusError(GrpcCode.INTERNAL, "a unary call carries exactly one message");
  }
  return body.subarray(5);
}

function frame(message: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

type Message = Record<string, unknown>;

export class GrpcFace {
  private readonly json: ProtoJson;

  private readonly reflection: ReflectionIndex;

  constructor(
    private readonly defs: GrpcDefinitions,
    private readonly answerApi: (call: ApiCall) => Promise<ApiOutcome>,
  ) {
    this.json = new ProtoJson(defs);
    const methods = [...defs.methods.values()];
    this.reflection = new ReflectionIndex(defs.descriptorSet, (service) =>
      methods.some((m) => m.path.startsWith(`/${service}/`) && offered(m) !== undefined),
    );
  }

  /** Handles one gRPC call (the request's content type says gRPC). */
  async handle(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const stream = response.stream;
    let status: GrpcStatus;
    try {
      const path = request.headers[":path"] ?? "";
      if (REFLECTION_PATHS.has(path)) return await this.reflection.serve(request, response);
      const method = offered(this.defs.methods.get(path));
      if (!method) {
        // Answered at once, whatever the method's streaming kind: a client that keeps its
        // side open (a stream) gets its answer without ending it. What it sends is dropped.
        request.resume();
        throw new GrpcStatusError(GrpcCode.UNIMPLEMENTED, `unknown method ${path}`);
      }
      if (method.streaming) {
        request.resume();
        throw new GrpcStatusError(GrpcCode.UNIMPLEMENTED, "streaming methods are not offered");
      }
      const raw = await readMessage(request, MAX_BODY_BYTES);
      let input: Message;
      try {
        input = method.input.decode(unframe(raw)) as unknown as Message;
      } catch (error) {
        if (error instanceof GrpcStatusError) throw error;
        throw new GrpcStatusError(GrpcCode.INTERNAL, "the request message could not be decoded");
      }
      const call = this.callOf(method, input, authorizationOf(request.headers.authorization));
      const outcome = await this.answerApi(call);
      if (outcome.kind === "drop") {
        stream.close(0x2 /* INTERNAL_ERROR */);
        return;
      }
      const result = outcome.result;
      if (result.status >= 200 && result.status < 300 && !outcome.html) {
        let bytes: Uint8Array;
        try {
          const message = this.json.fromJson(method.output, result.body ?? {});
          bytes = method.output.encode(message).finish();
        } catch (error) {
          const why = error instanceof ProtoJsonError ? `: ${error.message}` : "";
          throw new GrpcStatusError(
            GrpcCode.INTERNAL,
            `the answer does not fit ${method.output.name}${why}`,
          );
        }
        let payload = frame(bytes);
        if (outcome.truncate) payload = payload.subarray(0, Math.floor(payload.length / 2));
        response.writeHead(200, { "content-type": "application/grpc" });
        response.addTrailers({ "grpc-status": "0" });
        response.end(payload);
        return;
      }
      status = this.statusOf(result.status, result.body);
    } catch (error) {
      status =
        error instanceof GrpcStatusError
          ? { code: error.code, message: error.message }
          : {
              code: GrpcCode.INTERNAL,
              message: "Internal: the emulator failed to handle the call",
            };
      if (!(error instanceof GrpcStatusError)) {
        process.stderr.write(
          `emulator: gRPC internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
      }
    }
    if (stream.destroyed || response.headersSent) return;
    const trailers: OutgoingHttpHeaders = {
      "grpc-status": String(status.code),
      "grpc-message": encodeGrpcMessage(status.message),
    };
    if (status.details) {
      trailers["grpc-status-details-bin"] = Buffer.from(status.details).toString("base64");
    }
    if (!request.complete) {
      // Answered before the request ended (an over-size message): the status in one
      // HEADERS frame that ends the stream (gRPC's Trailers-Only), then RST_STREAM
      // NO_ERROR, as HTTP/2 allows, so the client stops sending the rest.
      stream.respond(
        { ":status": 200, "content-type": "application/grpc", ...trailers },
        {
          endStream: true,
        },
      );
      stream.close(http2Constants.NGHTTP2_NO_ERROR);
      return;
    }
    response.writeHead(200, { "content-type": "application/grpc" });
    response.addTrailers(trailers);
    response.end();
  }

  /** The HTTP request of a call, by the method's rule. */
  callOf(method: GrpcMethod, input: Message, authorization: string | undefined): ApiCall {
    const binding = chooseBinding(method.bindings);
    if (!binding) {
      throw new GrpcStatusError(GrpcCode.UNIMPLEMENTED, `${method.path} has no HTTP rule`);
    }
    const bound = new Set<string>();
    const rawPath = binding.template.replace(
      /\{([a-z0-9_.]+)(?:=([^}]*))?\}/g,
      (_, fieldPath: string, pattern: string | undefined) => {
        bound.add(fieldPath);
        const value = valueAt(input, fieldPath);
        const text = value === undefined || value === null ? "" : String(value);
        const encoded = encodeURIComponent(text);
        // A `**` variable spans segments: its slashes stay slashes.
        return pattern?.includes("**") ? encoded.replace(/%2F/g, "/") : encoded;
      },
    );
    let body: JsonObject | undefined;
    const query = new URLSearchParams();
    const outside = (name: string) => !bound.has(name);
    if (binding.body === "*") {
      body = this.messageJson(method.input, input, outside);
    } else {
      if (binding.body !== "") {
        const field = method.input.fields[binding.body];
        const value = input[binding.body] as Message | undefined;
        const nested = (field?.resolvedType ?? undefined) as protobuf.Type | undefined;
        body =
          value && nested
            ? this.messageJson(nested, value, (name) => !bound.has(`${binding.body}.${name}`))
            : {};
      }
      this.addQuery(
        query,
        method.input,
        input,
        "",
        (name) => outside(name) && name !== binding.body,
      );
    }
    const text = body === undefined ? undefined : JSON.stringify(body);
    return {
      method: binding.verb,
      rawPath,
      query: query.toString(),
      authorization,
      readBody: async () => ({ body: text === undefined ? undefined : JSON.parse(text) }),
    };
  }

  private messageJson(
    type: protobuf.Type,
    message: Message,
    keep: (name: string) => boolean,
  ): JsonObject {
    const kept: Message = {};
    for (const [name, value] of Object.entries(message)) {
      if (keep(name)) kept[name] = value;
    }
    return this.json.toJson(type, kept) as JsonObject;
  }

  /** The set fields as query parameters, by proto name, nested ones dotted (`uidp.children_of`). */
  private addQuery(
    query: URLSearchParams,
    type: protobuf.Type,
    message: Message,
    prefix: string,
    keep: (name: string) => boolean,
  ): void {
    for (const field of type.fieldsArray) {
      if (!keep(field.name) || !Object.hasOwn(message, field.name)) continue;
      const value = message[field.name];
      if (value === undefined || value === null || field.map) continue;
      if (!field.repeated && isZero(value) && !this.defs.explicitPresence.has(field)) continue;
      const key = `${prefix}${field.name}`;
      const resolved = field.resolvedType as protobuf.Type | protobuf.Enum | null;
      const values = field.repeated ? (value as unknown[]) : [value];
      for (const item of values) {
        if (resolved && "fieldsArray" in resolved) {
          const wellKnown = wellKnownQueryValue(resolved, item as Message);
          if (wellKnown !== undefined) query.append(key, wellKnown);
          else this.addQuery(query, resolved, item as Message, `${key}.`, () => true);
        } else if (resolved && "valuesById" in resolved) {
          query.append(key, resolved.valuesById[Number(item)] ?? String(item));
        } else if (item instanceof Uint8Array) {
          query.append(key, Buffer.from(item).toString("base64"));
        } else {
          query.append(key, String(item));
        }
      }
    }
  }

  /** An error answer as a gRPC status, its details as `google.rpc.Status` bytes. */
  private statusOf(httpStatus: number, body: unknown): GrpcStatus {
    const object = (typeof body === "object" && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    const code =
      typeof object.code === "number" && Number.isInteger(object.code) && object.code > 0
        ? object.code
        : grpcCodeOfHttpStatus(httpStatus);
    const message = typeof object.message === "string" ? object.message : `HTTP ${httpStatus}`;
    const details: Message[] = [];
    for (const detail of Array.isArray(object.details) ? object.details : []) {
      const { "@type": typeUrl, ...rest } = (detail ?? {}) as Record<string, unknown>;
      if (typeof typeUrl !== "string") continue;
      const name = typeUrl.slice(typeUrl.lastIndexOf("/") + 1);
      let type: protobuf.Type;
      try {
        type = this.defs.root.lookupType(name);
      } catch {
        continue;
      }
      const value = type.encode(this.json.fromJson(type, rest)).finish();
      details.push({ type_url: typeUrl, value });
    }
    if (details.length === 0) return { code, message };
    const Status = this.defs.root.lookupType("google.rpc.Status");
    const encoded = Status.encode(Status.fromObject({ code, message, details })).finish();
    return { code, message, details: encoded };
  }
}

/**
 * Of the v1 IAM services, the v1 registry and the token service, only the calls the
 * platform's tools still make are offered; their other methods have no route in the
 * emulator.
 */
const OFFERED_LEGACY = new Set([
  "/chainguard.platform.iam.Identities/List",
  "/chainguard.platform.iam.Identities/Lookup",
  "/chainguard.platform.iam.Groups/List",
  "/chainguard.platform.iam.Roles/List",
  "/chainguard.platform.iam.RoleBindings/List",
  "/chainguard.platform.iam.IdentityProviders/List",
  "/chainguard.platform.iam.GroupInvites/List",
  "/chainguard.platform.iam.GroupAccountAssociations/List",
  "/chainguard.platform.oidc.SecurityTokenService/Exchange",
  "/chainguard.platform.registry.Registry/ListRepos",
  "/chainguard.platform.registry.Registry/CreateRepo",
  "/chainguard.platform.registry.Registry/UpdateRepo",
  "/chainguard.platform.registry.Registry/DeleteRepo",
  "/chainguard.platform.registry.Registry/ListTags",
  "/chainguard.platform.registry.Registry/CreateTag",
  "/chainguard.platform.registry.Registry/UpdateTag",
  "/chainguard.platform.registry.Registry/DeleteTag",
]);

function offered(method: GrpcMethod | undefined): GrpcMethod | undefined {
  if (!method) return undefined;
  const legacy =
    method.path.startsWith("/chainguard.platform.iam.") && !method.path.includes(".v2beta1.");
  const token = method.path.startsWith("/chainguard.platform.oidc.");
  // The v1 registry's package: Registry, Apko, Charts, Vulnerabilities, Entitlements, ...
  const registryV1 = /^\/chainguard\.platform\.registry\.[A-Z]/.test(method.path);
  return (legacy || token || registryV1) && !OFFERED_LEGACY.has(method.path) ? undefined : method;
}

/**
 * The binding a call takes: the rule itself, except that a bodiless POST with a GET
 * among its bindings (the token exchange) takes the GET, whose query the emulator reads.
 */
function chooseBinding(bindings: HttpBinding[]): HttpBinding | undefined {
  const [primary] = bindings;
  if (primary && primary.verb === "POST" && primary.body === "") {
    return bindings.find((binding) => binding.verb === "GET") ?? primary;
  }
  return primary;
}

/**
 * The bearer token of a call's `authorization` metadata. The platform's Go clients send
 * the token as the whole value (`auth.NewFromToken`, `auth.NewFromFile`) or after
 * `Bearer ` (the token exchange): both reach the API as `Bearer <token>`.
 */
function authorizationOf(value: string | string[] | undefined): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  return /^bearer\s/i.test(value) ? value : `Bearer ${value.trim()}`;
}

function valueAt(message: Message, fieldPath: string): unknown {
  let value: unknown = message;
  for (const name of fieldPath.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Message)[name];
  }
  return value;
}

function wellKnownQueryValue(type: protobuf.Type, message: Message): string | undefined {
  switch (type.fullName) {
    case ".google.protobuf.Timestamp":
      return timestampToJson(Number(message.seconds ?? 0), Number(message.nanos ?? 0));
    case ".google.protobuf.FieldMask":
      return ((message.paths as string[] | undefined) ?? []).join(",");
    case ".google.protobuf.Duration":
      return `${Number(message.seconds ?? 0)}s`;
    default:
      return undefined;
  }
}
