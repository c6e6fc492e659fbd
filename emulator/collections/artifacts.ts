/**
 * Chainguard Libraries artifacts: HEAD's `libraries.v2beta1.ArtifactsService`. The
 * artifacts and their versions come from the language registries, which the emulator
 * does not reach: it answers what `/emulator/seed` gave it (`artifacts`), and empty
 * lists otherwise. Every call needs `CAP_LIBRARIES_ARTIFACTS_LIST`, held on any group
 * (the definitions: unscoped).
 *
 * - `GET /libraries/v2beta1/artifacts`: `ecosystems` required (one or more of
 *   `ECOSYSTEM_JAVA`, `ECOSYSTEM_PYTHON`), `query` a case-insensitive substring of the
 *   name, `cuda_version`, `remediated`; paged, ordered by name (`order_by=name desc`).
 * - `GET /libraries/v2beta1/artifacts/<uid>/versions`: one artifact's versions, paged,
 *   newest version string first by default (`order_by=version asc|desc`, `create_time`).
 * - `GET /libraries/v2beta1/artifacts/count`: one count per requested ecosystem.
 */
import type { Access } from "../access";
import { ApiError, invalidArgument, unauthenticated } from "../errors";
import { parseListParams, runList } from "../listing";
import type { ArtifactRecord, ArtifactVersionRecord } from "../model";
import { type JsonObject, ok } from "../requests";
import * as kit from "./kit";

/** `Ecosystem` of the libraries definitions, by number. */
export const ECOSYSTEMS = ["ECOSYSTEM_UNSPECIFIED", "ECOSYSTEM_JAVA", "ECOSYSTEM_PYTHON"] as const;
const CAPABILITY = "CAP_LIBRARIES_ARTIFACTS_LIST";

/** An `Ecosystem` value as the gateway reads it: its name or its number. */
export function ecosystemOf(value: string, field: string): string {
  const byNumber = /^\d+$/.test(value) ? ECOSYSTEMS[Number(value)] : undefined;
  const name = byNumber ?? value;
  if (!(ECOSYSTEMS as readonly string[]).includes(name) || name === "ECOSYSTEM_UNSPECIFIED") {
    throw invalidArgument(field, `must be ${ECOSYSTEMS.slice(1).join(" or ")}`);
  }
  return name;
}

/** The required `ecosystems` of a list or a count, distinct, in the order given. */
function ecosystemsOf(query: URLSearchParams): string[] {
  const values = [...query.getAll("ecosystems")].filter((value) => value !== "");
  if (values.length === 0) throw invalidArgument("ecosystems", "is required");
  return [...new Set(values.map((value) => ecosystemOf(value, "ecosystems")))];
}

function requireArtifactsList(access: Access): void {
  if (!access.authenticated) throw unauthenticated("a bearer token is required");
  if (!access.holdsAnywhere(CAPABILITY)) {
    throw new ApiError("PERMISSION_DENIED", `Permission denied: ${CAPABILITY} on artifacts`);
  }
}

function versionsOf(
  ctx: Parameters<kit.CollectionHandler>[0],
  uid: string,
): ArtifactVersionRecord[] {
  const store = ctx.state.artifactVersions;
  const { uids, start, end } = store.childrenOf(uid);
  return uids
    .slice(start, end)
    .map((child) => store.get(child))
    .filter((version): version is ArtifactVersionRecord => version !== undefined);
}

function artifactOut(
  ctx: Parameters<kit.CollectionHandler>[0],
  artifact: ArtifactRecord,
): JsonObject {
  const versions = versionsOf(ctx, artifact.uid);
  const latest = versions.reduce<ArtifactVersionRecord | undefined>(
    (best, version) =>
      best === undefined || version.createTime > best.createTime ? version : best,
    undefined,
  );
  return {
    uid: artifact.uid,
    name: artifact.name,
    description: latest?.description ?? artifact.description,
    ecosystem: artifact.ecosystem,
    latestVersion: latest?.version ?? "",
    versionCount: versions.length,
    createTime: artifact.createTime,
    updateTime: latest?.createTime ?? artifact.updateTime,
  };
}

