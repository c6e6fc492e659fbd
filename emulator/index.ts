/**
 * The local emulator of the Identity and Registry Management API (v2beta1), the
 * v1 paths of the authentication flows, the token exchange and an OIDC test
 * issuer, all on one origin. `npm run emulator` runs it from the command line
 * (`emulator/cli.ts`); tests start it in-process with `startEmulator`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Api, type EmulatorContext } from "./api";
import { Clock } from "./clock";
import { FaultTable, RateLimiter } from "./faults";
import { DataFileWriter, readDataFile, removeStaleTemporaries } from "./persistence";
import { DEFAULT_REQUEST_LOG_LIMIT, RequestLog } from "./request-log";
import { answerClientError, createRequestHandler } from "./server";
import { State } from "./state";
import { TokenService } from "./tokens";

export type { FaultSpec } from "./faults";
export type { LogEntry } from "./request-log";

/** Lifetime of the bootstrap owner token: a person's CLI token, not an exchanged one. */
export const BOOTSTRAP_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface EmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (any free port). The CLI defaults to 8787. */
  port?: number;
  /** Keep state (and signing keys) in this file across restarts. */
  dataFile?: string;
  /** Seed sample repos, tags and advisories (the organisation is always created); default true. */
  seed?: boolean;
  /** How many request log entries to keep; default 100,000. */
  requestLogLimit?: number;
}

export interface Bootstrap {
  apiUrl: string;
  authUrl: string;
  /** Owner token on the root organisation, valid 30 days. */
  token: string;
  rootGroupUid: string;
  /** URL of the emulator's own OIDC test issuer. */
  issuer: string;
}

export interface RunningEmulator {
  /** `http://HOST:PORT`: API base URL and auth URL. */
  url: string;
  bootstrap: Bootstrap;
  /** Stops listening, drops open connections and flushes the data file. */
  close(): Promise<void>;
}

function originOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const saved = options.dataFile ? await readDataFile(options.dataFile) : undefined;
  if (options.dataFile) await removeStaleTemporaries(options.dataFile);

  // The handler is installed once the state exists; nothing is announced before that.
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (handler) handler(request, response);
    else response.destroy();
  });
  // Slow or idle clients must not keep the process alive or hold sockets forever.
  server.keepAliveTimeout = 5000;
  server.on("clientError", answerClientError);
  const log = new RequestLog(options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT);
  server.on("connection", (socket) => log.trackConnection(socket));
  const port = await listen(server, host, options.port ?? 0);
  const origin = originOf(host, port);

  const clock = new Clock(saved?.clockOffsetMs ?? 0);
  const tokens = await TokenService.create(origin, saved?.keys);
  const state = new State();
  if (saved) {
    state.load(saved);
    state.retargetIssuer(tokens.issuer);
  } else {
    state.seed(clock.isoNow(), tokens.issuer, options.seed ?? true);
  }
  const ctx: EmulatorContext = { state, clock, tokens, origin };

  const writer = options.dataFile
    ? new DataFileWriter(options.dataFile, () => ({
        revision: state.revision,
        state: state.toSaved(clock.offset, tokens.savedKeys()),
      }))
    : undefined;
  let lastRevision = state.revision;
  const afterChange = (): void => {
    if (!writer || state.revision === lastRevision) return;
    lastRevision = state.revision;
    writer.schedule();
  };
  if (writer) await writer.flush();

  handler = createRequestHandler({
    ctx,
    api: new Api(ctx),
    log,
    faults: new FaultTable(),
    rateLimiter: new RateLimiter(),
    afterChange,
  });

  const bootstrap: Bootstrap = {
    apiUrl: origin,
    authUrl: origin,
    token: await tokens.mintApiToken(
      state.ownerIdentityUid,
      BOOTSTRAP_TOKEN_TTL_SECONDS,
      clock.now(),
    ),
    rootGroupUid: state.rootGroupUid,
    issuer: tokens.issuer,
  };

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (writer) await writer.flush();
    })();
    return closing;
  };

  return { url: origin, bootstrap, close };
}
