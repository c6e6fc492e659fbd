/** Every benchmark suite, in the order a full run runs them and the page shows them. */
import type { Suite } from "../lib/suite";
import { emulatorSuite } from "./emulator";
import { examplePreviewSuite } from "./example-preview";
import { exportSuite } from "./export";
import { grpcSuite } from "./grpc";
import { lifecycleSuite } from "./lifecycle";
import { operationsSuite } from "./operations";
import { routesSuite } from "./routes";
import { sdkListingSuite } from "./sdk-listing";
import { stateSuite } from "./state";

/** Operations first, then growth with size, listings, the emulator and the exporter. */
export const SUITES: Suite[] = [
  operationsSuite,
  lifecycleSuite,
  stateSuite,
  sdkListingSuite,
  emulatorSuite,
  grpcSuite,
  exportSuite,
  routesSuite,
  examplePreviewSuite,
];

/**
 * The suite that writes the section `sectionId`, for results written before sections
 * named their suite: the one declaring the id, else the one named like it.
 */
export function suiteOfSection(sectionId: string, suites: Suite[] = SUITES): string | undefined {
  return suites.find((suite) => suite.sectionIds?.includes(sectionId) || suite.name === sectionId)
    ?.name;
}
