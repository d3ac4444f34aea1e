/**
 * The pure parts of the human commands: argument parsing, colour, the import mapping, lint's
 * text checks and rename hints, and reading Claude Code's plugin and settings files.
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { parseCommandArgs, UsageError } from "../src/cli/args.ts";
import { colorEnabled, makeStyle } from "../src/cli/output.ts";
import { type CommandSpec, helpText } from "../src/cli/help.ts";
import { parseRenames } from "../src/git/renames.ts";
import { installedPlugin, librarianHookEvents } from "../src/setup/hooks_wiring.ts";
import { kebabCase, mapSource, orderSources, planImport } from "../src/import/import_plan.ts";
import { appendLines, hasPatternLine } from "../src/commands/init.ts";
import {
  bulletsOf,
  conflictMarkerLines,
  duplicateBullets,
  likelyNewHome,
  outermostFolders,
} from "../src/commands/lint/lint_checks.ts";

const SPEC: CommandSpec = {
  name: "demo",
  synopsis: "<path> [--json]",
  summary: "a demo",
  options: {
    json: { type: "boolean", description: "JSON" },
    runs: { type: "string", valueName: "<n>", description: "runs" },
  },
  positionals: ["<path>"],
};

Deno.test("parseCommandArgs accepts options in any order and rejects what the spec lacks", () => {
  const parsed = parseCommandArgs(SPEC, ["--json", "a.ts"]);
  assert.deepEqual({ ...parsed.values }, { json: true });
  assert.deepEqual(parsed.positionals, ["a.ts"]);
  assert.equal(parseCommandArgs(SPEC, ["a.ts", "--runs", "3"]).values.runs, "3");
  assert.throws(() => parseCommandArgs(SPEC, []), UsageError);
  assert.throws(() => parseCommandArgs(SPEC, ["a", "b"]), /unexpected argument: b/);
  assert.throws(() => parseCommandArgs(SPEC, ["a", "--nope"]), UsageError);
  assert.throws(() => parseCommandArgs(SPEC, ["a", "--runs"]), UsageError);
  assert.equal(parseCommandArgs(SPEC, ["--help"]).values.help, true, "--help needs no path");
});

Deno.test("helpText lists every option with --help and the exit codes", () => {
  const text = helpText(SPEC);
  assert.match(text, /^Usage: librarian demo <path> \[--json\]$/m);
  assert.match(text, /^ {6}--runs <n> +runs$/m);
  assert.match(text, /^ {2}-h, --help +show this help$/m);
  assert.match(text, /Exit codes: 0 fine, 1 problems found, 2 usage error\./);
});

Deno.test("colour is used only on a terminal, never with NO_COLOR or TERM=dumb", () => {
  assert.equal(colorEnabled(envFrom({}), true), true);
  assert.equal(colorEnabled(envFrom({}), false), false);
  assert.equal(colorEnabled(envFrom({ NO_COLOR: "1" }), true), false);
  assert.equal(colorEnabled(envFrom({ NO_COLOR: "" }), true), true, "an empty NO_COLOR is unset");
  assert.equal(colorEnabled(envFrom({ TERM: "dumb" }), true), false);
  assert.equal(makeStyle(envFrom({ NO_COLOR: "1" }), true).red("x"), "x");
  assert.equal(makeStyle(envFrom({}), true).red("x"), "\x1b[31mx\x1b[39m");
});

Deno.test("kebabCase turns memory-bank names into plain file-name stems", () => {
  assert.equal(kebabCase("systemPatterns"), "system-patterns");
  assert.equal(kebabCase("API_Guide"), "api-guide");
  assert.equal(kebabCase("HTTPServer notes"), "http-server-notes");
  assert.equal(kebabCase("Café"), "cafe");
  assert.equal(kebabCase("日本"), "imported");
  assert.equal(kebabCase("con"), "imported-con", "a Windows device name is not a file name");
});

Deno.test("the import mapping: durable files to product/patterns/tech, transient flagged", () => {
  assert.deepEqual(mapSource("projectbrief.md"), { target: "product.md", transient: false });
  assert.deepEqual(mapSource("ProductContext.md"), { target: "product.md", transient: false });
  assert.deepEqual(mapSource("systemPatterns.md"), { target: "patterns.md", transient: false });
  assert.deepEqual(mapSource("techContext.md"), { target: "tech.md", transient: false });
  assert.deepEqual(mapSource("activeContext.md"), { target: "active-context.md", transient: true });
  assert.deepEqual(mapSource("progress.md"), { target: "progress.md", transient: true });
  assert.deepEqual(
    orderSources([{ name: "zeta.md" }, { name: "techContext.md" }, { name: "projectbrief.md" }])
      .map((s) => s.name),
    ["projectbrief.md", "techContext.md", "zeta.md"],
  );
});

Deno.test("planImport appends after a provenance line and is idempotent", () => {
  const sources = [{ name: "techContext.md", content: { kind: "text" as const, text: "- pg\n" } }];
  const options = { includeTransient: false, sourceDir: "memory-bank", date: "2026-11-30" };
  const first = planImport(sources, new Map([["tech.md", "# tech\n"]]), options);
  assert.equal(
    first.writes.get("tech.md"),
    "# tech\n\n<!-- imported by 'librarian import' from memory-bank/techContext.md on " +
      "2026-11-30 -->\n- pg\n",
  );
  const second = planImport(sources, new Map([["tech.md", first.writes.get("tech.md")!]]), options);
  assert.equal(second.writes.size, 0);
  assert.equal(second.entries[0]!.action, "already-imported");
});

Deno.test("init's pattern-line helpers keep existing text and find equivalent lines", () => {
  assert.equal(appendLines("a", ["b"]), "a\n\nb\n");
  assert.equal(appendLines("", ["b"]), "b\n");
  assert.equal(
    hasPatternLine("x\n  _memory_library/.scratch.md  \n", ["_memory_library/.scratch.md"]),
    true,
  );
  assert.equal(
    hasPatternLine("# _memory_library/.scratch.md\n", ["_memory_library/.scratch.md"]),
    false,
  );
});

Deno.test("conflictMarkerLines finds conflicts, not setext underlines", () => {
  assert.deepEqual(conflictMarkerLines("Title\n=======\n"), []);
  assert.deepEqual(conflictMarkerLines("<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n"), [1]);
  assert.deepEqual(conflictMarkerLines("a\n>>>>>>> stray\n"), [2]);
});

Deno.test("bulletsOf normalises bullets and skips short and fenced ones", () => {
  assert.deepEqual(bulletsOf("- Use   Zod for input\n* ok\n```\n- fenced bullet text\n```\n"), [
    { line: 1, key: "use zod for input" },
  ]);
});

Deno.test("duplicateBullets reports a bullet repeated in an ancestor, at the specific file", () => {
  const findings = duplicateBullets([
    { relPath: "tech.md", relDir: "", bullets: [{ line: 2, key: "always use the outbox" }] },
    { relPath: "src/a.md", relDir: "src", bullets: [{ line: 5, key: "always use the outbox" }] },
    { relPath: "docs/b.md", relDir: "docs", bullets: [{ line: 1, key: "something else here" }] },
  ]);
  assert.deepEqual(findings.map((f) => `${f.path}:${f.line}`), ["src/a.md:5"]);
  assert.match(findings[0]!.message, /tech\.md line 2/);
});

Deno.test("likelyNewHome follows renames of files under the folder, majority first", () => {
  const renames = parseRenames(
    "R100\0src/api/a.ts\0src/http/a.ts\0R095\0src/api/v1/b.ts\0src/http/v1/b.ts\0" +
      "M\0README.md\0R100\0src/api/c.ts\0lib/c.ts\0",
  );
  assert.equal(renames.length, 3);
  assert.equal(likelyNewHome("src/api", renames), "src/http");
  assert.equal(likelyNewHome("src/other", renames), null);
  assert.deepEqual(outermostFolders(["src/a", "src/a/b", "docs"]), ["src/a", "docs"]);
});

Deno.test("installedPlugin reads installed_plugins.json version 1 and 2", () => {
  assert.deepEqual(
    installedPlugin({ version: 2, plugins: { "librarian@m": [{ installPath: "/p" }], "x@m": [] } }),
    { ids: ["librarian@m"], installPaths: ["/p"] },
  );
  assert.deepEqual(
    installedPlugin({ version: 1, plugins: { "librarian@m": { installPath: "/q" } } }),
    { ids: ["librarian@m"], installPaths: ["/q"] },
  );
  assert.deepEqual(installedPlugin(null), { ids: [], installPaths: [] });
});

Deno.test("librarianHookEvents finds hook commands and exec-form args that run librarian", () => {
  assert.deepEqual(
    librarianHookEvents({
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: "sh /x/bin/librarian inject" }] }],
        Stop: [{
          hooks: [{ type: "command", command: "/x/bin/librarian-x86_64", args: ["stop"] }],
        }],
        PostToolUse: [{ hooks: [{ type: "command", command: "prettier --write" }] }],
      },
    }),
    ["PreToolUse", "Stop"],
  );
});
