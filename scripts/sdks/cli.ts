/**
 * `npm run sdks [-- --schema FILE --out DIR]`: the SDKs of every language from the
 * plugin's schema (see generate.ts). Prints the output folder on the last line.
 */
import { parseArgs } from "node:util";
import { generateSdks } from "./generate";

const { values } = parseArgs({
  options: { schema: { type: "string" }, out: { type: "string" } },
});
try {
  const started = performance.now();
  const result = generateSdks({
    schema: values.schema,
    out: values.out,
    log: (message) => process.stderr.write(`sdks: ${message}\n`),
  });
  const total = ((performance.now() - started) / 1000).toFixed(1);
  const steps = Object.entries(result.seconds)
    .map(([step, s]) => `${step} ${s.toFixed(1)} s`)
    .join(", ");
  process.stderr.write(
    result.generated
      ? `sdks: generated in ${total} s (${steps})\n`
      : `sdks: up to date (same schema and generators), ${total} s\n`,
  );
  process.stdout.write(`${result.out}\n`);
} catch (error) {
  process.stderr.write(`sdks: ${(error as Error).message}\n`);
  process.exit(1);
}
