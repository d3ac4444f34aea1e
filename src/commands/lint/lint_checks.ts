/**
 * The pure parts of `librarian lint`: what a finding is, and the text checks (conflict markers,
 * bullets repeated in a folder and its ancestor, where a moved folder likely went).
 *
 * @module
 */

import { withoutSecretLines } from "../../import/mod.ts";
import { mirrorLevels } from "../../core/mod.ts";
import type { Rename } from "../../git/mod.ts";
import {
  learningsOf,
  NOT_A_SECRET,
  NOT_SECRET_MARKER,
  shinglesOf,
  similarPairs,
} from "../../format/mod.ts";

/** The kinds of findings, in the order they are reported. */
export const FINDING_KINDS = [
  "outside-library",
  "not-owned",
  "stale-folder",
  "source-deleted",
  "source-renamed",
  "source-changed",
  "oversized",
  "duplicate-bullet",
  "near-duplicate",
  "loaded-twice",
  "conflict-marker",
  "secret",
  "not-utf8",
  "unreadable",
  "scratch-tag",
  "scratch-fence",
  "scratch-secret",
  "nested-scratch",
] as const;

/** One kind of finding. */
export type FindingKind = typeof FINDING_KINDS[number];

/** One problem in the library. */
export interface Finding {
  check: FindingKind;
  /** Library-relative path of the file or folder (`""` is the library root). */
  path: string;
  /** 1-based line, for findings inside a file. */
  line?: number;
  message: string;
  /** What to do about it. */
  fix: string;
  /** For a stale folder: the code folder it most likely moved to. */
  movedTo?: string;
  /** For a stale learning: the code file its provenance names. */
  source?: string;
  /** For a stale learning whose source was renamed: the file's path now. */
  renamedTo?: string;
  /** For a stale learning: the commit it was filed at (full hash when git knows it). */
  commit?: string;
  /** For a near-duplicate: the other learning of the pair. */
  other?: { path: string; line: number };
  /** For a near-duplicate: how alike the two are, 0 to 1 (token-shingle similarity). */
  similarity?: number;
}

/** A Markdown bullet of a library file. */
export interface Bullet {
  line: number;
  /** The bullet's text with spacing collapsed and case folded, for comparison. */
  key: string;
}

/** Bullets shorter than this (after collapsing spaces) are too generic to call duplicates. */
export const MIN_BULLET_KEY = 12;

/**
 * The bullets of a Markdown text, outside fenced code blocks, each with its normalised text
 * (`format/learnings.ts`: case, spacing, punctuation and list markers do not count); bullets
 * shorter than {@link MIN_BULLET_KEY} are left out (pure).
 *
 * @example Usage
 * ```ts
 * import { bulletsOf } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const text = `- Always retry on 429!\n- short\n${fence}\n- Not a bullet in code\n${fence}\n`;
 * assert.deepEqual(bulletsOf(text), [{ line: 1, key: "always retry on 429" }]);
 * ```
 */
export function bulletsOf(text: string): Bullet[] {
  return learningsOf(text)
    .filter((unit) => unit.bullet && unit.key.length >= MIN_BULLET_KEY)
    .map((unit) => ({ line: unit.line, key: unit.key }));
}

/**
 * 1-based lines that open a merge conflict, or close one that was never opened (pure).
 *
 * @example Usage
 * ```ts
 * import { conflictMarkerLines } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const text = ["a", "<<<<<<< ours", "x", "=======", "y", ">>>>>>> theirs", ">>>>>>> stray"].join("\n");
 * assert.deepEqual(conflictMarkerLines(text), [2, 7]);
 * ```
 */
export function conflictMarkerLines(text: string): number[] {
  const lines: number[] = [];
  let open = false;
  text.split("\n").forEach((line, i) => {
    if (/^<{7}(?: |$)/.test(line)) {
      lines.push(i + 1);
      open = true;
    } else if (/^>{7}(?: |$)/.test(line)) {
      if (!open) lines.push(i + 1);
      open = false;
    }
  });
  return lines;
}

/** A served library file with its bullets, for {@link duplicateBullets}. */
export interface BulletFile {
  /** Library-relative path. */
  relPath: string;
  /** Library-relative folder (`""` at the root). */
  relDir: string;
  bullets: Bullet[];
}

/**
 * Bullets that appear both in a folder's file and in a file of one of its ancestors: the model
 * is sent both, wasting budget (pure). One finding per bullet, at the more specific file.
 *
 * @example Usage
 * ```ts
 * import { duplicateBullets } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const bullet = { line: 3, key: "always retry on 429" };
 * const findings = duplicateBullets([
 *   { relPath: "tech.md", relDir: "", bullets: [bullet] },
 *   { relPath: "src/api/patterns.md", relDir: "src/api", bullets: [{ ...bullet, line: 7 }] },
 * ]);
 * assert.equal(findings.length, 1);
 * assert.equal(findings[0]?.path, "src/api/patterns.md");
 * assert.equal(findings[0]?.line, 7);
 * ```
 */
