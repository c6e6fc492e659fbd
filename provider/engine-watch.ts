/**
 * The dynamic-provider host outliving its engine. The Pulumi engine starts the host
 * (`@pulumi/pulumi/cmd/dynamic-provider <engine address>`) and stops it at the end of a
 * run; a CLI killed outright (SIGKILL, what a CI runner's cancel sends) stops nothing,
 * and the host, a gRPC server nobody will call again, would run on for good. The host
 * never calls the engine itself, so nothing in it notices.
 *
 * The runtime (`runtime.ts`) loaded in such a host watches the engine's address: once
 * it has answered, two refused connections in a row mean the engine is gone, and the
 * host exits. An address that never answered is never judged (a test's dummy address).
 */
import * as net from "node:net";

/** How often the engine's address is tried. */
export const ENGINE_WATCH_INTERVAL_MS = 2000;

/** `host:port` (or `[v6]:port`) of an address the host was given, or undefined. */
export function parseEngineAddress(text: unknown): { host: string; port: number } | undefined {
  if (typeof text !== "string") return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || !(port > 0 && port < 65536)) return undefined;
  return { host: match[1] ?? match[2], port };
}

/** Whether a TCP connection to the address is accepted (false only when refused). */
function reachable(address: { host: string; port: number }): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.setTimeout(1000);
    const done = (result: boolean | undefined) => {
      socket.destroy();
      resolve(result);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNREFUSED" ? false : undefined),
    );
  });
}

/**
 * Tries `address` every `intervalMs` and calls `onGone` once it answered before and has
 * then refused twice in a row. The timer never keeps the process alive. Returns a stop.
 */
export function watchEngine(
  address: { host: string; port: number },
  onGone: () => void,
  intervalMs = ENGINE_WATCH_INTERVAL_MS,
): () => void {
  let answered = false;
  let refusals = 0;
  let busy = false;
  let stopped = false;
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    const result = await reachable(address);
    busy = false;
    if (stopped) return;
    if (result === true) {
      answered = true;
      refusals = 0;
    } else if (result === false && answered && ++refusals >= 2) {
      stop();
      onGone();
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  // At once as well: an engine killed within the first interval has answered before.
  void tick();
  return stop;
}

/**
 * In the dynamic-provider host (its entry is the process's main module and its first
 * argument the engine's address), exits the process once the engine is gone.
 */
export function exitWhenEngineGone(): void {
  const main = require.main?.filename.replace(/\\/g, "/") ?? "";
  if (!/\/cmd\/dynamic-provider(?:\/index\.js)?$/.test(main)) return;
  const address = parseEngineAddress(process.argv[2]);
  if (address === undefined) return;
  watchEngine(address, () => process.exit(1));
}