function versionOut(version: ArtifactVersionRecord, artifact: ArtifactRecord): JsonObject {
  return {
    uid: version.uid,
    name: artifact.name,
    version: version.version,
    description: version.description,
    createTime: version.createTime,
    updateTime: version.updateTime,
    sizeBytes: String(version.sizeBytes),
  };
}

export const artifacts: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET") throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  requireArtifactsList(access);
  const { query } = request;
  if (uid === "count") {
    const wanted = ecosystemsOf(query);
    const counts = new Map(wanted.map((ecosystem) => [ecosystem, 0]));
    for (const artifact of ctx.state.artifacts.values()) {
      const count = counts.get(artifact.ecosystem);
      if (count !== undefined) counts.set(artifact.ecosystem, count + 1);
    }
    return ok({
      counts: wanted.map((ecosystem) => ({
        ecosystem,
        totalCount: String(counts.get(ecosystem) ?? 0),
      })),
    });
  }
  if (uid !== undefined) {
    const match = /^(.+)\/versions$/.exec(uid);
    if (!match) throw kit.unsupported(request);
    const artifactUid = match[1];
    if (!kit.FLAT_UID_PATTERN.test(artifactUid)) {
      throw invalidArgument("artifact_id", "must be an artifact uid (40 hex characters)");
    }
    const artifact = kit.existing(ctx.state.artifacts, artifactUid);
    const params = parseListParams(query, [], {
      nameFilter: false,
      orderFields: { version: "name", create_time: "createTime", createTime: "createTime" },
      orderFieldsText: "version, create_time",
      defaultOrder: { field: "name", descending: true },
    });
    params.childrenOf = artifact.uid;
    const result = runList<ArtifactVersionRecord>({
      collectionKey: "artifactVersions",
      collection: ctx.state.artifactVersions,
      params,
      sortValue: kit.sortValueOf<ArtifactVersionRecord>((version) => version.version),
      scopeParentOf: (version) => kit.parentOf(version.uid) ?? "",
      nowMs: ctx.clock.nowMs(),
      pageTokenKey: ctx.tokens.pageTokenKey,
    });
    return kit.listEnvelope("artifactVersions", result, (version) => versionOut(version, artifact));
  }
  const ecosystems = ecosystemsOf(query);
  const text = (query.get("query") ?? "").toLowerCase();
  const cuda = query.get("cuda_version") ?? query.get("cudaVersion") ?? "";
  const remediatedText = query.get("remediated") ?? "";
  if (remediatedText !== "" && remediatedText !== "true" && remediatedText !== "false") {
    throw invalidArgument("remediated", "must be true or false");
  }
  const remediated = remediatedText === "true";
  const params = parseListParams(query, [], {
    nameFilter: false,
    orderFields: { name: "name", create_time: "createTime", createTime: "createTime" },
    orderFieldsText: "name, create_time",
    defaultOrder: { field: "name", descending: false },
  });
  params.filters.artifacts = JSON.stringify([ecosystems, text, cuda, remediated]);
  const result = runList<ArtifactRecord>({
    collectionKey: "artifacts",
    collection: ctx.state.artifacts,
    params,
    sortValue: kit.sortValueOf<ArtifactRecord>((artifact) => artifact.name),
    predicate: (artifact) =>
      ecosystems.includes(artifact.ecosystem) &&
      (text === "" || artifact.name.toLowerCase().includes(text)) &&
      (cuda === "" || artifact.cudaVersions.includes(cuda)) &&
      (!remediated || artifact.remediated),
    scopeParentOf: () => "",
    nowMs: ctx.clock.nowMs(),
    pageTokenKey: ctx.tokens.pageTokenKey,
  });
  return kit.listEnvelope("artifacts", result, (artifact) => artifactOut(ctx, artifact));
};
