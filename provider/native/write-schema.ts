/**
 * Part of `npm run build`: writes the native plugin's schema (`schema.ts`) to
 * `dist/plugin/schema.json`, where the plugin reads it and the SDK generators take it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSchema } from "./schema";

const root = path.join(__dirname, "..", "..", "..");
const version = (
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }
).version;
const out = process.argv[2] ?? path.join(root, "dist", "plugin", "schema.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(generateSchema(undefined, version), null, 2)}\n`);
