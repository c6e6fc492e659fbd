/**
 * `sdk/core/grpc-status.ts`: the one `google.rpc.Code` table (number, name, HTTP status)
 * and the two readings of a bare HTTP status, as the SDK's errors, the emulator's errors
 * and the emulator's gRPC face use them.
 */
import { describe, expect, it } from "vitest";
import { ApiError, GRPC } from "../../emulator/errors";
import { badResponseError } from "../../sdk/core/errors";
import {
  codeName,
  GRPC_CODE_NAMES,
  GRPC_STATUSES,
  GrpcCode,
  type GrpcCodeName,
  grpcCodeOfHttpStatus,
  httpStatusOf,
  restCodeOfHttpStatus,
} from "../../sdk/core/grpc-status";
import * as sdk from "../../sdk/index";

const NAMES = Object.keys(GRPC_STATUSES) as GrpcCodeName[];

describe("the google.rpc.Code table", () => {
  it("holds the seventeen codes, numbered 0 to 16 in order", () => {
    expect(NAMES.map((name) => GRPC_STATUSES[name].code)).toEqual([...Array(17).keys()]);
  });

  it("round-trips name -> number -> name, and number -> name -> number", () => {
    for (const name of NAMES) {
      expect(GRPC_CODE_NAMES[GrpcCode[name]]).toBe(name);
      expect(codeName(GrpcCode[name])).toBe(name);
    }
    for (let code = 0; code <= 16; code++) expect(GrpcCode[GRPC_CODE_NAMES[code]]).toBe(code);
    expect(codeName(17)).toBe("CODE_17");
  });

  it("gives each code the HTTP status of grpc-gateway's HTTPStatusFromCode", () => {
    expect(Object.fromEntries(NAMES.map((name) => [name, httpStatusOf(name)]))).toEqual({
      OK: 200,
      CANCELLED: 499,
      UNKNOWN: 500,
      INVALID_ARGUMENT: 400,
      DEADLINE_EXCEEDED: 504,
      NOT_FOUND: 404,
      ALREADY_EXISTS: 409,
      PERMISSION_DENIED: 403,
      RESOURCE_EXHAUSTED: 429,
      FAILED_PRECONDITION: 400,
      ABORTED: 409,
      OUT_OF_RANGE: 400,
      UNIMPLEMENTED: 501,
      INTERNAL: 500,
      UNAVAILABLE: 503,
      DATA_LOSS: 500,
      UNAUTHENTICATED: 401,
    });
  });

  it("is what pulumi-irm/sdk exports and what the emulator answers with", () => {
    expect(sdk.GrpcCode).toBe(GrpcCode);
    expect(sdk.GRPC_CODE_NAMES).toBe(GRPC_CODE_NAMES);
    for (const [name, entry] of Object.entries(GRPC)) {
      expect(entry).toBe(GRPC_STATUSES[name as GrpcCodeName]);
      const body = new ApiError(name as keyof typeof GRPC, "m").toBody();
      expect(body.code).toBe(GrpcCode[name as GrpcCodeName]);
    }
  });
});

describe("a bare HTTP status (no code in the answer)", () => {
  it("reads as gRPC's own mapping on the gRPC face", () => {
    const read = (status: number) => codeName(grpcCodeOfHttpStatus(status));
    expect([400, 401, 403, 404, 409, 429, 500, 502, 503, 504].map(read)).toEqual([
      "INTERNAL",
      "UNAUTHENTICATED",
      "PERMISSION_DENIED",
      "UNIMPLEMENTED",
      "UNKNOWN",
      "UNAVAILABLE",
      "UNKNOWN",
      "UNAVAILABLE",
      "UNAVAILABLE",
      "UNAVAILABLE",
    ]);
  });

  it("reads as the table backwards on the REST face, a stray 404 never NOT_FOUND", () => {
    const read = (status: number) => codeName(restCodeOfHttpStatus(status));
    expect([400, 401, 403, 404, 409, 418, 429, 500, 501, 502, 503, 504].map(read)).toEqual([
      "INVALID_ARGUMENT",
      "UNAUTHENTICATED",
      "PERMISSION_DENIED",
      "UNKNOWN",
      "ALREADY_EXISTS",
      "UNKNOWN",
      "RESOURCE_EXHAUSTED",
      "INTERNAL",
      "INTERNAL",
      "UNAVAILABLE",
      "UNAVAILABLE",
      "UNAVAILABLE",
    ]);
  });

  it("is how the SDK's errors read a proxy's page", () => {
    const read = (status: number) =>
      badResponseError("not JSON", "<html>proxy</html>", "text/html", { status }).codeName;
    expect([502, 404, 409].map(read)).toEqual(["UNAVAILABLE", "UNKNOWN", "ALREADY_EXISTS"]);
  });
});
