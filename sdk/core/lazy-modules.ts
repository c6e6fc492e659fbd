/**
 * The dependencies only a request needs, loaded on first use instead of at import:
 * a Pulumi program or a provider host that sends no request never pays for them
 * (undici alone is about 150 ms of start-up; see docs/sdk.md, Start-up). Their types
 * come from `import type`, which costs nothing at run time.
 */
import type * as PRetry from "p-retry";
import type * as Undici from "undici";

let undiciModule: typeof Undici | undefined;
let pRetryModule: typeof PRetry | undefined;

/** undici (`request`, `Agent`), loaded by the first request. */
export function undici(): typeof Undici {
  undiciModule ??= require("undici") as typeof Undici;
  return undiciModule;
}

/** p-retry (the retry loop and its `AbortError`), loaded by the first request. */
export function pRetry(): typeof PRetry {
  pRetryModule ??= require("p-retry") as typeof PRetry;
  return pRetryModule;
}
