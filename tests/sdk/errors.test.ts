import { describe, expect, it } from "vitest";
import {
  BadResponseError,
  badResponseError,
  ConnectionError,
  codeName,
  errorFromStatusBody,
  FailedPreconditionError,
  GRPC_CODE_NAMES,
  GrpcCode,
  InvalidArgumentError,
  IrmError,
  isInvalidArgument,
  isNotFound,
  isPermissionDenied,
  isRateLimited,
  isResourceNotEmpty,
  isStatusBody,
  isUnauthenticated,
  isUnavailable,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  ResourceNotEmptyError,
  TimeoutError,
  UnauthenticatedError,
  UnavailableError,
} from "../../sdk/core/errors";

const TYPE = "type.googleapis.com/google.rpc.";
const request = { method: "POST", path: "/iam/v2beta1/groups/abc" };

describe("AIP-193 decoding", () => {
  it("lifts ErrorInfo and BadRequest violations into typed fields", () => {
    const error = errorFromStatusBody(
      {
        code: 3,
        message: "Invalid argument: name: must match ^[a-z0-9 ._-]{1,}$",
        details: [
          { "@type": `${TYPE}ErrorInfo`, reason: "INVALID_ARGUMENT", domain: "iam.example" },
          {
            "@type": `${TYPE}BadRequest`,
            fieldViolations: [{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }],
          },
        ],
      },
      { status: 400, request },
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toBeInstanceOf(IrmError);
    expect(error).toMatchObject({
      code: 3,
      codeName: "INVALID_ARGUMENT",
      status: 400,
      reason: "INVALID_ARGUMENT",
      domain: "iam.example",
      fieldViolations: [{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }],
      request,
    });
  });

  it("redacts tokens and configured secrets from violations as from the message", () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    const secret = "configured-secret-value";
    const body = {
      code: 9,
      message: "refused",
      details: [
        {
          "@type": `${TYPE}BadRequest`,
          fieldViolations: [{ field: `token ${jwt}`, description: `echoed ${secret}` }],
        },
        {
          "@type": `${TYPE}PreconditionFailure`,
          violations: [{ type: "T", subject: `Bearer ${secret}`, description: `was ${jwt}` }],
        },
      ],
    };
    const error = errorFromStatusBody(body, { status: 400, secrets: [secret] });
    const printed = JSON.stringify([error.fieldViolations, error.preconditionViolations]);
    expect(printed).not.toContain(jwt);
    expect(printed).not.toContain(secret);
    expect(error.fieldViolations).toEqual([
      { field: "token [REDACTED]", description: "echoed [REDACTED]" },
    ]);
    expect(error.preconditionViolations).toEqual([
      { type: "T", subject: "Bearer [REDACTED]", description: "was [REDACTED]" },
    ]);
  });

  it("chooses the class from the gRPC code, not the HTTP status (400 is also FAILED_PRECONDITION)", () => {
    const body = {
      code: 9,
      message: "Precondition failed: group still has children",
      details: [
        { "@type": `${TYPE}ErrorInfo`, reason: "FAILED_PRECONDITION", domain: "iam.example" },
        {
          "@type": `${TYPE}PreconditionFailure`,
          violations: [{ type: "RESOURCE_NOT_EMPTY", subject: "g", description: "2 repos" }],
        },
      ],
    };
    const error = errorFromStatusBody(body, { status: 400 });
    expect(error).toBeInstanceOf(ResourceNotEmptyError);
    expect(error).toBeInstanceOf(FailedPreconditionError);
    expect(isResourceNotEmpty(error)).toBe(true);
    expect(error.preconditionViolations).toEqual([
      { type: "RESOURCE_NOT_EMPTY", subject: "g", description: "2 repos" },
    ]);

    const otherPrecondition = errorFromStatusBody(
      { ...body, details: [body.details[0]] },
      { status: 400 },
    );
    expect(otherPrecondition).toBeInstanceOf(FailedPreconditionError);
    expect(otherPrecondition).not.toBeInstanceOf(ResourceNotEmptyError);
  });

  it.each([
    [5, NotFoundError],
    [7, PermissionDeniedError],
    [8, RateLimitedError],
    [14, UnavailableError],
    [16, UnauthenticatedError],
  ] as const)("code %i decodes to %o", (code, ErrorClass) => {
    const error = errorFromStatusBody({ code, message: "m" }, { status: 418 });
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.status).toBe(418);
    expect(error.reason).toBe("");
  });

  it("keeps an unknown code as a plain IrmError with a readable code name", () => {
    const error = errorFromStatusBody({ code: 12, message: "nope" }, { status: 501 });
    expect(error.constructor).toBe(IrmError);
    expect(error.codeName).toBe("UNIMPLEMENTED");
  });

  it("redacts tokens the server echoes back, in the message and toString()", () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    const error = errorFromStatusBody(
      { code: 16, message: `Unauthenticated: token ${jwt} expired; opaque s3cr3t-static-token` },
      { status: 401, secrets: ["s3cr3t-static-token"] },
    );
    expect(error.message).not.toContain(jwt);
    expect(error.message).not.toContain("s3cr3t-static-token");
    expect(String(error)).toContain("[REDACTED]");
    expect(JSON.stringify(error)).not.toContain(jwt);
  });

  it("refuses a body whose code is OK or outside google.rpc.Code", () => {
    expect(isStatusBody({ code: 5, message: "m" })).toBe(true);
    expect(isStatusBody({ code: 0, message: "m" })).toBe(false);
    expect(isStatusBody({ code: 17, message: "m" })).toBe(false);
    expect(isStatusBody({ code: 5.5, message: "m" })).toBe(false);
    expect(isStatusBody({ code: 5 })).toBe(false);
  });
});

