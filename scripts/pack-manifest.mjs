#!/usr/bin/env node
/**
 * The `prepack` / `postpack` hooks of `npm pack` and `npm publish`.
 *
 * The repository's package.json keeps a `prepare` script so that `npm ci` here builds
 * `dist/`. Shipped in the tarball, that script would make npm list the package among
 * those with install scripts to review when a user installs the tarball, though the
 * package needs no script at install. So `strip` (prepack) saves package.json beside
 * it and leaves it without `prepare` while npm packs it; `restore` (postpack) puts the
 * saved bytes back. A pack that stops between the two leaves the saved copy: the next
 * `strip` refuses, naming it, until `restore` is run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = path.join(root, "package.json");
const saved = path.join(root, ".package.json.packing");

function strip() {
  if (fs.existsSync(saved)) {
    throw new Error(
      `${saved} exists: an earlier pack stopped before postpack. Run \`node scripts/pack-manifest.mjs restore\` first.`,
    );
  }
  const text = fs.readFileSync(manifest, "utf8");
  const parsed = JSON.parse(text);
  if (parsed.scripts?.prepare === undefined) return;
  fs.writeFileSync(saved, text);
  delete parsed.scripts.prepare;
  fs.writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`);
}

function restore() {
  if (!fs.existsSync(saved)) return;
  fs.writeFileSync(manifest, fs.readFileSync(saved));
  fs.rmSync(saved);
}

const command = process.argv[2];
if (command === "strip") strip();
else if (command === "restore") restore();
else {
  process.stderr.write("usage: node scripts/pack-manifest.mjs strip|restore\n");
  process.exitCode = 2;
}
