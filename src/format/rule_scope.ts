/**
 * Where an agent's rule file applies (pure): its front matter's few keys read by hand, and its
 * globs matched against a project path. One reader for every agent's rules: Claude Code's
 * `.claude/rules/*.md` (`paths:`), Cursor's `.cursor/rules/**\/*.mdc` (`globs:`, `alwaysApply:`,
 * `description:`), Copilot's `*.instructions.md` (`applyTo:`) and Windsurf's `.windsurf/rules/*.md`
 * (`trigger:`, `globs:`). The inject hook reads rules on every file tool's event, so this is a few
 * lines, not the YAML reader of `front_matter.ts`; and it reads what the agents write that YAML
 * refuses (Cursor's unquoted `globs: *.ts`, an alias to YAML).
 *
 * A value can be one glob, globs separated by commas, a flow list (`[a, b]`) or a block list
 * (`- a`); a quoted value loses its quotes; a block scalar (`>-`, `|`) is its lines joined.
 *
 * @module
 */

/** Whose rule it is. */
export type RuleAgent = "claude" | "cursor" | "copilot" | "windsurf";

/** A rule's scope: globs it applies to, the whole repository, or only when asked for. */
export type RuleScope =
  | { kind: "globs"; globs: string[] }
  | { kind: "always" }
  | { kind: "on-demand"; description: string | null }
  | { kind: "manual" };

/** The first front-matter block: its text and where the body starts, or null. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** True when `value` is one quoted scalar, whole. */
const isQuoted = (value: string): boolean => /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')$/.test(value);

/** A YAML scalar as plain text: its quotes (and a trailing comment) removed. */
function unquote(value: string): string {
  const v = value.trim();
  if (/^"(?:[^"\\]|\\.)*"$/.test(v)) return v.slice(1, -1).replace(/\\(.)/g, "$1");
  if (/^'(?:[^']|'')*'$/.test(v)) return v.slice(1, -1).replaceAll("''", "'");
  return v.replace(/\s+#.*$/, "");
}

/** A value read as a list: a flow list, comma-separated globs, or one. */
function listOf(value: string): string[] {
  const v = value.trim();
  const items = v.startsWith("[") && v.endsWith("]") ? v.slice(1, -1).split(",") : [v];
  return items.flatMap((item) => unquote(item).split(",")).map((g) => g.trim())
    .filter((g) => g !== "");
}

/**
 * The top-level keys of a front-matter block (`yaml`, the text between its `---` lines), read by
 * hand: each value as text, or as a list of items when it is a block list.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { frontMatterKeys } from "./rule_scope.ts";
 * assert.deepEqual(frontMatterKeys("globs: *.ts\ndescription: >-\n  When deploying\n  to prod\npaths:\n  - 'db/**'\n"), {
 *   globs: "*.ts",
 *   description: "When deploying to prod",
 *   paths: ["db/**"],
 * });
 * assert.deepEqual(frontMatterKeys("description: 'Release steps: tag, push' # x\nalwaysApply: true # y"), {
 *   description: "Release steps: tag, push",
 *   alwaysApply: "true",
 * });
 * ```
 */
export function frontMatterKeys(yaml: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/.exec(lines[i]!);
    if (!match || Object.hasOwn(out, match[1]!)) continue;
    const raw = (match[2] ?? "").trim();
    const value = isQuoted(raw) ? raw : raw.replace(/(^|\s)#.*$/, "").trim();
    const quoted = isQuoted(value);
    const inline = quoted ? unquote(value) : value;
    const nested: string[] = [];
    while (i + 1 < lines.length && /^(?:[ \t]+\S|[ \t]*-(?:[ \t]|$)|[ \t]*$)/.test(lines[i + 1]!)) {
      nested.push(lines[++i]!);
    }
    if (!quoted && (inline === "" || /^[|>][-+1-9]*$/.test(inline))) {
      const items = nested.map((l) => /^[ \t]*-[ \t]+(.*)$/.exec(l)?.[1]);
      out[match[1]!] = inline === "" && items.some((item) => item !== undefined)
        ? items.filter((item): item is string => item !== undefined).map(unquote)
          .filter((item) => item !== "")
        : nested.map((l) => l.trim()).filter((l) => l !== "").join(
          inline.startsWith("|") ? "\n" : " ",
        );
    } else out[match[1]!] = inline;
  }
  return out;
}