describe("gRPC codes", () => {
  it("names every code of google.rpc.Code from the one table", () => {
    expect(Object.keys(GRPC_CODE_NAMES).map(Number)).toEqual(
      Array.from({ length: 17 }, (_, i) => i),
    );
    for (const [name, code] of Object.entries(GrpcCode)) expect(codeName(code)).toBe(name);
    expect(codeName(99)).toBe("CODE_99");
    expect(new IrmError({ code: GrpcCode.ABORTED, message: "m" }).codeName).toBe("ABORTED");
  });
});

describe("type guards", () => {
  const decoded = (code: number) => errorFromStatusBody({ code, message: "m" }, { status: 400 });
  /** What a proxy's page with this HTTP status becomes: a bad response with the status's code. */
  const proxyPage = (status: number) =>
    badResponseError("not JSON", "<html></html>", "text/html", { status });

  it.each([
    ["isNotFound", isNotFound, GrpcCode.NOT_FOUND, 404],
    ["isInvalidArgument", isInvalidArgument, GrpcCode.INVALID_ARGUMENT, 400],
    ["isPermissionDenied", isPermissionDenied, GrpcCode.PERMISSION_DENIED, 403],
    ["isUnauthenticated", isUnauthenticated, GrpcCode.UNAUTHENTICATED, 401],
    ["isRateLimited", isRateLimited, GrpcCode.RESOURCE_EXHAUSTED, 429],
    ["isUnavailable", isUnavailable, GrpcCode.UNAVAILABLE, 503],
  ] as const)(
    "%s is true for the API's own error only, never for a proxy's page",
    (_, guard, code, status) => {
      expect(guard(decoded(code))).toBe(true);
      const page = proxyPage(status);
      // The page's code may equal the guard's (403 → PERMISSION_DENIED): the class decides.
      if (status !== 404) expect(page.code).toBe(code);
      expect(guard(page)).toBe(false);
      expect(guard(new IrmError({ code, message: "m" }))).toBe(false);
      expect(guard(new Error("m"))).toBe(false);
      expect(guard(undefined)).toBe(false);
    },
  );

  it("each guard is true for its own class and for no other decoded code", () => {
    const guards = [
      [isNotFound, NotFoundError],
      [isInvalidArgument, InvalidArgumentError],
      [isPermissionDenied, PermissionDeniedError],
      [isUnauthenticated, UnauthenticatedError],
      [isRateLimited, RateLimitedError],
      [isUnavailable, UnavailableError],
      [isResourceNotEmpty, ResourceNotEmptyError],
    ] as const;
    for (let code = 1; code <= 16; code++) {
      const error = decoded(code);
      for (const [guard, ErrorClass] of guards) {
        expect(guard(error), `${guard.name}(${error.codeName})`).toBe(error instanceof ErrorClass);
      }
    }
  });

  it("isUnavailable is also true for a connection failure, not for a timeout", () => {
    const connection = new ConnectionError({
      code: GrpcCode.UNAVAILABLE,
      message: "refused",
      beforeSend: true,
    });
    expect(isUnavailable(connection)).toBe(true);
    expect(
      isUnavailable(new TimeoutError({ code: GrpcCode.DEADLINE_EXCEEDED, message: "t" })),
    ).toBe(false);
  });
});

describe("undecodable responses", () => {
  it("describes an HTML page without dumping it, mapping 502 to UNAVAILABLE", () => {
    const html = `<html><body>${"<p>Bad gateway</p>".repeat(50)}</body></html>`;
    const error = badResponseError("not JSON", html, "text/html", {
      status: 502,
      request: { method: "GET", path: "/iam/v2beta1/groups" },
    });
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.codeName).toBe("UNAVAILABLE");
    expect(error.message).toMatch(/GET \/iam\/v2beta1\/groups: HTTP 502 \(text\/html\), not JSON/);
    expect(error.message.length).toBeLessThan(300);
  });

  it("redacts a bearer header an upstream page echoes", () => {
    const error = badResponseError("not JSON", "Authorization: Bearer abc.def-ghi", "text/plain", {
      status: 500,
    });
    expect(error.message).not.toContain("abc.def-ghi");
  });
});

describe("RetryInfo", () => {
  const body = {
    code: 8,
    message: "Resource exhausted",
    details: [{ "@type": `${TYPE}RetryInfo`, retryDelay: "1.5s" }],
  };
  it("gives the retry delay when no Retry-After header came", () => {
    expect(errorFromStatusBody(body, { status: 429 }).retryAfterMs).toBe(1500);
  });
  it("yields to the Retry-After header", () => {
    expect(errorFromStatusBody(body, { status: 429, retryAfterMs: 3000 }).retryAfterMs).toBe(3000);
  });
});
