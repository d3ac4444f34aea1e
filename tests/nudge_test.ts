/**
 * The stop nudge's rules (pure), on turns read from a real Claude Code 2.1.197 transcript.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Library } from "../src/core/discover.ts";
import {
  nudgeGate,
  type NudgeGateFacts,
  nudgeModeOf,
  nudgeSkipFor,
  turnChanges,
} from "../src/filing/nudge.ts";
import { changedTagFolders, MAX_NUDGE_FOLDERS, nudgeReason } from "../src/filing/nudge_reason.ts";
import { tagFolderOf, tagLineFor } from "../src/format/tag_folder.ts";
import { type TurnActivity, turnOfText } from "../src/filing/transcript.ts";
import { REPO_ROOT } from "./helpers.ts";
import { touchesOfCommand } from "../src/shell/bash_touches.ts";

/** The files a command writes, by the shell reader the Stop hook loads for a turn that ran Bash. */
const bashWrites = (command: string, cwd: string) => {
  const found = touchesOfCommand(command, { cwd });
  return found.ok ? found.touches.filter((t) => t.role === "write").map((t) => t.path) : [];
};

const P = "/repo/project";
const LIB: Library = { root: `${P}/_memory_library`, projectRoot: P, foundBy: "cwd" };
const fixture = Deno.readTextFileSync(
  join(REPO_ROOT, "tests", "fixtures", "transcript_cc_2.1.197.jsonl"),
);
const lines = fixture.split("\n").filter((l) => l.trim() !== "");
const firstSession = lines.slice(0, lines.findIndex((l) => l.includes('"last-prompt"'))).join(
  "\n",
);

function turn(...uses: [string, Record<string, unknown>, boolean?][]): TurnActivity {
  return {
    complete: true,
    toolUses: uses.map(([name, input, failed]) => ({ name, input, failed: failed ?? false })),
  };
}

const open: NudgeGateFacts = {
  mode: "session",
  stopHookActive: false,
  taggedThisStop: false,
  nudgedBefore: () => false,
};

Deno.test("a real turn that Wrote and Edited code: its files, project-relative, sorted", () => {
  const changes = turnChanges(turnOfText(firstSession), LIB, P, "linux");
  assert.deepEqual(changes, { files: ["notes.md", "src/a.ts", "src/b/new.ts"], tagged: false });
  assert.equal(nudgeSkipFor(changes), undefined);
});

Deno.test("a real turn whose edits all failed, with a Bash command and a Read, changed nothing", () => {
  const changes = turnChanges(turnOfText(fixture), LIB, P, "linux");
  assert.deepEqual(changes, { files: [], tagged: false });
  assert.equal(nudgeSkipFor(changes), "no-code-changed");
});

Deno.test("with the shell reader, the same real turn's `echo hi > src/c.ts` changed src/c.ts", () => {
  const changes = turnChanges(turnOfText(fixture), LIB, P, "linux", bashWrites);
  assert.deepEqual(changes, { files: ["src/c.ts"], tagged: false });
  assert.equal(nudgeSkipFor(changes), undefined);
});

Deno.test("Bash writes count as changes (sed -i, >, >>, tee, cp into, a here-document), reads, temp files and failed commands do not; a write into the library tags", () => {
  const bash = (command: string, failed = false) =>
    ["Bash", { command }, failed] as [string, Record<string, unknown>, boolean];
  const changes = turnChanges(
    turn(
      bash("sed -i 's/a/b/' src/api/x.ts"),
      bash("cd src/ui && echo 1 >> modal.tsx"),
      bash("echo 1 | tee lib/t.ts"),
      bash("cp /tmp/a.ts src/b/a.ts"),
      bash("cat > docs/new.md <<'EOF'\nhi\nEOF"),
      bash("cat src/read.ts > /tmp/out.txt; grep -rn x src/"),
      bash("sed -i 's/a/b/' src/failed.ts", true),
    ),
    LIB,
    P,
    "linux",
    bashWrites,
  );
  assert.deepEqual(changes, {
    files: ["docs/new.md", "lib/t.ts", "src/api/x.ts", "src/b/a.ts", "src/ui/modal.tsx"],
    tagged: false,
  });
  const library = turnChanges(
    turn(bash("echo '- x' >> _memory_library/src/edge.md")),
    LIB,
    P,
    "linux",
    bashWrites,
  );
  assert.equal(library.tagged, true);
});

Deno.test("a turn with only Reads is never nudged", () => {
  const reads = turn(["Read", { file_path: `${P}/src/a.ts` }], ["Read", { file_path: "src/b.ts" }]);
  assert.equal(nudgeSkipFor(turnChanges(reads, LIB, P, "linux")), "no-code-changed");
});

Deno.test("a turn that wrote to scratch, to a library file, or named scratch in Bash tagged something", () => {
  const code = ["Edit", { file_path: `${P}/src/a.ts` }] as [string, Record<string, unknown>];
  for (
    const tagging of [
      ["Write", { file_path: `${P}/_memory_library/.scratch.md` }],
      ["Edit", { file_path: "_memory_library/src/edge.md" }],
      ["Bash", {
        command: "cat >> _memory_library/.scratch.md <<'EOF'\n## [TAG: src, type: edge]\nEOF",
      }],
    ] as [string, Record<string, unknown>][]
  ) {
    const changes = turnChanges(turn(code, tagging), LIB, P, "linux");
    assert.equal(changes.tagged, true, JSON.stringify(tagging));
    assert.equal(nudgeSkipFor(changes), "tagged");
  }
});

