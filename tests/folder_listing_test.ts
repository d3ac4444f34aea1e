import assert from "node:assert/strict";
import { type FolderListings, folderListings } from "../src/core/folder_listing.ts";
import { lookUpLibraryAbove } from "../src/core/discover.ts";
import { packageFolderOf } from "../src/core/package_root.ts";
import {
  builtinLoadedAgents,
  clientLoadedSources,
  commandNativeSources,
  nativeSources,
} from "../src/inject/native_sources.ts";
import { exportedClaudeRules, readRuleFiles } from "../src/inject/rule_files.ts";
import { generatedRootAgents } from "../src/inject/loaded_exports.ts";
import { rootAgentsFile } from "../src/inject/root_agents.ts";
import { projectTouchesOf } from "../src/inject/bash_paths.ts";
import { envFrom } from "../src/core/env.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { AS_ROOT, IS_WINDOWS, skipOnWindows } from "./platform.ts";

/** A lister that cannot list any folder (searchable but not readable): every name is probed. */
const unlistable = () =>
  folderListings(() => {
    throw new Deno.errors.PermissionDenied("not readable");
  });

/** The listings each question is asked with: none (the probes alone), real ones, unlistable. */
const LISTINGS: readonly [string, () => FolderListings | undefined][] = [
  ["probes only", () => undefined],
  ["listings", () => folderListings()],
  ["unlistable folders", unlistable],
];

/** True where the file system finds `name` under another case (macOS, Windows). */
function caseInsensitive(dir: string): boolean {
  Deno.writeTextFileSync(`${dir}/case-probe`, "");
  try {
    Deno.statSync(`${dir}/CASE-PROBE`);
    return true;
  } catch {
    return false;
  } finally {
    Deno.removeSync(`${dir}/case-probe`);
  }
}

Deno.test("folderListings() says a name may be there when the listing shows it, in any ASCII case", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "claude.MD": "- c", ".github/x.md": "- g", "sub/AGENTS.md": "- a" });
  const listings = folderListings();
  assert.ok(listings.mayHold(dir.path, "CLAUDE.md"), "a case variant is probed");
  assert.ok(listings.mayHold(dir.path, ".github/copilot-instructions.md"), "below a listed folder");
  assert.ok(listings.mayHold(dir.path, "sub"));
  assert.ok(!listings.mayHold(dir.path, "AGENTS.md"));
  assert.ok(!listings.mayHold(dir.path, ".cursor/rules"));
  assert.ok(listings.mayHold(`${dir.path}/missing`, "AGENTS.md"), "a folder that cannot be listed");
  assert.ok(unlistable().mayHold(dir.path, "AGENTS.md"));
});

Deno.test("folderListings() probes every name in a folder with a name outside ASCII", async () => {
  await using dir = await tempDir();
  // U+017F folds to "s" on a case-insensitive file system; NFD forms differ from NFC ones
  await writeTree(dir.path, { "AGENT\u017F.md": "- a", "cafe\u0301": "- c" });
  const listings = folderListings();
  assert.ok(listings.mayHold(dir.path, "AGENTS.md"));
  assert.ok(listings.mayHold(dir.path, "CLAUDE.md"));
});

Deno.test("folderListings() lists each folder once, whoever asks", async () => {
  await using dir = await tempDir();
  const listed: string[] = [];
  const listings = folderListings((folder) => {
    listed.push(folder);
    return [...Deno.readDirSync(folder)].map((entry) => entry.name);
  });
  await writeTree(dir.path, { "_memory_library/a.md": "- a", "src/api/x.ts": "" });
  const found = lookUpLibraryAbove(`${dir.path}/src/api`, "file", undefined, listings);
  assert.equal(found && "root" in found ? found.projectRoot : null, dir.path);
  clientLoadedSources(dir.path, "src/api/x.ts", [], listings);
  nativeSources(dir.path, ["src/api/x.ts"], "file-tool", [], listings);
  builtinLoadedAgents(dir.path, "src/api/x.ts", listings);
  readRuleFiles(dir.path, listings);
  rootAgentsFile(dir.path, listings);
  assert.deepEqual(listed, [`${dir.path}/src/api`, `${dir.path}/src`, dir.path]);
});

