/** Registry repos, with their settings and README. */
import type { RepoDeclaration } from "../declarations";
import type { LiveRepo } from "../live";
import type { Declarer } from "./build";
import { defined, parentUidOf } from "./values";

export const repoDeclarer: Declarer<LiveRepo, RepoDeclaration> = {
  select: (build) => [...build.live.repos].sort(build.inGroupOrder((r) => parentUidOf(r.uid))),
  name: (build, repos) => build.namesOf(repos, (r) => parentUidOf(r.uid), "repo"),
  refersTo: (repo) => [parentUidOf(repo.uid)],
  declare: (build, repos) =>
    repos.map((repo) =>
      defined({
        ...build.named("Repo", repo),
        catalogTier:
          repo.catalogTier && repo.catalogTier !== "CATALOG_TIER_UNSPECIFIED"
            ? repo.catalogTier
            : undefined,
        aliases: repo.aliases && repo.aliases.length > 0 ? [...repo.aliases] : undefined,
        readme: repo.readme !== "" ? repo.readme : undefined,
      }),
    ),
};
