/**
 * `doctor` reports real double loading (issue 33): library text that also reaches the model from
 * a memory file read where it lies (a `CLAUDE.md`, an `AGENTS.md`, a `.claude/rules` rule), with
 * its characters and the fix; never "nothing is loaded twice" while an imported `AGENTS.md` is.
 */
import assert from "node:assert/strict";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { generatedText } from "../src/export/export_formats.ts";

interface CheckJson {
  id: string;
  status: "ok" | "warn" | "fail";
  message: string;
  fix?: string;
}

async function loadedTwice(tree: Record<string, string>): Promise<CheckJson> {
  await using dir = await tempDir();
  await writeTree(dir.path, tree);
  const result = await runLibrarian(["doctor", "--json"], {
    cwd: dir.path,
    home: `${dir.path}/home`,
    env: { LIBRARIAN_LOG: `${dir.path}/home/librarian.log` },
  });
  const checks: CheckJson[] = JSON.parse(result.stdout).checks;
  const check = checks.find((c) => c.id === "loaded-twice");
  assert.ok(check, result.stdout);
  return check;
}

const AGENTS = "# Agents\n- money is integer cents, never floats\n- never log tokens or keys\n";

Deno.test("doctor names an AGENTS.md whose text is also in the library (an earlier import), with its characters and the fix", async () => {
  const check = await loadedTwice({
    "AGENTS.md": AGENTS,
    "_memory_library/agents.md":
      `<!-- imported by 'librarian import' from AGENTS.md -->\n${AGENTS}`,
  });
  assert.equal(check.status, "warn");
  assert.match(check.message, /^\d[\d,]* characters are sent twice: AGENTS\.md: 64 characters/);
  assert.match(check.fix ?? "", /delete the copied lines from the library|--hand-over/);
});

Deno.test("doctor names a .claude/rules rule whose text is also in the library", async () => {
  const check = await loadedTwice({
    ".claude/rules/db.md": "---\npaths:\n  - db/**\n---\n- migrations are forward only\n",
    "_memory_library/db/rules.md": "- migrations are forward only\n",
  });
  assert.equal(check.status, "warn");
  assert.match(check.message, /\.claude\/rules\/db\.md: 29 characters Claude Code loads by itself/);
});

Deno.test("doctor says nothing is doubled only when no CLAUDE.md, AGENTS.md or rule repeats the library", async () => {
  const check = await loadedTwice({
    "AGENTS.md": AGENTS,
    "_memory_library/tech.md": "- builds run on Deno 2 everywhere\n",
  });
  assert.equal(check.status, "ok");
  assert.match(
    check.message,
    /CLAUDE\.md, AGENTS\.md, \.claude\/rules file or another agent's rule/,
  );
});

Deno.test("doctor names another agent's rule read in place whose text an earlier import copied into the library, with its characters and the fix", async () => {
  const check = await loadedTwice({
    ".cursor/rules/db.mdc": "---\nglobs: db/**\n---\n- migrations are forward only\n",
    "_memory_library/db/db.md": "- migrations are forward only\n",
  });
  assert.equal(check.status, "warn");
  assert.match(
    check.message,
    /\.cursor\/rules\/db\.mdc: 29 characters the Librarian sends from where it lies/,
  );
  assert.match(check.fix ?? "", /delete the copied lines from the library/);
});

Deno.test("doctor leaves alone an agent-requested rule (never sent where it lies) and the Librarian's own export", async () => {
  const check = await loadedTwice({
    ".cursor/rules/release.mdc":
      "---\ndescription: releases\nalwaysApply: false\n---\n- tag every release by hand\n",
    "_memory_library/.on-demand/release.md": "- tag every release by hand\n",
    "_memory_library/tech.md": "- tag every release by hand\n",
  });
  assert.equal(check.status, "ok", check.message);
});

Deno.test("doctor does not take the section export keeps in copilot-instructions.md for a double", async () => {
  const section = generatedText("copilot", "_memory_library", "", "- tag every release by hand\n");
  const check = await loadedTwice({
    ".github/copilot-instructions.md": `# Team\n- answer in plain English\n\n${section}`,
    "_memory_library/tech.md": "- tag every release by hand\n",
  });
  assert.equal(check.status, "ok", check.message);
});

Deno.test("lint reports the same double for another agent's rule, with the fix", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ".windsurf/rules/api.md":
      "---\ntrigger: glob\nglobs: api/**\n---\n- handlers return problem+json\n",
    "_memory_library/api/rules.md": "- handlers return problem+json\n",
  });
  const result = await runLibrarian(["lint", "--json"], {
    cwd: dir.path,
    home: `${dir.path}/home`,
  });
  const findings: { check: string; message: string; fix: string }[] =
    JSON.parse(result.stdout).findings;
  const twice = findings.find((f) => f.check === "loaded-twice");
  assert.ok(twice, result.stdout);
  assert.match(twice.message, /\.windsurf\/rules\/api\.md: 30 characters the Librarian sends/);
  assert.match(twice.fix, /delete the copied lines from the library/);
});

