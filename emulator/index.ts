/**
 * The local emulator of the Identity and Registry Management API (v2beta1), the
 * v1 paths of the authentication flows, the token exchange and an OIDC test
 * issuer, all on one origin. `npm run emulator` runs it from the command line
 * (`emulator/cli.ts`); tests start it in-process with `startEmulator`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from "node:http2";
import type { AddressInfo, Server } from "node:net";
import { Api, type EmulatorContext } from "./api";
import { Clock } from "./clock";
import { acquireDataLock, type DataLock } from "./data-lock";
import { FaultTable, RateLimiter } from "./faults";
import { createFront, DEFAULT_TIMEOUTS, type FrontTimeouts, HTTP2_SERVER_OPTIONS } from "./front";
import { type GrpcDefinitions, loadGrpcDefinitions } from "./grpc/descriptors";
import { GrpcFace, isGrpcRequest } from "./grpc/face";
import { migrateSavedState } from "./migrate";
import {
  DataStore,
  foldJournal,
  journalFileOf,
  type ReadJournal,
  readDataFile,
  readJournal,
  removeStaleTemporaries,
} from "./persistence";
import { createApiPipeline } from "./pipeline";
import { DEFAULT_REQUEST_LOG_LIMIT, RequestLog } from "./request-log";
import { answerClientError, createRequestHandler } from "./server";
import { State } from "./state";
import { TokenService } from "./tokens";

export type { FaultSpec, TakenFault } from "./faults";
export type { LogEntry } from "./request-log";

/** Lifetime of the bootstrap owner token: a person's CLI token, not an exchanged one. */
export const BOOTSTRAP_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface EmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (any free port). The CLI defaults to 8787. */
  port?: number;
  /**
   * Keep state (and signing keys) in this file across restarts: every answered change
   * is on disk first (a journal beside it, `FILE.journal`). One emulator per file
   * (`FILE.lock`): another live one holding it makes the start fail.
   */
  dataFile?: string;
  /** Seed sample repos, tags and advisories (the organisation is always created); default true. */
  seed?: boolean;
  /** How many request log entries to keep; default 100,000. */
  requestLogLimit?: number;
  /**
   * Serve gRPC (HTTP/2 without TLS) on the same port; default true. Needs the descriptor
   * set `npm run build` writes when Go is present; without it gRPC is off.
   */
  grpc?: boolean;
  /**
   * Let the test controls (`/emulator/*`) answer callers beyond loopback; default false:
   * with `host: "0.0.0.0"` the API is open to the network, the controls are not.
   */
  openControls?: boolean;
  /**
   * The front's bounds on a slow client (`emulator/front.ts`); default DEFAULT_TIMEOUTS
   * (a head within 10 s, a whole request within 60 s). Smaller ones let a test see them.
   */
  frontTimeouts?: FrontTimeouts;
}

export interface Bootstrap {
  apiUrl: string;
  authUrl: string;
  /** Owner token on the root organisation, valid 30 days. */
  token: string;
  rootGroupUid: string;
  /** URL of the emulator's own OIDC test issuer. */
  issuer: string;
  /**
   * Where gRPC clients connect (`http://HOST:PORT`, the same origin: plaintext HTTP/2);
   * absent when the gRPC face is off.
   */
  grpcUrl?: string;
}