export function duplicateBullets(files: readonly BulletFile[]): Finding[] {
  const byLevel = new Map<string, { relPath: string; line: number; key: string }[]>();
  for (const file of files) {
    const list = byLevel.get(file.relDir) ?? [];
    for (const b of file.bullets) list.push({ relPath: file.relPath, line: b.line, key: b.key });
    byLevel.set(file.relDir, list);
  }
  const findings: Finding[] = [];
  for (const file of files) {
    if (file.relDir === "") continue;
    const ancestors = mirrorLevels(file.relDir).slice(1);
    for (const bullet of file.bullets) {
      const twin = ancestors.flatMap((level) => byLevel.get(level) ?? [])
        .find((b) => b.key === bullet.key);
      if (!twin) continue;
      findings.push({
        check: "duplicate-bullet",
        path: file.relPath,
        line: bullet.line,
        message: `the same bullet is in ${twin.relPath} line ${twin.line}, so it is sent twice`,
        fix: `keep it in one place: delete it here if it holds for all of ${
          twin.relPath.includes("/")
            ? twin.relPath.slice(0, twin.relPath.lastIndexOf("/"))
            : "the project"
        }, else delete it from ${twin.relPath}`,
      });
    }
  }
  return findings;
}

/** A served library file's text, for {@link nearDuplicates}. */
export interface LearningFile {
  /** Library-relative path. */
  relPath: string;
  /** Library-relative folder (`""` at the root). */
  relDir: string;
  text: string;
}

/** True when `folder` is `other` or one of its ancestors. */
function isAtOrAbove(folder: string, other: string): boolean {
  return folder === "" || folder === other || other.startsWith(`${folder}/`);
}

/**
 * Pairs of learnings that say nearly the same thing (token-shingle similarity of at least
 * `threshold`, `format/similarity.ts`) and are sent together: in one file, one folder, or a
 * folder and one above it (a folder learning that repeats the root's). One finding per pair, at
 * the more specific learning (or the later one in a file), naming the other. Exact repeats of a
 * bullet in an ancestor are `duplicate-bullet` findings, not these (pure).
 *
 * @example Usage
 * ```ts
 * import { nearDuplicates } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const findings = nearDuplicates([
 *   { relPath: "tech.md", relDir: "", text: "# tech\n\n- Money is integer cents; never floats.\n" },
 *   { relPath: "src/api/edge.md", relDir: "src/api", text: "- Money is stored as integer cents, never floats\n" },
 *   { relPath: "src/ui/edge.md", relDir: "src/ui", text: "- Money is stored as integer cents, never floats\n" },
 * ], 0.6);
 * assert.deepEqual(findings.map((f) => [f.path, f.line, f.other]), [
 *   ["src/api/edge.md", 1, { path: "tech.md", line: 3 }],
 *   ["src/ui/edge.md", 1, { path: "tech.md", line: 3 }],
 * ]);
 * ```
 */
export function nearDuplicates(files: readonly LearningFile[], threshold: number): Finding[] {
  if (threshold <= 0) return [];
  interface Unit {
    relPath: string;
    relDir: string;
    depth: number;
    line: number;
    key: string;
    bullet: boolean;
  }
  const units: Unit[] = [];
  for (const file of files) {
    const depth = file.relDir === "" ? 0 : file.relDir.split("/").length;
    for (const unit of learningsOf(file.text)) {
      if (unit.key === "" || unit.key.startsWith("code:")) continue;
      const { line, key, bullet } = unit;
      units.push({ relPath: file.relPath, relDir: file.relDir, depth, line, key, bullet });
    }
  }
  const pairs = similarPairs(
    units.map((u) => shinglesOf(u.key)),
    threshold,
    (a, b) =>
      isAtOrAbove(units[a]!.relDir, units[b]!.relDir) ||
      isAtOrAbove(units[b]!.relDir, units[a]!.relDir),
  );
  const findings: Finding[] = [];
  for (const pair of pairs) {
    let [general, specific] = [units[pair.a]!, units[pair.b]!];
    if (
      general.depth > specific.depth ||
      (general.relPath === specific.relPath && general.line > specific.line)
    ) [general, specific] = [specific, general];
    const exact = general.key === specific.key;
    // an exact repeat of a bullet in an ancestor is a duplicate-bullet finding already
    const bullets = general.bullet && specific.bullet;
    if (
      exact && bullets && general.relDir !== specific.relDir && general.key.length >= MIN_BULLET_KEY
    ) {
      continue;
    }
    const percent = Math.round(pair.score * 100);
    const where = general.relPath === specific.relPath
      ? `line ${general.line} of this file`
      : `${general.relPath} line ${general.line}`;
    findings.push({
      check: "near-duplicate",
      path: specific.relPath,
      line: specific.line,
      message: exact
        ? `says the same as ${where}, so the model reads it twice`
        : `says nearly the same as ${where} (${percent}% alike), so the model reads it twice`,
      fix: "keep one: merge the two into one sharper learning where it holds for both " +
        "('/librarian-curate' helps), or make the difference explicit",
      other: { path: general.relPath, line: general.line },
      similarity: Math.round(pair.score * 100) / 100,
    });
  }
  return findings;
}

