/**
 * Every command the README, the docs, the skills and the program's own hints tell people to run
 * exists, and so does every option named right after it: a renamed command cannot leave a dead
 * instruction behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { COMMANDS } from "../src/command_table.ts";
import { REPO_ROOT, runLibrarian } from "./helpers.ts";
import { wineSample } from "./platform.ts";

function filesUnder(dir: string, ext: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...filesUnder(path, ext));
    else if (entry.name.endsWith(ext)) found.push(path);
  }
  return found;
}

/** `librarian <command> [--option ...]` as written in quotes, backticks or after `bin/librarian"`. */
const NAMED =
  /(?:[`'"]|\$ |^|\n)(?:sh )?librarian ([a-z][a-z-]*)((?: --[a-z][a-z-]*)*)|bin\/librarian" ([a-z][a-z-]*)((?: --[a-z][a-z-]*)*)/g;

/** The pages people read: the README, the docs and the skills. */
function pages(): string[] {
  return [
    join(REPO_ROOT, "README.md"),
    ...filesUnder(join(REPO_ROOT, "docs"), ".md"),
    ...filesUnder(join(REPO_ROOT, "skills"), ".md"),
  ];
}

function namedCommands(sources = [...pages(), ...filesUnder(join(REPO_ROOT, "src"), ".ts")]) {
  const named = new Map<string, Set<string>>();
  for (const file of sources) {
    for (const match of Deno.readTextFileSync(file).matchAll(NAMED)) {
      const command = match[1] ?? match[3]!;
      const options = (match[2] ?? match[4] ?? "").trim().split(/\s+/).filter(Boolean);
      const set = named.get(command) ?? new Set<string>();
      for (const option of options) set.add(option);
      named.set(command, set);
    }
  }
  return named;
}

/** The launcher's own commands (bin/librarian answers them itself, before any program runs). */
const LAUNCHER_COMMANDS = ["fetch-binary", "install-binary"];

Deno.test("every command named in the README, docs, skills and hints exists", () => {
  const named = namedCommands();
  assert.ok(named.size >= 10, `found only ${[...named.keys()]}`);
  const missing = [...named.keys()].filter((name) =>
    !(name in COMMANDS) && !LAUNCHER_COMMANDS.includes(name)
  );
  assert.deepEqual(missing, []);
  const launcher = Deno.readTextFileSync(join(REPO_ROOT, "bin", "librarian"));
  assert.match(launcher, /^ {2}1:fetch-binary \| 2:install-binary\) own=\$1 ;;$/m);
});

Deno.test("the README, docs and skills name the new forms, never an old name kept for one release", () => {
  const old = [...namedCommands(pages()).keys()].filter((name) =>
    COMMANDS[name]?.replacedBy !== undefined
  );
  assert.deepEqual(old, []);
});

Deno.test("every option named right after a command is one that command takes", async () => {
  const named = namedCommands();
  const problems: string[] = [];
  for (const [command, options] of wineSample([...named])) {
    if (options.size === 0 || !(command in COMMANDS)) continue;
    const help = await runLibrarian([command, "--help"]);
    assert.equal(help.code, 0, `${command} --help: ${help.stderr}`);
    for (const option of options) {
      if (!help.stdout.includes(option)) problems.push(`librarian ${command} ${option}`);
    }
  }
  assert.deepEqual(problems, []);
});
