/**
 * The provider protocol's modules as `@pulumi/pulumi` ships them (`proto/`), and gRPC as
 * `@pulumi/pulumi` itself resolves it (one copy): all the plugin loads of that package.
 */
import { createRequire } from "node:module";

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));

export const grpc = pulumiRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
export const services = pulumiRequire("./proto/provider_grpc_pb.js");
export const messages = pulumiRequire("./proto/provider_pb.js");
export const pluginMessages = pulumiRequire("./proto/plugin_pb.js");
export const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb.js");
export const { Empty } = pulumiRequire("google-protobuf/google/protobuf/empty_pb.js");

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf message classes
export type Message = any;
export type Callback = (error: (Error & { code: number }) | null, response?: Message) => void;
/** One unary method as gRPC calls it. */
export type UnaryMethod = (call: { request: Message }, callback: Callback) => void;
