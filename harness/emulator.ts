/**
 * Starts an in-process emulator for a test suite and drives its test controls
 * over HTTP (docs/architecture.md, "Emulator: test controls").
 *
 *   const emu = await startTestEmulator();
 *   afterAll(() => emu.close());
 */
import {
  type Bootstrap,
  type EmulatorOptions,
  type FaultSpec,
  type LogEntry,
  startEmulator,
  type TakenFault,
} from "../emulator/index";

export type { Bootstrap, FaultSpec, LogEntry, TakenFault };

export interface SeedRequest {
  groups?: Array<{ parentUid: string; name: string; description?: string }>;
  repos?: Array<{
    parentUid: string;
    name: string;
    description?: string;
    public?: boolean;
    catalogTier?: string;
    aliases?: string[];
    tags?: Array<{
      name: string;
      digest?: string;
      deprecated?: boolean;
      /** The platforms of the image the digest names (what `ImagesService` answers). */
      images?: Array<{ architecture: string; size: number }>;
      /** Vulnerabilities resolved in the image by day (`ListResolvedVulnsReports`). */
      resolvedVulns?: Array<{
        date: string;
        id: string;
        aliases?: string[];
        cvssSeverities?: Array<{ type: string; score: string }>;
      }>;
    }>;
  }>;
  /** Advisories in the platform's `Advisory` shape (`componentName` defaults to the artifact). */
  advisories?: Array<{
    advisoryId: string;
    artifactName: string;
    artifactType?: string;
    artifactArchitecture?: string;
    componentName?: string;
    componentType?: string;
    componentLocation?: string;
    author?: string;
    aliases?: string[];
    legacyAdvisoryId?: string;
    /** Each with one event member (`detection`, `fixed`, ...) and a `reviewState`. */
    events?: Array<Record<string, unknown>>;
    severities?: Array<{ type: string; score: string }>;
  }>;
  /** Security advisory documents (`ListDocuments`), in the answered shape. */
  documents?: Array<{
    id: string;
    advisories?: Array<{
      id: string;
      aliases?: string[];
      packageNamespace?: string;
      events?: Array<Record<string, unknown>>;
    }>;
  }>;
  /** Metadata of vulnerability ids (`ListVulnerabilityMetadata`). */
  vulnerabilityMetadata?: Array<{
    id: string;
    summary?: string;
    details?: string;
    references?: Array<{ type: string; url: string }>;
    severities?: Array<{ type: string; score: string }>;
  }>;
  /** Chainguard Libraries artifacts (`ArtifactsService`) and their versions. */
  artifacts?: Array<{
    name: string;
    ecosystem: string;
    description?: string;
    remediated?: boolean;
    cudaVersions?: string[];
    versions?: Array<{
      version: string;
      description?: string;
      sizeBytes?: number;
      createTime?: string;
    }>;
  }>;
  generate?: { kind: "groups" | "repos"; count: number; parentUid: string; namePrefix?: string };
}

export interface SeedResult {
  groups: string[];
  repos: string[];
  advisories: string[];
}

export interface OidcTokenOptions {
  /** `aud` of the id token (default: the emulator's URL). */
  audience?: string;
  /** Lifetime in seconds (default 600). */
  ttlSeconds?: number;
}

export interface TestEmulator {
  /** `http://127.0.0.1:PORT`: API base URL = auth URL. */
  url: string;
  bootstrap: Bootstrap;
  /** Owner token on the root organisation. */
  token: string;
  rootGroupUid: string;
  /** The emulator's OIDC test issuer URL. */
  issuer: string;
  requests(): Promise<LogEntry[]>;
  clearRequests(): Promise<void>;
  /** Injects a fault; answers its id. */
  fault(spec: FaultSpec): Promise<string>;
  /** The requests faults were applied to, oldest first (recorded before any latency). */
  faultsTaken(): Promise<TakenFault[]>;
  /**
   * Resolves once the fault `id` has been applied to `times` requests (default 1): a
   * request it holds (`latencyMs`) has reached the emulator. Fails after `withinMs`.
   */
  untilFaultTaken(id: string, times?: number, withinMs?: number): Promise<void>;
  clearFaults(): Promise<void>;
  /** Moves the emulator clock forward; answers the new time (ISO). */
  advanceClock(seconds: number): Promise<string>;
  seed(body: SeedRequest): Promise<SeedResult>;
  /** An API token acting as `identityUid`. */
  mintToken(identityUid: string, ttlSeconds?: number): Promise<string>;
  /** An OIDC id token of the emulator's test issuer for `subject`. */
  oidcToken(subject: string, options?: OidcTokenOptions): Promise<string>;
  /** Turns rate limiting on (0 turns it off). */
  rateLimit(requestsPerSecond: number, retryAfter?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, ...options });
  return attachEmulator(emulator.bootstrap, () => emulator.close());
}

/**
 * A `TestEmulator` for an emulator reached through its bootstrap (this process's, or
 * the emulator CLI run as a child process, whose address and keys survive a restart on
 * the same port and `--data` file). `close` is what stops it, if this handle owns it.
 */
export function attachEmulator(
  bootstrap: Bootstrap,
  close: () => Promise<void> = async () => {},
): TestEmulator {
  const url = bootstrap.apiUrl;

  async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${url}/emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `emulator control ${method} /emulator/${path} failed: ${response.status} ${text}`,
      );
    }
    return JSON.parse(text) as T;
  }

  const faultsTaken = async () => (await control<{ taken: TakenFault[] }>("GET", "faults")).taken;

  return {
    url,
    bootstrap,
    token: bootstrap.token,
    rootGroupUid: bootstrap.rootGroupUid,
    issuer: bootstrap.issuer,
    requests: async () => (await control<{ requests: LogEntry[] }>("GET", "requests")).requests,
    clearRequests: async () => {
      await control("DELETE", "requests");
    },
    fault: async (spec) => (await control<{ id: string }>("POST", "faults", spec)).id,
    faultsTaken,
    untilFaultTaken: async (id, times = 1, withinMs = 10_000) => {
      const end = Date.now() + withinMs;
      for (;;) {
        const seen = (await faultsTaken()).filter((taken) => taken.id === id).length;
        if (seen >= times) return;
        if (Date.now() >= end) {
          throw new Error(
            `fault ${id} was applied to ${seen} request(s) within ${withinMs} ms, not ${times}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    clearFaults: async () => {
      await control("DELETE", "faults");
    },
    advanceClock: async (seconds) =>
      (await control<{ now: string }>("POST", "clock", { advanceSeconds: seconds })).now,
    seed: (body) => control<SeedResult>("POST", "seed", body),
    mintToken: async (identityUid, ttlSeconds) =>
      (await control<{ token: string }>("POST", "tokens", { identityUid, ttlSeconds })).token,
    oidcToken: async (subject, oidcOptions = {}) => {
      const response = await fetch(`${bootstrap.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ subject, ...oidcOptions }),
      });
      if (!response.ok) throw new Error(`OIDC test issuer answered ${response.status}`);
      return ((await response.json()) as { token: string }).token;
    },
    rateLimit: async (requestsPerSecond, retryAfter) => {
      await control("POST", "rate-limit", { requestsPerSecond, retryAfter });
    },
    close,
  };
}
