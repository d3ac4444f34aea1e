/**
 * `librarian import <memory-bank folder>`: a deterministic, append-only conversion of a flat
 * memory bank into library root files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

const BANK = {
  "_memory_library/.scratch.md": "",
  "memory-bank/projectbrief.md": "# Project Brief\nA ledger for small shops.\n",
  "memory-bank/productContext.md": "# Product Context\nShop owners reconcile by hand today.\n",
  "memory-bank/systemPatterns.md": "# System Patterns\n- every write goes through the outbox\n",
  "memory-bank/techContext.md": "# Tech Context\n- Postgres 16, Deno 2\n",
  "memory-bank/activeContext.md": "# Active Context\nWorking on invoices this week.\n",
  "memory-bank/progress.md": "# Progress\n- [x] accounts\n",
  "memory-bank/deploymentNotes.md": "# Deployment\n- blue/green on Fridays only\n",
};

interface Entry {
  source: string;
  target: string;
  action: string;
  chars: number;
}

async function importJson(cwd: string, args: string[] = []) {
  // The project folder stands in for HOME: import takes the library lock under ~/.claude.
  const result = await runLibrarian(["import", "memory-bank", "--yes", "--json", ...args], {
    cwd,
    home: cwd,
  });
  assert.equal(result.code, 0, result.stderr + result.stdout);
  return JSON.parse(result.stdout) as {
    entries: Entry[];
    written: string[];
    dryRun: boolean;
    ignored: string[];
  };
}

function mapping(entries: Entry[]): string[] {
  return entries.map((e) => `${e.source} -> ${e.target} ${e.action}`);
}

const lib = (root: string, name: string) => Deno.readTextFile(join(root, "_memory_library", name));

Deno.test("import maps the memory bank to product, patterns, tech and kebab-case root files", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, BANK);
  const report = await importJson(dir.path);
  assert.deepEqual(mapping(report.entries), [
    "memory-bank/projectbrief.md -> product.md create",
    "memory-bank/productContext.md -> product.md append",
    "memory-bank/systemPatterns.md -> patterns.md create",
    "memory-bank/techContext.md -> tech.md create",
    "memory-bank/activeContext.md -> active-context.md skip-transient",
    "memory-bank/progress.md -> progress.md skip-transient",
    "memory-bank/deploymentNotes.md -> deployment-notes.md create",
  ]);
  assert.deepEqual(report.written, ["product.md", "patterns.md", "tech.md", "deployment-notes.md"]);
  const product = await lib(dir.path, "product.md");
  assert.ok(product.indexOf("A ledger for small shops") < product.indexOf("reconcile by hand"));
  assert.match(
    product,
    /^<!-- imported by 'librarian import' from memory-bank\/projectbrief\.md on \d{4}-\d\d-\d\d -->$/m,
  );
  assert.match(await lib(dir.path, "deployment-notes.md"), /blue\/green on Fridays only/);
  await assert.rejects(lib(dir.path, "progress.md"));
  await assert.rejects(lib(dir.path, "active-context.md"));
});

Deno.test("import never overwrites: it appends to an existing library file after a provenance line", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    ...BANK,
    "_memory_library/tech.md": "# Tech\n- existing learning\n",
  });
  const report = await importJson(dir.path);
  assert.ok(
    report.entries.some((e) => e.source === "memory-bank/techContext.md" && e.action === "append"),
  );
  assert.equal(
    await lib(dir.path, "tech.md"),
    "# Tech\n- existing learning\n\n" +
      `<!-- imported by 'librarian import' from memory-bank/techContext.md on ${
        new Date().toISOString().slice(0, 10)
      } -->\n# Tech Context\n- Postgres 16, Deno 2\n`,
  );
});

Deno.test("import twice changes nothing the second time", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, BANK);
  await importJson(dir.path);
  const before = await lib(dir.path, "product.md");
  const again = await importJson(dir.path);
  assert.deepEqual(again.written, []);
  assert.ok(
    again.entries.every((e) => e.action === "already-imported" || e.action === "skip-transient"),
  );
  assert.equal(await lib(dir.path, "product.md"), before);
});

Deno.test("import --dry-run prints the mapping and writes nothing", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, BANK);
  const result = await runLibrarian(["import", "memory-bank", "--dry-run", "--verbose"], {
    cwd: dir.path,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /^Would import 7 memory files from memory-bank into _memory_library\/:$/m,
  );
  assert.match(result.stdout, /^ {2}memory-bank\/systemPatterns\.md +→ patterns\.md +create/m);
  assert.match(result.stdout, /memory-bank\/progress\.md \(transient: --include-transient/);
  assert.match(result.stdout, /^Next: /m);
  const files = [...Deno.readDirSync(join(dir.path, "_memory_library"))].map((e) => e.name);
  assert.deepEqual(files, [".scratch.md"]);
  const json = await importJson(dir.path, ["-n"]);
  assert.equal(json.dryRun, true);
  assert.deepEqual(json.written, []);
});

Deno.test("import --include-transient imports activeContext and progress too", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, BANK);
  const report = await importJson(dir.path, ["--include-transient"]);
  assert.ok(report.written.includes("active-context.md"));
  assert.ok(report.written.includes("progress.md"));
  assert.match(await lib(dir.path, "active-context.md"), /invoices this week/);
});

Deno.test("import skips empty and non-UTF-8 files and reports what it did not read", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "memory-bank/techContext.md": "  \n",
    "memory-bank/Legacy Notes.md": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
    "memory-bank/diagram.png": new Uint8Array([0x89, 0x50]),
    "memory-bank/archive/old.md": "- old\n",
  });
  const report = await importJson(dir.path);
  assert.deepEqual(mapping(report.entries), [
    "memory-bank/techContext.md -> tech.md skip-empty",
    "memory-bank/Legacy Notes.md -> legacy-notes.md skip-not-text",
  ]);
  assert.deepEqual(report.ignored, [], "what is not memory is not listed");
  assert.deepEqual(report.written, []);
});

Deno.test("import --json has a stable shape", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, BANK);
  const result = await runLibrarian(["import", `${dir.path}/memory-bank`, "--yes", "--json"], {
    home: dir.path,
    cwd: dir.path,
  });
  const report = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(report), [
    "version",
    "source",
    "library",
    "dryRun",
    "applied",
    "entries",
    "originals",
    "onDemand",
    "ignored",
    "left",
    "inPlace",
    "handedOver",
    "exportFormats",
    "exports",
    "becameExport",
    "exportReport",
    "written",
  ]);
  assert.equal(report.source, `${dir.path}/memory-bank`);
  assert.equal(report.library.root, `${dir.path}/_memory_library`);
  assert.deepEqual(Object.keys(report.entries[0]), ["source", "target", "action", "chars"]);
  assert.equal(report.entries[0].chars, "# Project Brief\nA ledger for small shops.".length);
});

Deno.test("import with no library exits 1 and says to run init first", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "memory-bank/projectbrief.md": "x" });
  const result = await runLibrarian(["import", "memory-bank", "--yes"], { cwd: dir.path });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /no memory library found.*librarian init/);
});

Deno.test("import of a missing or empty folder exits 1 with a message", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, { "_memory_library/.scratch.md": "", "empty/readme.txt": "" });
  const missing = await runLibrarian(["import", "nope"], { cwd: dir.path });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nope is not a folder or file that can be read/);
  const empty = await runLibrarian(["import", "empty", "--yes", "--json"], { cwd: dir.path });
  assert.equal(empty.code, 1);
  assert.match(JSON.parse(empty.stdout).error, /holds no agent memory to import/);
});

Deno.test("import with bad arguments exits 2 with a usage line", async () => {
  for (const args of [["import", "a", "b"], ["import", "a", "--overwrite"]]) {
    const result = await runLibrarian(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /^Usage: librarian import \[<folder> \| <file>\] /m);
  }
});

Deno.test("import holds back the line with a credential, says where, imports the rest, exits 1", async () => {
  await using dir = await tempDir();
  const token = ["gh", "p_", "R8xK2mQ9vL4pW7nT3jH6bF1cY5dG0sA8eZ2u"].join("");
  await writeTree(dir.path, {
    ...BANK,
    "memory-bank/techContext.md": `# Tech Context\n- Postgres 16\n- CI pushes with ${token}\n`,
    "memory-bank/keys.md": `- ${["-----BEGIN RSA", "PRIVATE KEY-----"].join(" ")}\n`,
  });
  const result = await runLibrarian(["import", "memory-bank", "--yes", "--json"], {
    cwd: dir.path,
  });
  assert.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout) as { entries: Array<Entry & { reason?: string }> };
  const tech = report.entries.find((e) => e.source === "memory-bank/techContext.md")!;
  assert.equal(tech.action, "create");
  assert.equal(tech.reason, "line 3 (likely GitHub token)");
  assert.match(await lib(dir.path, "tech.md"), /Postgres 16/, "the rest of the file is imported");
  assert.doesNotMatch(await lib(dir.path, "tech.md"), /CI pushes/, "the line is held back");
  assert.match(await lib(dir.path, "patterns.md"), /outbox/, "the other files are imported");
  assert.doesNotMatch(result.stdout, /R8xK2mQ9vL4pW7nT3jH6bF1cY5dG0sA8eZ2u/);
  const text = await runLibrarian(["import", "memory-bank", "--dry-run"], { cwd: dir.path });
  assert.match(
    text.stdout,
    /Held back from memory-bank\/techContext\.md: line 3 \(likely GitHub token\)/,
  );
});

Deno.test("import strips control characters from what it copies", async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "_memory_library/.scratch.md": "",
    "memory-bank/techContext.md": "# Tech Context\n- \u001b[1mPostgres\u001b[0m\u0007 16\n",
  });
  await importJson(dir.path);
  const tech = await lib(dir.path, "tech.md");
  assert.match(tech, /- Postgres 16\n/);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(tech, /[\u0000-\u0008\u001b]/);
});
