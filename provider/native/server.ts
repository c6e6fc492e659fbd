/**
 * The native provider plugin's gRPC service (`pulumirpc.ResourceProvider`). The engine
 * starts the plugin once per run for the program's schema (the YAML host's type check,
 * `GetSchema` only) and once more for the resources, so what only the schema needs is
 * served from here and the rest (`service.ts`: configuration, the handlers and checks of
 * every kind, the lookups, the API client) is loaded at the first call that needs it: a
 * schema-only process never loads it.
 */

import {
  Empty,
  grpc,
  type Message,
  messages,
  pluginMessages,
  services,
  type UnaryMethod,
} from "./protocol";
import type { NativeSchema } from "./schema";
import type { ResourceMethods } from "./service";

/** The methods `service.ts` serves. */
const RESOURCE_METHODS = [
  "checkConfig",
  "diffConfig",
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
  "invoke",
] as const satisfies ReadonlyArray<keyof ResourceMethods>;

/** An answer built at once (these cannot fail). */
const answer =
  (build: () => Message): UnaryMethod =>
  (_call, callback) =>
    callback(null, build());

/**
 * Builds the service's implementation from the generated schema's text (`schema.ts`),
 * parsed only when a resource method first needs it.
 */
export function providerService(schemaText: string, version: string): Record<string, UnaryMethod> {
  let served: ResourceMethods | undefined;
  const resources = (): ResourceMethods => {
    if (served === undefined) {
      const { resourceService } = require("./service") as typeof import("./service");
      served = resourceService(JSON.parse(schemaText) as NativeSchema);
    }
    return served;
  };
  const methods: Record<string, UnaryMethod> = {
    handshake: answer(() => {
      const response = new messages.ProviderHandshakeResponse();
      response.setAcceptSecrets(true);
      response.setAcceptResources(false);
      response.setAcceptOutputs(false);
      return response;
    }),
    getPluginInfo: answer(() => {
      const info = new pluginMessages.PluginInfo();
      info.setVersion(version);
      return info;
    }),
    getSchema: answer(() => {
      const response = new messages.GetSchemaResponse();
      response.setSchema(schemaText);
      return response;
    }),
    cancel: answer(() => new Empty()),
  };
  for (const name of RESOURCE_METHODS) {
    methods[name] = (call, callback) => {
      let served: ResourceMethods;
      try {
        served = resources();
      } catch (error) {
        // The handlers failed to load (a broken install): the engine shows this message,
        // where grpc-js would answer a bare "Unknown error" for a throw.
        const why = error instanceof Error ? error.message : String(error);
        callback(
          Object.assign(new Error(`pulumi-resource-irm could not load its handlers: ${why}`), {
            code: grpc.status.INTERNAL,
          }),
        );
        return;
      }
      served[name](call, callback);
    };
  }
  return methods;
}

/** Starts the service on a free loopback port; resolves with the port and a stop. */
export async function startProviderServer(
  schemaText: string,
  version: string,
): Promise<{ port: number; stop(): Promise<void> }> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
  });
  server.addService(services.ResourceProviderService, providerService(schemaText, version));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    port,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