/**
 * The code folder that `relDir` most likely moved to, judging by renamed files that lived under
 * it (pure). The destination most files went to wins; on a tie, the most recent rename's.
 *
 * @example Usage
 * ```ts
 * import { likelyNewHome } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const renames = [
 *   { from: "src/old/a.ts", to: "lib/new/a.ts" },
 *   { from: "src/old/b.ts", to: "lib/new/b.ts" },
 *   { from: "src/old/c.ts", to: "elsewhere/c.ts" },
 * ];
 * assert.equal(likelyNewHome("src/old", renames), "lib/new");
 * assert.equal(likelyNewHome("src/none", renames), null);
 * ```
 */
export function likelyNewHome(relDir: string, renames: readonly Rename[]): string | null {
  const votes = new Map<string, number>();
  const prefix = `${relDir}/`;
  for (const { from, to } of renames) {
    if (!from.startsWith(prefix)) continue;
    const suffix = from.slice(prefix.length);
    let home: string | null = null;
    if (to.endsWith(`/${suffix}`)) home = to.slice(0, to.length - suffix.length - 1);
    else if (!suffix.includes("/")) home = to.includes("/") ? to.slice(0, to.lastIndexOf("/")) : "";
    if (home === null || home === "" || home === relDir) continue;
    votes.set(home, (votes.get(home) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestVotes = 0;
  for (const [home, count] of votes) {
    if (count > bestVotes) {
      best = home;
      bestVotes = count;
    }
  }
  return best;
}

/**
 * The folders of `stale` that are not inside another stale folder (pure).
 *
 * @example Usage
 * ```ts
 * import { outermostFolders } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(outermostFolders(["a", "a/b", "c/d", "c"]), ["a", "c"]);
 * ```
 */
export function outermostFolders(stale: readonly string[]): string[] {
  return stale.filter((dir) =>
    !stale.some((other) => other !== dir && dir.startsWith(`${other}/`))
  );
}

/**
 * Likely credentials already in a library file (filed before the checks covered their shape,
 * written by hand, or merged in), one finding per kind, never the value (pure). A file with a
 * `<!-- librarian: not-a-secret -->` line is taken at its word.
 *
 * @example Usage
 * ```ts
 * import { libraryFileSecrets } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const [finding] = libraryFileSecrets("# tech\n- DB_PASSWORD=Xk9;mQ2#vL8@pR4\n", "tech.md");
 * assert.equal(finding?.line, 2);
 * assert.match(finding?.message ?? "", /likely password/);
 * ```
 */
export function libraryFileSecrets(text: string, relPath: string): Finding[] {
  if (NOT_SECRET_MARKER.test(text)) return [];
  // the same reading as import's: fenced code and templates count only for a provider's key
  return withoutSecretLines(text, 1).held.map((secret) => ({
    check: "secret",
    path: relPath,
    line: secret.line,
    message: `holds a likely ${secret.kind}, which is sent to the model and committed with ` +
      "the library",
    fix: "remove it and rotate it (git history keeps it once committed); if it is not a secret, " +
      `add the line ${NOT_A_SECRET} to the file`,
  }));
}

/**
 * Findings in report order: by kind, then path, then line (pure).
 *
 * @example Usage
 * ```ts
 * import { sortFindings } from "./lint_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const f = (check: "stale-folder" | "duplicate-bullet", path: string, line?: number) =>
 *   line === undefined ? { check, path, message: "", fix: "" } : { check, path, line, message: "", fix: "" };
 * const sorted = sortFindings([f("duplicate-bullet", "b.md", 9), f("duplicate-bullet", "b.md", 2), f("stale-folder", "z")]);
 * assert.deepEqual(sorted.map((x) => `${x.path}:${x.line ?? ""}`), ["z:", "b.md:2", "b.md:9"]);
 * ```
 */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const rank = (f: Finding) => FINDING_KINDS.indexOf(f.check);
  return [...findings].sort((a, b) =>
    rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
    (a.line ?? 0) - (b.line ?? 0)
  );
}
