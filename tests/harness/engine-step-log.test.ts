/**
 * `IRM_ENGINE_STEP_LOG` (harness/real-engine/step-log.ts): one JSON line per engine
 * command, naming the test file that ran it, so that a file's commands can be counted
 * before and after a change; nothing is written without the variable.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { logEngineStep } from "../../harness/real-engine/step-log";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-step-log-"));

afterEach(() => {
  vi.unstubAllEnvs();
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it("appends one line per command, naming this test file, the stack, command, flags and time", () => {
  const file = path.join(dir, "steps.jsonl");
  vi.stubEnv("IRM_ENGINE_STEP_LOG", file);
  logEngineStep("team", "up", ["skipPreview"], 1200);
  logEngineStep("team", "preview", [], 900);
  const lines = fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(lines).toEqual([
    {
      file: path.join("tests", "harness", "engine-step-log.test.ts"),
      stack: "team",
      kind: "up",
      flags: ["skipPreview"],
      ms: 1200,
    },
    {
      file: path.join("tests", "harness", "engine-step-log.test.ts"),
      stack: "team",
      kind: "preview",
      flags: [],
      ms: 900,
    },
  ]);
});

it("writes nothing without IRM_ENGINE_STEP_LOG", () => {
  vi.stubEnv("IRM_ENGINE_STEP_LOG", "");
  const before = fs.readdirSync(dir);
  logEngineStep("team", "up", [], 1);
  expect(fs.readdirSync(dir)).toEqual(before);
});