/** `doctor`'s loaded-twice check in a project after `librarian export --format <formats>`. */
async function afterExport(
  tree: Record<string, string>,
  formats: string,
  change?: Record<string, string>,
): Promise<CheckJson> {
  await using dir = await tempDir();
  await writeTree(dir.path, tree);
  const opts = { cwd: dir.path, home: `${dir.path}/home` };
  const exported = await runLibrarian(["export", "--format", formats], opts);
  assert.equal(exported.code, 0, exported.stderr + exported.stdout);
  if (change) await writeTree(dir.path, change);
  const result = await runLibrarian(["doctor", "--json"], {
    ...opts,
    env: { LIBRARIAN_LOG: `${dir.path}/home/librarian.log` },
  });
  const checks: CheckJson[] = JSON.parse(result.stdout).checks;
  const check = checks.find((c) => c.id === "loaded-twice");
  assert.ok(check, result.stdout);
  return check;
}

const EXPORTED = {
  "_memory_library/tech.md": "- money is integer cents, never floats\n",
  "_memory_library/src/api/patterns.md": "- every handler validates its input with zod first\n",
  "src/api/a.ts": "export {};\n",
};

Deno.test("doctor does not warn about the Librarian's own exports while they are up to date: the inject hook leaves what they hold to the client that loads them", async () => {
  for (const format of ["agents-md", "claude-rules", "cursor,copilot"]) {
    const check = await afterExport(EXPORTED, format);
    assert.equal(check.status, "ok", `${format}: ${check.message}`);
  }
});

Deno.test("doctor names an export older than the library, with the re-export as the fix (never the hand-over a person's file gets)", async () => {
  const check = await afterExport(EXPORTED, "claude-rules", {
    "_memory_library/src/api/patterns.md":
      "- every handler validates its input with zod first\n- NEWER: and logs the request id\n",
  });
  assert.equal(check.status, "warn");
  assert.match(
    check.message,
    /\.claude\/rules\/librarian-src--api\.md: 50 characters of an export older than the library \(src\/api\/patterns\.md/,
  );
  assert.equal(
    check.fix,
    "run 'librarian export --format claude-rules' (it rewrites .claude/rules/librarian-src--api.md " +
      "from the library as it is now)",
  );
  assert.doesNotMatch(check.fix ?? "", /hand-over|delete the copied lines/);
});

Deno.test("lint says the same of an export: nothing while it is up to date, the re-export once the library changed", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, EXPORTED);
  const opts = { cwd: dir.path, home: `${dir.path}/home` };
  assert.equal((await runLibrarian(["export", "--format", "agents-md"], opts)).code, 0);
  const twice = async () => {
    const result = await runLibrarian(["lint", "--json"], opts);
    const findings: { check: string; message: string; fix: string }[] =
      JSON.parse(result.stdout).findings;
    return findings.filter((f) => f.check === "loaded-twice");
  };
  assert.deepEqual(await twice(), []);
  await writeTree(dir.path, {
    "_memory_library/src/api/patterns.md":
      "- every handler validates its input with zod first\n- NEWER: and logs the request id\n",
  });
  const found = await twice();
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /^src\/api\/AGENTS\.md: \d+ characters of an export older/);
  assert.match(found[0]!.fix, /^run 'librarian export --format agents-md'/);
});

Deno.test("doctor names a library folder exported both as agents-md and claude-rules in a project without a CLAUDE.md: Claude Code 2.1.3xx loads both after a Read; the fix keeps one", async () => {
  const check = await afterExport(EXPORTED, "agents-md,claude-rules");
  assert.equal(check.status, "warn", check.message);
  assert.match(
    check.message,
    /src\/api\/AGENTS\.md: 50 characters Claude Code 2\.1\.3xx loads twice after a Read in that folder: this export \(its built-in AGENTS\.md loader\) and \.claude\/rules\/librarian-src--api\.md/,
  );
  assert.match(
    check.fix ?? "",
    /^keep one of the two formats: 'librarian export --format agents-md --clean'/,
  );
  const withClaude = await afterExport(
    { ...EXPORTED, "CLAUDE.md": "# Ours\n" },
    "agents-md,claude-rules",
  );
  assert.equal(withClaude.status, "ok", "the built-in loader stands aside for a CLAUDE.md");
});
