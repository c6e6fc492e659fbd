/**
 * Emulator fixture for the provider tests: an in-process emulator, its request log
 * and fault controls (the HTTP contract of docs/architecture.md), and the runtime
 * configured against it the way the provider host does.
 */

import { startEmulator } from "../../emulator/index";
import * as runtime from "../../provider/runtime";
import { IrmClient } from "../../sdk/index";

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
}

export interface ProviderFixture {
  url: string;
  token: string;
  rootGroupUid: string;
  issuer: string;
  /** A client of its own, for arranging data and checking results. */
  client: IrmClient;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  fault(spec: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  seed(body: Record<string, unknown>): Promise<Record<string, string[]>>;
  /** Configures the runtime as the host would, from `irm:` config. */
  configureRuntime(config?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export async function startProviderFixture(): Promise<ProviderFixture> {
  const emulator = await startEmulator({ port: 0 });
  const { url, bootstrap } = emulator;
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/emulator/${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`emulator control ${method} ${path}: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return {
    url,
    token: bootstrap.token,
    rootGroupUid: bootstrap.rootGroupUid,
    issuer: bootstrap.issuer,
    client: new IrmClient({ baseUrl: url, token: bootstrap.token }),
    async requests() {
      return (await control("GET", "requests")).requests as LoggedRequest[];
    },
    async clearRequests() {
      await control("DELETE", "requests");
    },
    async fault(spec) {
      await control("POST", "faults", spec);
    },
    async clearFaults() {
      await control("DELETE", "faults");
    },
    async seed(body) {
      return (await control("POST", "seed", body)) as Record<string, string[]>;
    },
    async configureRuntime(config = {}) {
      const values: Record<string, string> = {
        "irm:apiUrl": url,
        "irm:token": bootstrap.token,
        ...config,
      };
      await runtime.configure({
        config: {
          get: (key) => values[key],
          require: (key) => {
            const value = values[key];
            if (value === undefined) throw new Error(`missing ${key}`);
            return value;
          },
        },
      });
    },
    close: () => emulator.close(),
  };
}

/** The `updateMask` of a logged request, split into paths. */
export function maskOf(request: LoggedRequest): string[] {
  return (new URLSearchParams(request.query).get("updateMask") ?? "").split(",").filter(Boolean);
}
