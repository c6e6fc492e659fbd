/**
 * The Pulumi CLI for the demo, built on first use: the one `findPulumiCli()` finds
 * (`PULUMI_CLI_DIR`, the `npm run pulumi:install` cache, `PATH`), else the one
 * `install.ts` builds into the cache, after a line saying so (the first build takes
 * minutes; Go prints its progress).
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { findPulumiCli, type PulumiCli } from "./locate";

export async function ensurePulumiCli(
  say: (line: string) => void = (line) => console.log(line),
): Promise<PulumiCli> {
  const found = findPulumiCli();
  if (found) return found;
  say(
    "No Pulumi CLI found (PULUMI_CLI_DIR, the pulumi:install cache, PATH): building it with npm run pulumi:install (the first time takes several minutes).",
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "install.ts")], {
      // Its last line (the folder) is for scripts; its progress goes to stderr.
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("close", resolve);
  });
  const built = code === 0 ? findPulumiCli() : undefined;
  if (!built) {
    throw new Error(
      `building the Pulumi CLI failed (npm run pulumi:install exited with ${code}); install the Pulumi CLI the usual way and run the demo again`,
    );
  }
  return built;
}