export interface RunningEmulator {
  /** `http://HOST:PORT`: API base URL and auth URL. */
  url: string;
  /** Whether gRPC is served on the same port (see `EmulatorOptions.grpc`). */
  grpc: boolean;
  bootstrap: Bootstrap;
  /** Stops listening, drops open connections, writes a last snapshot and frees the data file. */
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

/** The gRPC definitions; a damaged descriptor set turns gRPC off (said on stderr), not the emulator. */
function grpcDefinitionsOrNone(): GrpcDefinitions | undefined {
  try {
    return loadGrpcDefinitions();
  } catch (error) {
    process.stderr.write(
      `emulator: the gRPC descriptor set cannot be read (${error instanceof Error ? error.message : String(error)}); gRPC is off\n`,
    );
    return undefined;
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const lock = options.dataFile ? await acquireDataLock(options.dataFile) : undefined;
  try {
    return await startLocked(options, lock);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/** The clock offset a data file may hold: within the range `/emulator/clock` allows. */
function savedClockOffset(file: string, offsetMs: unknown): number {
  if (typeof offsetMs === "number" && Clock.isValidOffset(offsetMs)) return offsetMs;
  // Written by an emulator that let the clock run past the year 9999: start from real time.
  process.stderr.write(
    `emulator: ${file}: clockOffsetMs is out of range; the clock starts from now\n`,
  );
  return 0;
}

async function startLocked(
  options: EmulatorOptions,
  lock: DataLock | undefined,
): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const dataFile = options.dataFile;
  const saved = dataFile ? await readDataFile(dataFile) : undefined;
  let journal: ReadJournal = { records: [], droppedBytes: 0 };
  if (dataFile) {
    journal = await readJournal(journalFileOf(dataFile), saved?.journalSeq ?? 0);
    if (!saved && journal.records.length > 0) {
      throw new Error(
        `${dataFile} is missing but ${journalFileOf(dataFile)} is not: restore the file, or remove the journal to start afresh`,
      );
    }
    if (journal.droppedBytes > 0) {
      process.stderr.write(
        `emulator: ${journalFileOf(dataFile)}: dropped an incomplete last record (${journal.droppedBytes} bytes, never acknowledged)\n`,
      );
    }
    await removeStaleTemporaries(dataFile);
  }

  // The handlers are installed once the state exists; nothing is announced before that.
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  let grpcFace: GrpcFace | undefined;
  const httpServer = createServer((request, response) => {
    if (handler) handler(request, response);
    else response.destroy();
  });
  // Slow or idle clients must not keep the process alive or hold sockets forever.
  httpServer.keepAliveTimeout = 5000;
  httpServer.on("clientError", answerClientError);
  const grpcDefinitions = options.grpc === false ? undefined : grpcDefinitionsOrNone();
  // HTTP/2 without TLS: gRPC calls go to the gRPC face, other requests to the same
  // handler as HTTP/1.1 (through Node's compatibility API).
  const http2Server = grpcDefinitions
    ? createHttp2Server(
        HTTP2_SERVER_OPTIONS,
        (request: Http2ServerRequest, response: Http2ServerResponse) => {
          if (grpcFace && isGrpcRequest(request)) {
            void grpcFace.handle(request, response);
          } else if (handler) {
            handler(request as unknown as IncomingMessage, response as unknown as ServerResponse);
          } else {
            response.stream.close();
          }
        },
      )
    : undefined;
  // An idle HTTP/2 session is closed after a minute (a gRPC client reconnects at will).
  http2Server?.setTimeout(60_000);
  const log = new RequestLog(options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT);
  const front = createFront(
    httpServer,
    http2Server,
    (socket) => log.trackConnection(socket),
    options.frontTimeouts ?? DEFAULT_TIMEOUTS,
  );
  const server = front.server;
  const port = await listen(server, host, options.port ?? 0);
  const origin = originOf(host, port);

  let store: DataStore | undefined;
  try {
    // The snapshot with every whole journal record after it applied.
    const loaded = saved ? foldJournal(saved, journal.records) : undefined;
    const clock = new Clock(
      dataFile && loaded ? savedClockOffset(dataFile, loaded.clockOffsetMs) : 0,
    );
    const tokens = await TokenService.create(origin, loaded?.keys);
    const state = new State();
    if (loaded) {
      // A file of an earlier version is brought to today's shapes (see migrate.ts).
      state.load(migrateSavedState(dataFile ?? "", loaded));
      state.retargetIssuer(tokens.issuer);
    } else {
      state.seed(clock.isoNow(), tokens.issuer, options.seed ?? true);
    }
    const ctx: EmulatorContext = { state, clock, tokens, origin };

    if (dataFile) {
      store = new DataStore(
        dataFile,
        state,
        clock,
        () => tokens.savedKeys(),
        loaded?.journalSeq ?? 0,
      );
      // The first snapshot folds the replayed journal in, and starts an empty one.
      await store.open();
    }
    const durable = store;

    const deps = {
      ctx,
      api: new Api(ctx),
      log,
      faults: new FaultTable(),
      rateLimiter: new RateLimiter(),
      commit: durable ? () => durable.commit() : () => Promise.resolve(),
      openControls: options.openControls === true,
    };
    handler = createRequestHandler(deps);
    if (grpcDefinitions) grpcFace = new GrpcFace(grpcDefinitions, createApiPipeline(deps));

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
      ...(grpcDefinitions ? { grpcUrl: origin } : {}),
    };

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          front.closeAll();
        });
        try {
          await durable?.close();
        } finally {
          await lock?.release();
        }
      })();
      return closing;
    };

    return { url: origin, grpc: grpcDefinitions !== undefined, bootstrap, close };
  } catch (error) {
    await store?.close().catch(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
}
