/**
 * `librarian import` run by a person at a terminal: the plan is printed, one question is asked,
 * "n" writes nothing and "y" applies the plan. The run gets a real pseudo-terminal from
 * util-linux `script`, with the answer typed on its stdin.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir, LAUNCHER, runLibrarian, tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

/** Why no pseudo-terminal can be had here (no util-linux `script`), or null. */
const NO_PTY: string | null = (() => {
  if (Deno.build.os === "windows") return "Windows has no util-linux script";
  try {
    const out = new Deno.Command("script", { args: ["--version"], stdout: "piped", stderr: "null" })
      .outputSync();
    return new TextDecoder().decode(out.stdout).includes("util-linux")
      ? null
      : "'script' is not util-linux's (it takes other arguments)";
  } catch {
    return "no 'script' command on PATH";
  }
})();
if (NO_PTY !== null && Deno.build.os !== "windows") {
  console.warn(`import_interactive_test: skipped: ${NO_PTY}`);
}

/** Runs `librarian import` in a pseudo-terminal in `cwd`, typing `answer` and Enter. */
async function importAtTerminal(cwd: string, home: string, answer: string) {
  const child = new Deno.Command("script", {
    args: ["-qec", `sh '${LAUNCHER}' import --hand-over`, "/dev/null"],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      DENO_DIR: await denoDir(),
      LIBRARIAN_LOG: "off",
      NO_COLOR: "1",
      TERM: "dumb",
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`${answer}\n`));
  await writer.close();
  const out = await child.output();
  // terminal control sequences (bracketed paste, cursor moves) are not the program's words
  // deno-lint-ignore no-control-regex
  const controls = /\x1b\[[0-9;?]*[A-Za-z]/g;
  const text = new TextDecoder().decode(out.stdout).replace(controls, "")
    .replaceAll("\r", "");
  return { code: out.code, stdout: text, stderr: new TextDecoder().decode(out.stderr) };
}

const CLAUDE = "# Repo\n- use pnpm workspaces\n- run the tests before pushing\n";

Deno.test(
  "an interactive import prints the plan and asks once: 'n' writes nothing, 'y' applies it",
  { ignore: NO_PTY !== null || skipOnWindows("needs a pseudo-terminal (util-linux script)") },
  async () => {
    await using dir = await tempDir();
    const root = dir.path;
    const home = join(root, ".home");
    await writeTree(root, { "CLAUDE.md": CLAUDE });
    await new Deno.Command("git", { args: ["init", "-q", root] }).output();
    assert.equal((await runLibrarian(["init"], { cwd: root, home })).code, 0);
    const library = join(root, "_memory_library");
    const libraryFiles = () =>
      [...Deno.readDirSync(library)].filter((e) => !e.name.startsWith(".")).map((e) => e.name);

    const no = await importAtTerminal(root, home, "n");
    assert.equal(no.code, 0, no.stderr + no.stdout);
    assert.match(no.stdout, /^Would import 1 memory file from /m, "the plan is printed");
    assert.match(no.stdout, /^Handed over \(to become a short stub/m);
    assert.equal(no.stdout.match(/Apply this plan\? \[y\/N\]/g)?.length, 1, "one question");
    assert.ok(
      no.stdout.indexOf("Would import") < no.stdout.indexOf("Apply this plan?"),
      "the plan comes before the question",
    );
    assert.match(no.stdout, /Nothing written\.$/m);
    assert.equal(Deno.readTextFileSync(join(root, "CLAUDE.md")), CLAUDE);
    assert.deepEqual(libraryFiles(), []);

    const yes = await importAtTerminal(root, home, "y");
    assert.equal(yes.code, 0, yes.stderr + yes.stdout);
    assert.equal(yes.stdout.match(/Apply this plan\? \[y\/N\]/g)?.length, 1, "one question");
    assert.match(yes.stdout, /Imported 1 memory file from /);
    assert.doesNotMatch(yes.stdout, /Nothing written/);
    assert.deepEqual(libraryFiles(), ["claude.md"]);
    assert.match(Deno.readTextFileSync(join(library, "claude.md")), /use pnpm workspaces/);
    assert.match(Deno.readTextFileSync(join(root, "CLAUDE.md")), /handed over/);
  },
);
