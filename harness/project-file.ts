/** Reads a Pulumi project's `Pulumi.yaml`. */
import * as fs from "node:fs";
import * as path from "node:path";

/** `name` and `main` from a project's Pulumi.yaml (flat keys only). */
export function readProjectFile(projectDir: string): { name: string; main?: string } {
  const text = fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8");
  const field = (key: string) =>
    text.match(new RegExp(`^${key}:\\s*["']?([^"'#\\n]+?)["']?\\s*$`, "m"))?.[1];
  const name = field("name");
  if (!name) throw new Error(`${projectDir}/Pulumi.yaml has no name`);
  return { name, main: field("main") };
}