/**
 * A rule file's front matter: its keys ({@link frontMatterKeys}), or null when it opens with none.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleFrontMatter } from "./rule_scope.ts";
 * assert.deepEqual(ruleFrontMatter("---\napplyTo: \"web/**\"\n---\n- x"), { applyTo: 'web/**' });
 * assert.equal(ruleFrontMatter("- no front matter"), null);
 * ```
 */
export function ruleFrontMatter(text: string): Record<string, string | string[]> | null {
  const match = FRONT_MATTER.exec(text.replace(/^\uFEFF/, ""));
  return match ? frontMatterKeys(match[1]!) : null;
}

/**
 * A key's value as globs (a list, or comma-separated text, a flow list, quoted or not).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { globsOf } from "./rule_scope.ts";
 * assert.deepEqual(globsOf("src/**, lib/*.ts"), ["src/**", "lib/*.ts"]);
 * assert.deepEqual(globsOf('["a/**", b/**]'), ["a/**", "b/**"]);
 * assert.deepEqual(globsOf(["db/**"]), ["db/**"]);
 * assert.deepEqual(globsOf(undefined), []);
 * ```
 */
export function globsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap(listOf);
}

/** A key's value as text: a list's items joined, a quoted value unquoted. */
function textOf(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value.join(", ") : unquote(value);
  return text === "" ? null : text;
}

/**
 * Where a rule applies, by its agent's own rules:
 * - Claude Code: `paths:` globs; without them, every session (`always`: the client loads it).
 * - Cursor: `alwaysApply: true` always; else `globs:`; else a `description` makes it
 *   agent-requested (`on-demand`); else `manual` (mentioned by name). No front matter: always.
 * - Copilot: `applyTo:` globs (`**` is every file: always); without it, `manual`; the repository's
 *   `copilot-instructions.md` is always (its caller's to say).
 * - Windsurf: `trigger: always_on` always, `glob` its `globs:`, `model_decision` on demand,
 *   `manual` manual; no trigger: by its globs, else always.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleScope } from "./rule_scope.ts";
 * assert.deepEqual(ruleScope("cursor", "---\nglobs: **\/trigger/**\nalwaysApply: false\n---\n"), { kind: "globs", globs: ["**\/trigger/**"] });
 * assert.deepEqual(ruleScope("cursor", "---\nalwaysApply: true\n---\n"), { kind: "always" });
 * assert.deepEqual(ruleScope("cursor", "---\ndescription: Releases\n---\n"), { kind: "on-demand", description: "Releases" });
 * assert.deepEqual(ruleScope("cursor", "---\nalwaysApply: false\n---\n"), { kind: "manual" });
 * assert.deepEqual(ruleScope("copilot", '---\napplyTo: "src/**,lib/**"\n---\n'), { kind: "globs", globs: ["src/**", "lib/**"] });
 * assert.deepEqual(ruleScope("windsurf", "---\ntrigger: model_decision\ndescription: deploy\n---\n"), { kind: "on-demand", description: "deploy" });
 * assert.deepEqual(ruleScope("windsurf", "---\ntrigger: manual\n---\n"), { kind: "manual" });
 * assert.deepEqual(ruleScope("claude", "---\npaths: [a/**, \"b/*.ts\"]\n---\n"), { kind: "globs", globs: ["a/**", "b/*.ts"] });
 * assert.deepEqual(ruleScope("claude", "- no front matter"), { kind: "always" });
 * ```
 */
