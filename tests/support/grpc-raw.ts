/**
 * gRPC calls to an emulator over plaintext HTTP/2 (h2c), with the emulator's own
 * descriptor set: a unary call decoded to an object, and the raw stream for tests that
 * send what a well-behaved client would not (an over-size length prefix, many streams).
 */
import * as http2 from "node:http2";
import { loadGrpcDefinitions } from "../../emulator/grpc/descriptors";

export interface GrpcReply {
  /** `grpc-status` (0 = OK). */
  code: number;
  message: string;
  /** The decoded output message (proto field names), when the call succeeded. */
  output?: Record<string, unknown>;
}

/** One unary call of `path` (`/package.Service/Method`) with `input` (proto field names). */
export async function grpcUnary(
  url: string,
  path: string,
  input: Record<string, unknown>,
  token?: string,
): Promise<GrpcReply> {
  const defs = loadGrpcDefinitions();
  const method = defs?.methods.get(path);
  if (!method) throw new Error(`no gRPC method ${path} in the descriptor set`);
  const message = method.input.encode(method.input.fromObject(input)).finish();
  const body = Buffer.alloc(5 + message.length);
  body.writeUInt32BE(message.length, 1);
  body.set(message, 5);
  const session = http2.connect(url);
  try {
    return await new Promise<GrpcReply>((resolve, reject) => {
      session.once("error", reject);
      const stream = session.request({
        ":method": "POST",
        ":path": path,
        "content-type": "application/grpc",
        te: "trailers",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      });
      const chunks: Buffer[] = [];
      let headers: http2.IncomingHttpHeaders = {};
      stream.on("response", (h) => {
        headers = h;
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("trailers", (trailers) => {
        headers = { ...headers, ...trailers };
      });
      stream.on("error", reject);
      stream.on("end", () => {
        const code = Number(headers["grpc-status"] ?? -1);
        const text = decodeURIComponent(String(headers["grpc-message"] ?? ""));
        const data = Buffer.concat(chunks);
        const output =
          code === 0 && data.length >= 5
            ? (method.output.toObject(method.output.decode(data.subarray(5)), {
                longs: String,
                enums: String,
                defaults: true,
              }) as Record<string, unknown>)
            : undefined;
        resolve({ code, message: text, output });
      });
      stream.end(body);
    });
  } finally {
    session.close();
  }
}