Deno.test("lookUpLibraryAbove() finds with listings what its probes find: present, absent, links, case, owner", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await writeTree(dir.path, {
    "plain/_memory_library/a.md": "- a",
    "plain/src/deep/x.ts": "",
    "none/src/x.ts": "",
    "file/_memory_library": "not a folder",
    "file/src/x.ts": "",
    "case/_Memory_Library/a.md": "- a",
    "case/src/x.ts": "",
    "linked/real/a.md": "- a",
    "linked/src/x.ts": "",
    "away/src/x.ts": "",
    "broken/src/x.ts": "",
  });
  await writeTree(outside.path, { "notes/a.md": "- a" });
  const links = !IS_WINDOWS;
  if (links) {
    Deno.symlinkSync(`${dir.path}/linked/real`, `${dir.path}/linked/_memory_library`);
    Deno.symlinkSync(`${outside.path}/notes`, `${dir.path}/away/_memory_library`);
    Deno.symlinkSync(`${dir.path}/broken/gone`, `${dir.path}/broken/_memory_library`);
  }
  const insensitive = caseInsensitive(dir.path);
  for (const project of ["plain", "none", "file", "case", "linked", "away", "broken"]) {
    for (const trusts of [undefined, () => false]) {
      const start = `${dir.path}/${project}/src${project === "plain" ? "/deep" : ""}`;
      const probed = lookUpLibraryAbove(start, "file", trusts);
      for (const [how, listings] of LISTINGS) {
        assert.deepEqual(lookUpLibraryAbove(start, "file", trusts, listings()), probed, how);
      }
      if (project === "plain") assert.ok(probed !== null && "root" in probed === !trusts);
      if (project === "case") assert.equal(probed !== null, insensitive, "the file system decides");
      if (project === "away" && links) {
        assert.deepEqual(probed, {
          refused: `${dir.path}/away/_memory_library`,
          reason: "outside-project",
        });
      }
    }
  }
});

Deno.test("the native sources with listings are those the probes find: present, absent, links, case", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "CLAUDE.local.md": "- mine",
    "a/CLAUDE.md": "@AGENTS.md",
    "a/AGENTS.md": "- a agents",
    "a/b/claude.md": "- a case variant",
    "a/b/c/AGENTS.md": "- c agents",
    "a/b/c/d/x.ts": "",
    "a/b/real.md": "- linked",
    "AGENTS.md": "- root agents",
    ".cursor/rules/a.mdc": "---\nglobs: a/**\n---\n- cursor",
    ".github/copilot-instructions.md": "- copilot",
  });
  if (!IS_WINDOWS) Deno.symlinkSync(`${dir.path}/a/b/real.md`, `${dir.path}/a/b/c/d/CLAUDE.md`);
  const rel = "a/b/c/d/x.ts";
  const paths = (files: readonly { relPath: string }[]) => files.map((f) => f.relPath);
  const run = (listings: FolderListings | undefined) => ({
    client: paths(clientLoadedSources(dir.path, rel, [], listings)),
    tool: paths(nativeSources(dir.path, [rel], "file-tool", [], listings)),
    command: paths(nativeSources(dir.path, [rel], "command", [], listings)),
    bash: paths(commandNativeSources(dir.path, [rel, "a/b/"], ["a/b/c/x.ts"], listings)),
    builtin: paths(builtinLoadedAgents(dir.path, rel, listings)),
    rules: paths(readRuleFiles(dir.path, listings).own),
    root: rootAgentsFile(dir.path, listings)?.relPath,
  });
  const probed = run(undefined);
  for (const [how, listings] of LISTINGS) assert.deepEqual(run(listings()), probed, how);
  assert.deepEqual(probed.tool, ["a/b/c/AGENTS.md", "a/AGENTS.md"]);
  assert.deepEqual(
    probed.bash,
    ["a/b/c/AGENTS.md", ".cursor/rules/a.mdc"],
    "a/ loaded by the read",
  );
  assert.deepEqual(probed.rules, [".cursor/rules/a.mdc", ".github/copilot-instructions.md"]);
  assert.equal(probed.root, "AGENTS.md");
  assert.deepEqual(probed.builtin, [], "the project has a CLAUDE.local.md");
  const insensitive = caseInsensitive(dir.path);
  assert.equal(probed.client.includes("a/b/CLAUDE.md"), insensitive, "the file system decides");
  assert.ok(!probed.client.includes("a/b/c/d/CLAUDE.md"), "a link is not a plain file");
  Deno.removeSync(`${dir.path}/CLAUDE.local.md`);
  Deno.removeSync(`${dir.path}/AGENTS.md`);
  Deno.removeSync(`${dir.path}/.github`, { recursive: true });
  const without = run(undefined);
  for (const [how, listings] of LISTINGS) assert.deepEqual(run(listings()), without, how);
  assert.deepEqual(without.builtin, ["a/b/c/AGENTS.md"]);
  assert.equal(without.root, undefined);
  assert.deepEqual(without.rules, [".cursor/rules/a.mdc"]);
});

