/**
 * Every write the program can make, enumerated from the source: each call that creates, changes,
 * moves or removes a file (`Deno.writeTextFile`, `writeFile`, `rename`, `remove`, `mkdir`,
 * `symlink`, `link`, `copyFile`, `truncate`, `chmod`, `open` with write flags, their sync forms,
 * the atomic-write helpers, and git commands that change the work tree such as `git mv`) either
 * goes through the file boundary (`src/core/boundary.ts`) or is on the reviewed list below: the
 * state folder's own writers (ledgers, logs, locks, the journal, records) and the few library
 * writers that check their places themselves. A new write site anywhere else fails this test; so
 * does a listed one that is gone (the list must say what is there).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { REPO_ROOT } from "./helpers.ts";

/** The boundary itself: the only module that may write anything, anywhere it allows. */
const BOUNDARY = new Set(["src/core/boundary.ts", "src/core/atomic.ts"]);

/**
 * The reviewed write sites outside the boundary: `file: call` → how many, and why it may write
 * without it. A change here is a change of what the program may touch: review it as one.
 */
const REVIEWED: Readonly<Record<string, { count: number; why: string }>> = {
  "src/core/log.ts: Deno.renameSync": { count: 1, why: "state: the log's rotation" },
  "src/core/log.ts: Deno.mkdirSync": { count: 1, why: "state: the log's folder" },
  "src/core/log.ts: Deno.writeTextFileSync": { count: 1, why: "state: a log line" },
  "src/core/lock.ts: Deno.openSync(options)": { count: 2, why: "state: a lock file" },
  "src/core/lock.ts: Deno.mkdirSync": { count: 1, why: "state: the locks folder" },
  "src/core/prune.ts: Deno.remove": {
    count: 1,
    why: "state: session ledgers and walk memos not written for their time",
  },
  "src/inject/ledger.ts: writeTextAtomicSync": { count: 1, why: "state: a session ledger" },
  "src/inject/quiet_repeat.ts: writeTextAtomicSync": {
    count: 1,
    why: "state: what a touch that sent nothing read, beside its window's ledger",
  },
  "src/inject/quiet_repeat.ts: Deno.writeTextFileSync": {
    count: 1,
    why: "state: an empty record, an event's first touch in a window",
  },
  "src/inject/quiet_repeat.ts: Deno.mkdirSync": {
    count: 1,
    why: "state: the folder of a window's records",
  },
  "src/inject/walk_memo.ts: writeTextAtomicSync": {
    count: 1,
    why: "state: big library folders, big files' hashes and small files' texts kept between runs",
  },
  "src/inject/window.ts: Deno.openSync(write)": {
    count: 1,
    why: "state: an empty marker, the user was told the state disk is full",
  },
  "src/automemory/record_store.ts: setAsideSync": { count: 1, why: "state: a damaged record" },
  "src/automemory/record_store.ts: writeTextAtomicSync": { count: 1, why: "state: sync records" },
  "src/filing/journal.ts: Deno.renameSync": { count: 1, why: "state: a damaged journal aside" },
  "src/filing/journal.ts: writeTextAtomicSync": { count: 1, why: "state: the crash journal" },
  "src/git/stale_refresh.ts: writeTextAtomicSync": { count: 1, why: "state: the stale record" },
  "src/git/stale_extend.ts: writeTextAtomicSync": { count: 1, why: "state: the stale record" },
  "src/inject/start.ts: writeTextAtomicSync": {
    count: 1,
    why: "state: the stale record, made at session start",
  },
  "src/filing/subagent_note.ts: Deno.mkdirSync": {
    count: 1,
    why: "state: a session's folder of subagent changes",
  },
  "src/filing/subagent_note.ts: writeTextAtomicSync": {
    count: 1,
    why: "state: the files a subagent changed, for the session's next Stop",
  },
  "src/filing/subagent_changes.ts: Deno.renameSync": {
    count: 1,
    why: "state: a subagent's record claimed by one Stop (rename, so two cannot take it)",
  },
  "src/filing/subagent_changes.ts: Deno.removeSync": {
    count: 1,
    why: "state: a claimed subagent record, once read",
  },
  "src/filing/session_records.ts: Deno.mkdirSync": { count: 3, why: "state: session records" },
  "src/filing/session_records.ts: Deno.writeTextFileSync": {
    count: 2,
    why: "state: a session record",
  },
  "src/filing/session_records.ts: Deno.removeSync": { count: 2, why: "state: an expired record" },
  "src/filing/route.ts: writeTextAtomicSync": {
    count: 1,
    why: "library targets, each resolved inside the library first (filing/targets.ts)",
  },
  "src/filing/scratch_rewrite.ts: writeTempSibling": {
    count: 1,
    why: "the library's scratch: its temp file, removed whatever fails",
  },
  "src/filing/scratch_rewrite.ts: removeIfPresent": { count: 4, why: "scratch's own temp files" },
  "src/filing/carry_over.ts: Deno.writeFileSync": {
    count: 1,
    why: "the library's scratch: appends carried over from a kept copy",
  },
  "src/filing/carry_over.ts: Deno.renameSync": { count: 1, why: "a kept scratch copy" },
  "src/filing/carry_over.ts: Deno.linkSync": { count: 1, why: "a kept scratch copy" },
  "src/filing/carry_over.ts: removeIfPresent": { count: 2, why: "a kept scratch copy" },
  "src/filing/crash_sweep.ts: removeIfPresent": {
    count: 1,
    why: "temp files of a killed run beside the journal's targets",
  },
  "src/automemory/scratch_append.ts: Deno.writeTextFileSync": {
    count: 1,
    why: "the library's scratch: auto-memory entries appended",
  },
  "src/export/after_filing.ts: Deno.mkdirSync": { count: 1, why: "state: the export mark" },
  "src/export/after_filing.ts: Deno.writeTextFileSync": { count: 1, why: "state: export mark" },
  "src/export/after_filing.ts: removeIfPresent": {
    count: 2,
    why: "state: the export mark, cleared once the re-export wrote everything or none is set",
  },
  // Adopting the boundary in this branch: each goes as its command moves to it.
  "src/setup/setup_gemini.ts: writeTextAtomic": {
    count: 1,
    why: "the Gemini extension folder the user names with --dir (outside any project)",
  },
  "src/core/turn_record.ts: Deno.writeTextFileSync": { count: 2, why: "state: a turn record" },
  "src/core/turn_record.ts: Deno.mkdirSync": { count: 1, why: "state: the turns folder" },
  "src/core/turn_record.ts: Deno.removeSync": { count: 1, why: "state: a turn record, ended" },
  "src/commands/lint/fix.ts: git mv": {
    count: 1,
    why: "a library folder move, checked by the boundary first (checkMove)",
  },
};

