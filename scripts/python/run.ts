/** Runs a command for the build scripts, failing with its own words when it fails. */
import { spawnSync } from "node:child_process";

export function runChecked(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): string {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    const said = `${result.stderr ?? ""}${result.stdout ?? ""}`
      .trim()
      .split("\n")
      .slice(-15)
      .join("\n");
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}):\n${said}`);
  }
  return result.stdout;
}