Deno.test("the exports a root file may be held by are found with listings as the probes find them", async () => {
  await using dir = await tempDir();
  const marker = (format: string) =>
    `Generated by the Librarian from _memory_library. Do not edit: change the library files ` +
    `there, then run 'librarian export --format ${format}'.`;
  await writeTree(dir.path, {
    ".claude/rules/librarian-root.md": `---\n# ${marker("claude-rules")}\n---\n- x\n`,
    ".claude/rules/mine.md": "- mine\n",
    "AGENTS.md": `<!-- ${marker("agents-md")} -->\n- x\n`,
  });
  const run = (listings: FolderListings | undefined) => ({
    rules: exportedClaudeRules(dir.path, listings).map((r) => r.relPath),
    agents: generatedRootAgents(dir.path, listings)?.relPath,
  });
  const probed = run(undefined);
  assert.deepEqual(probed, { rules: [".claude/rules/librarian-root.md"], agents: "AGENTS.md" });
  for (const [how, listings] of LISTINGS) assert.deepEqual(run(listings()), probed, how);
  Deno.removeSync(`${dir.path}/.claude`, { recursive: true });
  Deno.removeSync(`${dir.path}/AGENTS.md`);
  const without = run(undefined);
  assert.deepEqual(without, { rules: [], agents: undefined });
  for (const [how, listings] of LISTINGS) assert.deepEqual(run(listings()), without, how);
  // with the root's listing at hand, neither is probed: the listing is all that is read
  const listed: string[] = [];
  const spy = folderListings((folder) => {
    listed.push(folder);
    return [...Deno.readDirSync(folder)].map((entry) => entry.name);
  });
  const probes: string[] = [];
  const real = { lstatSync: Deno.lstatSync, statSync: Deno.statSync, openSync: Deno.openSync };
  for (const name of Object.keys(real) as (keyof typeof real)[]) {
    // deno-lint-ignore no-explicit-any
    (Deno as any)[name] = (path: string | URL, ...rest: unknown[]) => {
      probes.push(`${name} ${path}`);
      // deno-lint-ignore no-explicit-any
      return (real[name] as any)(path, ...rest);
    };
  }
  try {
    assert.deepEqual(run(spy), without);
  } finally {
    Object.assign(Deno, real);
  }
  assert.deepEqual(listed, [dir.path]);
  assert.deepEqual(probes, []);
});

