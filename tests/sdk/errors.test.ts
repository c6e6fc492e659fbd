import { describe, expect, it } from "vitest";
import {
  BadResponseError,
  badResponseError,
  errorFromStatusBody,
  FailedPreconditionError,
  InvalidArgumentError,
  IrmError,
  isNotFound,
  isResourceNotEmpty,
  isUnavailable,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  ResourceNotEmptyError,
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

  it("helpers branch on the code", () => {
    expect(isNotFound(errorFromStatusBody({ code: 5, message: "" }, { status: 404 }))).toBe(true);
    expect(isNotFound(new Error("x"))).toBe(false);
    expect(isUnavailable(errorFromStatusBody({ code: 14, message: "" }, { status: 503 }))).toBe(
      true,
    );
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