Deno.test("files outside the project, relative paths against cwd, MultiEdit and NotebookEdit", () => {
  const changes = turnChanges(
    turn(
      ["Write", { file_path: "/elsewhere/x.ts" }],
      ["MultiEdit", { file_path: "lib/m.ts" }],
      ["NotebookEdit", { notebook_path: `${P}/nb/a.ipynb` }],
      ["Write", { file_path: "" }],
      ["Write", { content: "no path" }],
    ),
    LIB,
    `${P}/pkg`,
    "linux",
  );
  assert.deepEqual(changes.files, ["nb/a.ipynb", "pkg/lib/m.ts"]);
});

Deno.test("the gate: off, stop_hook_active, tagged this Stop, once per session; turn mode asks nothing", () => {
  assert.equal(nudgeGate({ ...open, mode: "off" }), "off");
  assert.equal(nudgeGate({ ...open, stopHookActive: true }), "stop-hook-active");
  assert.equal(nudgeGate({ ...open, taggedThisStop: true }), "tagged");
  assert.equal(nudgeGate({ ...open, nudgedBefore: () => true }), "already-nudged");
  assert.equal(nudgeGate(open), undefined);
  let asked = false;
  const turnMode = { ...open, mode: "turn" as const, nudgedBefore: () => (asked = true) };
  assert.equal(nudgeGate(turnMode), undefined);
  assert.equal(asked, false, "turn mode looked at the session record");
  let askedWhenOff = false;
  nudgeGate({ ...open, stopHookActive: true, nudgedBefore: () => (askedWhenOff = true) });
  assert.equal(askedWhenOff, false, "a cheaper check did not decide first");
  assert.equal(nudgeSkipFor(undefined), "no-transcript");
});

Deno.test("LIBRARIAN_NUDGE: session (default), turn, off; unknown values mean the default", () => {
  assert.equal(nudgeModeOf(undefined), "session");
  assert.equal(nudgeModeOf(""), "session");
  assert.equal(nudgeModeOf("Turn"), "turn");
  assert.equal(nudgeModeOf(" off "), "off");
  assert.equal(nudgeModeOf("0"), "off");
  assert.equal(nudgeModeOf("sometimes"), "session");
});

Deno.test("the reason names the changed folders, gives ready tag lines and the real scratch path", () => {
  const reason = nudgeReason(
    ["src/api/billing/invoice.ts", "src/api/billing/tax.ts", "README.md"],
    LIB,
  );
  assert.match(
    reason,
    /changed code in src\/api\/billing, the project root but recorded no learning/,
  );
  assert.ok(reason.includes(`${P}/_memory_library/.scratch.md`));
  assert.ok(reason.includes("## [TAG: src/api/billing, type: edge]\n## [TAG: global, type: edge]"));
  assert.match(reason, /nothing worth recording/);
});

Deno.test("many folders: six tag lines and a count of the rest", () => {
  const files = Array.from({ length: 9 }, (_, i) => `pkg${i}/a.ts`);
  const reason = nudgeReason(files, LIB);
  assert.equal(
    reason.split("\n").filter((l) => l.startsWith("## [TAG:")).length,
    MAX_NUDGE_FOLDERS,
  );
  assert.match(reason, /and 3 more folders/);
});

Deno.test("tag folders: a folder filing would refuse becomes its nearest taggable ancestor", () => {
  assert.equal(tagFolderOf(".github/workflows"), "global");
  assert.equal(tagFolderOf("src/.cache/gen"), "src");
  assert.equal(tagFolderOf("global"), "./global", "a code folder named global, not the root");
  assert.match(
    nudgeReason(["global/x.ts", "y.ts"], LIB),
    /## \[TAG: \.\/global, type: edge\]\n## \[TAG: global, type: edge\]/,
  );
  assert.equal(tagLineFor("src/api", "patterns"), "## [TAG: src/api, type: patterns]");
  assert.deepEqual(changedTagFolders(["a/x.ts", "a/y.ts", "b/z.ts", "top.ts"]), [
    "a",
    "b",
    "global",
  ]);
});

Deno.test("reading scratch in Bash is not tagging; writing it is (issue 22)", () => {
  const code = ["Edit", { file_path: `${P}/src/a.ts` }] as [string, Record<string, unknown>];
  const S = "_memory_library/.scratch.md";
  const reads = [
    `cat ${S}`,
    `head -20 ${S} && wc -l ${S}`,
    `grep -n TAG ${S} | head`,
    `cp ${S} /tmp/notes.md`,
    `less "${P}/${S}"`,
    `cat <<'EOF'\n- written to ${S} later\nEOF`,
    `diff ${S} /tmp/old > /tmp/diff.txt`,
  ];
  for (const command of reads) {
    const changes = turnChanges(turn(code, ["Bash", { command }]), LIB, P, "linux");
    assert.equal(changes.tagged, false, command);
    assert.equal(nudgeSkipFor(changes), undefined, command);
  }
  const writes = [
    `echo '## [TAG: src, type: edge]' >> ${S}`,
    `printf '%s\\n' x >${S}`,
    `cat notes.md | tee -a "${P}/${S}"`,
    `sed -i 's/old/new/' ${S}`,
    `cp /tmp/notes.md ${S}`,
    `mv draft.md '${S}'`,
    `cat >> ${S} <<'EOF'\n## [TAG: src, type: edge]\n- a\nEOF`,
  ];
  for (const command of writes) {
    const changes = turnChanges(turn(code, ["Bash", { command }]), LIB, P, "linux");
    assert.equal(changes.tagged, true, command);
  }
});
