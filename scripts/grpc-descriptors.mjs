#!/usr/bin/env node
// Part of `npm run build`: writes the descriptor set of the emulator's gRPC face,
// dist/emulator/grpc/descriptors.binpb, from the platform's published Go module
// (contract/cmd/descriptors, v0.1.57), then brings in the services served at the
// definitions' newer revision (contract/head/cmd/descriptors). Without Go the build goes
// on and the gRPC face is off.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "emulator", "grpc", "descriptors.binpb");
const go = process.env.GO ?? "go";

const version = spawnSync(go, ["version"], { encoding: "utf8" });
if (version.error || version.status !== 0) {
  process.stderr.write(
    existsSync(out)
      ? "grpc descriptors: Go not found; keeping the descriptor set of an earlier build\n"
      : "grpc descriptors: Go not found; the emulator's gRPC face is off in this build\n",
  );
  process.exit(0);
}
const run = spawnSync(go, ["run", "./cmd/descriptors", out], {
  cwd: join(root, "contract"),
  stdio: ["ignore", "inherit", "inherit"],
});
if (run.status !== 0) {
  process.stderr.write(
    "grpc descriptors: `go run ./cmd/descriptors` failed (see above); the emulator's gRPC face is off in this build\n",
  );
} else {
  const head = spawnSync(go, ["run", "./cmd/descriptors", out], {
    cwd: join(root, "contract", "head"),
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (head.status !== 0) {
    process.stderr.write(
      "grpc descriptors: `go run ./cmd/descriptors` in contract/head failed (see above); the gRPC face serves v0.1.57's services only\n",
    );
  }
}
