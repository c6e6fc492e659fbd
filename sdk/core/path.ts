/**
 * URL path building. A uid is a `/`-separated path (`<root>/<child>`); each
 * segment is percent-encoded on its own and the segments are joined with `/`, so
 * a child uid reaches the nested path and never becomes `%2F`.
 */

/** Thrown before any request when a uid or path segment could not address a resource. */
export class InvalidPathError extends TypeError {
  override name = "InvalidPathError";
}

/** Encodes one uid (possibly several segments) for use in a path. */
export function encodeUid(uid: string, what = "uid"): string {
  if (typeof uid !== "string" || uid === "") {
    throw new InvalidPathError(`${what} must be a non-empty string`);
  }
  return uid
    .split("/")
    .map((segment) => {
      if (segment === "" || segment === "." || segment === "..") {
        throw new InvalidPathError(
          `${what} ${JSON.stringify(uid)} has an empty, "." or ".." segment`,
        );
      }
      return encodeURIComponent(segment);
    })
    .join("/");
}

/** Joins a fixed collection path and a uid: `resourcePath("/iam/v2beta1/groups", uid)`. */
export function resourcePath(collection: string, uid: string, what = "uid"): string {
  return `${collection}/${encodeUid(uid, what)}`;
}

/**
 * Builds the `updateMask` query value from field paths: comma-separated, each
 * path checked so that a stray comma or space cannot widen the mask.
 */
export function buildUpdateMask(paths: readonly string[]): string {
  if (paths.length === 0) throw new InvalidPathError("updateMask must name at least one field");
  for (const path of paths) {
    if (!/^(\*|[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)$/.test(path)) {
      throw new InvalidPathError(`updateMask path ${JSON.stringify(path)} is not a field path`);
    }
  }
  return [...new Set(paths)].join(",");
}
