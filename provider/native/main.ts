/**
 * The native provider plugin's entry (`pulumi-resource-irm`): the engine starts it with
 * its own address as the last argument, reads the port from the first line of stdout,
 * and calls the `ResourceProvider` service (`server.ts`). The plugin exits once that
 * engine is gone (`engine-watch.ts`), as the dynamic provider host does.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseEngineAddress, watchEngine } from "../engine-watch";
import type { NativeSchema } from "./schema";
import { startProviderServer } from "./server";

/** The schema `npm run build` writes beside the compiled package (`dist/plugin/schema.json`). */
export const SCHEMA_FILE = path.join(__dirname, "..", "..", "plugin", "schema.json");

async function main(): Promise<void> {
  const schemaText = fs.readFileSync(SCHEMA_FILE, "utf8");
  const { version } = JSON.parse(schemaText) as NativeSchema;
  const server = await startProviderServer(schemaText, version);
  process.stdout.write(`${server.port}\n`);
  const engine = parseEngineAddress(
    process.argv
      .slice(2)
      .filter((arg) => !arg.startsWith("-"))
      .pop(),
  );
  if (engine !== undefined) watchEngine(engine, () => process.exit(1));
  const stop = () => {
    server.stop().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-irm: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