Deno.test({
  name: "a folder that can be searched but not listed is probed name by name",
  ignore: AS_ROOT || skipOnWindows("takes the read permission off a folder"),
  fn: async () => {
    await using dir = await tempDir();
    await writeTree(dir.path, {
      "_memory_library/a.md": "- a",
      "a/CLAUDE.md": "@AGENTS.md",
      "a/AGENTS.md": "- a agents",
      "a/x.ts": "",
    });
    Deno.chmodSync(`${dir.path}/a`, 0o311);
    try {
      const listings = folderListings();
      assert.ok(listings.mayHold(`${dir.path}/a`, "nothing.md"));
      const found = lookUpLibraryAbove(`${dir.path}/a`, "file", undefined, listings);
      assert.equal(found && "root" in found ? found.projectRoot : null, dir.path);
      assert.deepEqual(
        clientLoadedSources(dir.path, "a/x.ts", [], listings).map((f) => f.relPath),
        [
          "a/CLAUDE.md",
          "a/AGENTS.md",
        ],
      );
      assert.deepEqual(
        nativeSources(dir.path, ["a/x.ts"], "file-tool", [], listings).map((f) => f.relPath),
        ["a/AGENTS.md"],
      );
    } finally {
      Deno.chmodSync(`${dir.path}/a`, 0o755);
    }
  },
});

Deno.test("a command's touches find with listings the libraries their probes find", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "p/_memory_library/a.md": "- a",
    "p/src/deep/x.ts": "",
    "q/_Memory_Library/a.md": "- a",
    "q/src/x.ts": "",
    "r/src/x.ts": "",
  });
  const named = ["p/src/deep/x.ts", "p/src", "q/src/x.ts", "r/src/x.ts"].map((rel) => ({
    path: `${dir.path}/${rel}`,
    role: "read" as const,
  }));
  const env = envFrom({});
  const probed = projectTouchesOf(named, env);
  for (const [how, listings] of LISTINGS) {
    assert.deepEqual(projectTouchesOf(named, env, listings()), probed, how);
  }
  assert.deepEqual(
    probed.touches.filter((t) => t.library.projectRoot === `${dir.path}/p`).map((t) => t.relPath),
    ["src/deep/x.ts", "src"],
  );
});

Deno.test("packageFolderOf() with listings finds the packages its probes find, and probes only names a listing shows", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "package.json": "{}",
    "services/core/Cargo.toml": "",
    "services/core/src/deep/a.ts": "",
    "services/web/pyproject.toml/.keep": "", // a folder with a manifest's name: not a package
    "services/web/src/b.ts": "",
    "apps/x/src/c.ts": "",
  });
  // a link to a manifest (not made on Windows, where a file link needs a privilege)
  if (!IS_WINDOWS) {
    Deno.symlinkSync(`${dir.path}/services/core/Cargo.toml`, `${dir.path}/apps/x/deno.json`);
  }
  const cases = ["services/core/src/deep", "services/web/src", "apps/x/src", "apps", "services"];
  for (const relDir of cases) {
    const want = packageFolderOf(dir.path, relDir);
    for (const [name, listings] of LISTINGS) {
      assert.equal(packageFolderOf(dir.path, relDir, listings()), want, `${relDir} (${name})`);
    }
  }
  assert.equal(packageFolderOf(dir.path, "services/core/src/deep"), "services/core");
  if (!IS_WINDOWS) {
    assert.equal(packageFolderOf(dir.path, "apps/x/src"), "apps/x", "a link to a manifest counts");
  }
  assert.equal(packageFolderOf(dir.path, "services/web/src"), null, "a folder is no manifest");
  // a folder with no manifest in it is listed, not probed 15 times
  const probed: string[] = [];
  const isFile = (path: string) => {
    probed.push(path);
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  };
  packageFolderOf(dir.path, "services/core/src/deep", folderListings(), isFile);
  assert.deepEqual(probed, [`${dir.path}/services/core/Cargo.toml`]);
});