export function ruleScope(agent: RuleAgent, text: string): RuleScope {
  const keys = ruleFrontMatter(text);
  if (keys === null) return agent === "copilot" ? { kind: "manual" } : { kind: "always" };
  const description = textOf(keys.description);
  const globs = (list: string[]): RuleScope =>
    list.some((g) => /^(?:\.\/)?\*\*(?:\/\*)?$/.test(g))
      ? { kind: "always" }
      : { kind: "globs", globs: list };
  switch (agent) {
    case "claude": {
      const paths = globsOf(keys.paths);
      return paths.length > 0 ? { kind: "globs", globs: paths } : { kind: "always" };
    }
    case "cursor": {
      if (textOf(keys.alwaysApply) === "true") return { kind: "always" };
      const list = globsOf(keys.globs);
      if (list.length > 0) return globs(list);
      return description !== null ? { kind: "on-demand", description } : { kind: "manual" };
    }
    case "copilot": {
      const list = globsOf(keys.applyTo);
      return list.length > 0 ? globs(list) : { kind: "manual" };
    }
    case "windsurf": {
      const trigger = textOf(keys.trigger);
      const list = globsOf(keys.globs);
      if (trigger === "always_on") return { kind: "always" };
      if (trigger === "model_decision") return { kind: "on-demand", description };
      if (trigger === "manual") return { kind: "manual" };
      if (list.length > 0) return globs(list);
      return trigger === "glob" ? { kind: "manual" } : { kind: "always" };
    }
  }
}

/** Splits `{a,b}` alternatives (not nested) into plain patterns. */
function expandBraces(glob: string): string[] {
  const match = /\{([^{}]*)\}/.exec(glob);
  if (!match) return [glob];
  const [head, tail] = [glob.slice(0, match.index), glob.slice(match.index + match[0].length)];
  return match[1]!.split(",").flatMap((alt) => expandBraces(`${head}${alt}${tail}`));
}

/** The regular expression for one project-relative glob (`**`, `*`, `?`, `[...]`). */
function globToRegex(glob: string): RegExp {
  let pattern = glob.trim().replace(/^\.\//, "").replace(/^\/+/, "");
  // a pattern without a slash matches a name at any depth (as in .gitignore)
  if (!pattern.replace(/\/$/, "").includes("/")) pattern = `**/${pattern}`;
  if (pattern.endsWith("/")) pattern += "**";
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        out += `[${pattern.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${out}$`, "u");
  } catch {
    return /$^/;
  }
}

/**
 * True when a rule's globs cover a touched project-relative path (a folder ends in `/`: covered
 * when the globs cover what is in it).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { globsCover } from "./rule_scope.ts";
 * assert.ok(globsCover(["internal-packages/database/**"], "internal-packages/database/schema.prisma"));
 * assert.ok(globsCover(["internal-packages/database/**"], "internal-packages/database/"));
 * assert.ok(!globsCover(["internal-packages/database/**"], "internal-packages/api/x.ts"));
 * assert.ok(globsCover(["src/**\/*.{ts,tsx}"], "src/ui/a.tsx"));
 * assert.ok(globsCover(["*.md"], "docs/a.md"));
 * assert.ok(!globsCover(["src/*.ts"], "src/ui/a.ts"));
 * assert.ok(globsCover(["**\/trigger/**"], "packages/jobs/src/trigger/x.ts"));
 * assert.ok(globsCover(["**\/trigger/**"], "apps/trigger/tasks/"));
 * assert.ok(!globsCover(["**\/trigger/**"], "src/triggers/x.ts"));
 * ```
 */
export function globsCover(globs: readonly string[], relPath: string): boolean {
  const folder = relPath.endsWith("/");
  const subject = folder ? `${relPath}\u0000` : relPath;
  return globs.some((glob) =>
    expandBraces(glob).some((one) => {
      const regex = globToRegex(one);
      return regex.test(subject) || (folder && regex.test(relPath.slice(0, -1)));
    })
  );
}