const DENO_WRITES =
  /\bDeno\.(writeTextFile|writeFile|rename|remove|mkdir|symlink|link|copyFile|truncate|chmod|chown|utime|makeTempDir|makeTempFile|create)(Sync)?\s*\(/g;
const DENO_OPEN = /\bDeno\.open(Sync)?\s*\(([^)]*)\)/g;
const HELPERS =
  /(?<![.\w])(writeTextAtomic|writeTextAtomicSync|setAsideSync|removeIfPresent|writeTempSibling)\s*\(/g;
/** Git subcommands that change the work tree or the index. */
const GIT_WRITES =
  /\brunGit\s*\([^[]*\[\s*"(mv|rm|add|commit|checkout|restore|reset|clean|stash|apply|update-index|switch|merge|rebase|cherry-pick|revert|am|pull)"/g;

/**
 * The source with comments and string contents blanked (so a JSDoc `@example` or a message that
 * names `Deno.removeSync` is not a write site), keeping the code and the strings' quotes.
 */
function codeOnly(source: string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      const body = source.slice(i + 1, j);
      // git subcommands are kept: they are what GIT_WRITES reads.
      out += c + (/^[a-z-]+$/.test(body) ? body : body.replace(/[^\n]/g, " ")) + c;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The write sites of one file's source: `call` → count. */
function writeSites(source: string): Map<string, number> {
  const code = codeOnly(source);
  const sites = new Map<string, number>();
  const add = (key: string) => sites.set(key, (sites.get(key) ?? 0) + 1);
  for (const m of code.matchAll(DENO_WRITES)) add(`Deno.${m[1]}${m[2] ?? ""}`);
  for (const m of code.matchAll(DENO_OPEN)) {
    if (/\b(write|append|create|truncate|createNew)\s*:\s*true/.test(m[2]!)) {
      add(`Deno.open${m[1] ?? ""}(write)`);
    } else if (!/\bread\s*:\s*true/.test(m[2]!)) add(`Deno.open${m[1] ?? ""}(options)`);
  }
  for (const m of code.matchAll(HELPERS)) {
    if (!/function\s*$/.test(code.slice(Math.max(0, m.index! - 20), m.index!))) add(m[1]!);
  }
  for (const m of code.matchAll(GIT_WRITES)) add(`git ${m[1]}`);
  return sites;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

Deno.test("every write site outside the boundary is on the reviewed list, and the list holds nothing that is gone", async () => {
  const found = new Map<string, number>();
  for (const path of await sourceFiles(join(REPO_ROOT, "src"))) {
    const file = relative(REPO_ROOT, path).replaceAll("\\", "/");
    if (BOUNDARY.has(file)) continue;
    for (const [call, count] of writeSites(await Deno.readTextFile(path))) {
      found.set(`${file}: ${call}`, count);
    }
  }
  const unreviewed = [...found].filter(([key, count]) => REVIEWED[key]?.count !== count)
    .map(([key, count]) => `${key} ×${count}`);
  const gone = Object.keys(REVIEWED).filter((key) => !found.has(key));
  assert.deepEqual(
    { unreviewed, gone },
    { unreviewed: [], gone: [] },
    "a write outside src/core/boundary.ts: go through the Boundary (reads and writes inside the " +
      "repository, library or project), or, for the state folder, add it to REVIEWED with why",
  );
});

Deno.test("the enumeration sees every form of write, and nothing in comments or strings", () => {
  const source = [
    `/** Deno.removeSync(x) in a doc, and an @example: writeTextAtomicSync(p, "t") */`,
    `// Deno.writeTextFileSync(a, b)`,
    `const message = "never Deno.renameSync(a, b) in a string";`,
    `Deno.writeTextFileSync(path, text, { append: true });`,
    `await Deno.mkdir(dir, { recursive: true });`,
    `using f = Deno.openSync(path, { read: true });`,
    `const g = Deno.openSync(path, { write: true, create: true });`,
    `writeTextAtomicSync(target, text);`,
    `export function removeIfPresent(path: string): void {}`,
    `await runGit(root, ["mv", "--", a, b]);`,
    `await runGit(root, ["ls-files", "--", a]);`,
    `Deno.symlinkSync(target, link);`,
  ].join("\n");
  assert.deepEqual(Object.fromEntries(writeSites(source)), {
    "Deno.writeTextFileSync": 1,
    "Deno.mkdir": 1,
    "Deno.openSync(write)": 1,
    writeTextAtomicSync: 1,
    "git mv": 1,
    "Deno.symlinkSync": 1,
  });
});
