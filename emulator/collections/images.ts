/**
 * The images of a repo: `GET /registry/v2beta1/repos/<repo uid>/digests/<digest>/architectures`
 * and `.../size` (HEAD's `ImagesService`). The emulator holds no manifests: the platforms
 * of a digest and their sizes are what `/emulator/seed` recorded on a tag of the repo with
 * that digest (a tag created later with the same digest in the repo takes them too).
 *
 * - `digest` must be a manifest digest (INVALID_ARGUMENT), and the digest of a tag of the
 *   repo (else NOT_FOUND: the registry has no such image).
 * - The caller needs `CAP_REPO_LIST` and `CAP_MANIFEST_METADATA_LIST` on the repo, as the
 *   definitions annotate both calls; a public repo is read by anyone, as its tags are.
 * - Architectures: the recorded platforms in the order seeded (none recorded: empty).
 * - Size: the named `architecture`'s, or with none named the first recorded platform's;
 *   a platform not recorded is NOT_FOUND.
 */
import { invalidArgument, notFound } from "../errors";
import type { RepoRecord } from "../model";
import { type ApiRequest, type ApiResponse, ok } from "../requests";
import * as kit from "./kit";
import { DIGEST_PATTERN, imagesOf } from "./tags";

/** `/registry/v2beta1/repos/<repo uid>/digests/<digest>/<architectures|size>`. */
export const IMAGE_PATH =
  /^\/registry\/v2beta1\/repos\/(.+)\/digests\/([^/]+)\/(architectures|size)$/;

/** Answers an image request, or undefined when `request` is not one. */
export async function handleImageRoute(
  ctx: kit.EmulatorContext,
  request: ApiRequest,
): Promise<ApiResponse | undefined> {
  const match = IMAGE_PATH.exec(request.path);
  if (!match) return undefined;
  if (request.method !== "GET") throw kit.unsupported(request);
  const [, repoUid, digest, what] = match;
  const access = await kit.callerOf(ctx, request, false);
  kit.requirePathUid(repoUid, "repo_uid");
  const repo: RepoRecord = kit.getReadable(
    access,
    ctx.state.repos,
    repoUid,
    "CAP_REPO_LIST",
    (found) => found.public || access.can("CAP_REPO_LIST", found.uid),
  );
  if (!repo.public) access.require("CAP_MANIFEST_METADATA_LIST", repo.uid);
  const decoded = decodeURIComponent(digest);
  if (!DIGEST_PATTERN.test(decoded)) {
    throw invalidArgument(
      "digest",
      "must be a manifest digest (sha256:<64 hex> or sha512:<128 hex>)",
    );
  }
  const platforms = imagesOf(ctx.state, repo.uid, decoded);
  if (platforms === undefined) throw notFound(`${repo.uid}@${decoded}`);
  if (what === "architectures") {
    return ok({ architectures: platforms.map((platform) => platform.architecture) });
  }
  const architecture = request.query.get("architecture") ?? "";
  const platform =
    architecture === ""
      ? platforms[0]
      : platforms.find((candidate) => candidate.architecture === architecture);
  if (!platform) {
    throw notFound(
      `${repo.uid}@${decoded} for ${architecture === "" ? "any platform" : architecture}`,
    );
  }
  return ok({ size: String(platform.size), architecture: platform.architecture });
}
