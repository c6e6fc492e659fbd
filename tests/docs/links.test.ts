/**
 * Every relative link in README.md and docs/ leads somewhere: the file or folder it
 * names exists, and the anchor it names (`#settings`, `provider.md#lookups`) is a heading
 * of that page, spelled as the repository host spells heading anchors. Links in code
 * (fenced blocks, inline code) are text, not links, and are not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");

/** The page's text with fenced code blocks and inline code blanked out, lines kept. */
function prose(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
          fence = undefined;
        }
        return "";
      }
      if (marker !== undefined) {
        fence = marker;
        return "";
      }
      return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, "");
    })
    .join("\n");
}

/** The anchor the repository host gives a heading: lower case, punctuation dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/<[^>]*>/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page offers: its headings (repeats get `-1`, `-2`, ...) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = undefined;
      }
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

/** The link targets of a page, outside code: inline `[text](target)` and `[ref]: target`. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  prose(markdown)
    .split("\n")
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        links.push({ target: match[1], line: index + 1 });
      }
      const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
      if (reference) links.push({ target: reference[1], line: index + 1 });
    });
  return links;
}

/** The broken relative links of one page, as `line: target (why)`. */
function brokenLinks(file: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of linksOf(markdown)) {
    // Absolute addresses (https:, mailto:) are not the repository's to check.
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
    const path = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    if (pathPart !== "" && !existsSync(path)) {
      broken.push(`${line}: ${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (pathPart !== "" && (statSync(path).isDirectory() || !path.endsWith(".md"))) {
      broken.push(`${line}: ${target} (an anchor into something that is not a page)`);
      continue;
    }
    const page = path === file ? markdown : readFileSync(path, "utf8");
    if (!anchorsOf(page).has(decodeURIComponent(anchor))) {
      broken.push(`${line}: ${target} (no heading with that anchor)`);
    }
  }
  return broken;
}

/** README.md and every page under docs/. */
function pages(): string[] {
  const found = [join(ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk(join(ROOT, "docs"));
  return found;
}

describe("relative links in README.md and docs/", () => {
  it.each(pages().map((file) => [relative(ROOT, file), file]))(
    "%s: every relative link and anchor resolves",
    (_, file) => {
      expect(brokenLinks(file, readFileSync(file, "utf8"))).toEqual([]);
    },
  );
});

describe("the link check itself", () => {
  const file = join(ROOT, "docs", "example.md");

  it("finds a missing file, a missing anchor and a missing local anchor", () => {
    const page = [
      "# A page",
      "",
      "See [the provider](provider.md#settings), [nothing](no-such-page.md),",
      "[a wrong anchor](provider.md#no-such-heading) and [here](#a-page), [gone](#gone).",
    ].join("\n");
    expect(brokenLinks(file, page)).toEqual([
      "3: no-such-page.md (no such file)",
      "4: provider.md#no-such-heading (no heading with that anchor)",
      "4: #gone (no heading with that anchor)",
    ]);
  });

  it("ignores links in code and absolute addresses", () => {
    const page = [
      "```md",
      "[in a block](missing.md)",
      "```",
      "Inline `[code](missing.md)` and [a site](https://example.com/missing.md).",
    ].join("\n");
    expect(brokenLinks(file, page)).toEqual([]);
  });

  it("spells heading anchors as the repository host does", () => {
    expect(slug("`Group` — `pulumi-nodejs:dynamic/irm:Group`")).toBe(
      "group--pulumi-nodejsdynamicirmgroup",
    );
    expect(slug("Adoption: bringing an existing object under management")).toBe(
      "adoption-bringing-an-existing-object-under-management",
    );
    expect([...anchorsOf("## Notes\n\n## Notes\n")]).toEqual(["notes", "notes-1"]);
  });
});
