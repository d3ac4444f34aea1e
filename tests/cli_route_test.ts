/**
 * `librarian route`: the stop hook's routing, run by a person, with a report of what moved where.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

const GOOD = [
  "## [TAG: src/api, type: patterns]",
  "- retries need idempotency keys",
  "## [TAG: global, type: tech]",
  "- Deno 2 only",
  "- a second tech learning",
  "",
].join("\n");

const BAD = [
  "## [TAG: ../../elsewhere, type: patterns]",
  "- escape attempt",
  "## [TAG: global, type: tech]",
  "- key AKIAABCDEFGHIJKLMNOP",
  "",
].join("\n");

async function project(root: string, scratch: string) {
  await writeTree(root, {
    "proj/_memory_library/.scratch.md": scratch,
    "proj/_memory_library/tech.md": "# tech\n- Deno 2 only\n",
    "proj/src/api/handler.ts": "",
  });
  return { cwd: join(root, "proj"), home: join(root, "home") };
}

const read = (root: string, rel: string) => Deno.readTextFile(join(root, "proj", rel));

Deno.test("route files tagged blocks, empties scratch and says what moved where", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, GOOD);
  const result = await runLibrarian(["route"], options);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  assert.match(result.stdout, /^Filed 2 learnings from 2 blocks into 2 files:$/m);
  assert.match(
    result.stdout,
    /line 1 +## \[TAG: src\/api, type: patterns\] +→ src\/api\/patterns\.md \(\+1\)/,
  );
  assert.match(result.stdout, /→ tech\.md \(\+1, 1 duplicate skipped\)/);
  assert.match(result.stdout, /src\/api\/patterns\.md: \+1 \(new file\)/);
  assert.equal(await read(dir.path, "_memory_library/.scratch.md"), "");
  assert.match(await read(dir.path, "_memory_library/src/api/patterns.md"), /idempotency keys/);
  const tech = await read(dir.path, "_memory_library/tech.md");
  assert.equal(tech.split("Deno 2 only").length - 1, 1, "a bullet already there is not added");
  assert.match(tech, /a second tech learning/);
});

Deno.test("route --dry-run shows the plan and writes nothing", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, GOOD);
  const result = await runLibrarian(["route", "--dry-run"], options);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Would file 2 learnings from 2 blocks into 2 files \(dry run/m);
  assert.equal(await read(dir.path, "_memory_library/.scratch.md"), GOOD);
  await assert.rejects(read(dir.path, "_memory_library/src/api/patterns.md"));
  const json = JSON.parse((await runLibrarian(["route", "-n", "--json"], options)).stdout);
  assert.equal(json.status, "dry-run");
  assert.equal(await read(dir.path, "_memory_library/.scratch.md"), GOOD);
});

Deno.test("route --json reports the library and the routing report", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, GOOD);
  const result = await runLibrarian(["route", "--json"], options);
  assert.equal(result.code, 0);
  const report = JSON.parse(result.stdout);
  assert.equal(report.library.root, `${dir.path}/proj/_memory_library`);
  assert.equal(report.status, "routed");
  assert.deepEqual(
    report.routed.map((r: { line: number; target: string }) => `${r.line} ${r.target}`),
    ["1 src/api/patterns.md", "3 tech.md"],
  );
  assert.deepEqual(
    report.targets.map((t: { target: string; created: boolean }) => `${t.target} ${t.created}`),
    ["src/api/patterns.md true", "tech.md false"],
  );
  assert.equal(report.learnings, 2);
  assert.deepEqual(report.kept, []);
});

Deno.test("route keeps unsafe and secret blocks in scratch, says why, and exits 1", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, BAD);
  const result = await runLibrarian(["route"], options);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /Nothing was filed\./);
  assert.match(result.stdout, /Kept in scratch \(2\):/);
  assert.match(result.stdout, /'\.\.' segment/);
  assert.match(result.stdout, /likely AWS access key/);
  assert.match(result.stdout, /1 block held for a likely secret/);
  assert.match(await read(dir.path, "_memory_library/.scratch.md"), /escape attempt/);
  await assert.rejects(Deno.stat(join(dir.path, "elsewhere")));
  const json = JSON.parse((await runLibrarian(["route", "--json"], options)).stdout);
  assert.equal(json.secretsHeld, 1);
  assert.deepEqual(json.kept.map((k: { code: string }) => k.code), ["bad-tag", "secret"]);
});

Deno.test("route with an empty scratch says there is nothing to file", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path, "");
  const result = await runLibrarian(["route"], options);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /Scratch is empty: nothing to file/);
});

Deno.test("route with no library exits 1 and says how to create one", async () => {
  await using dir = await tempDir();
  const result = await runLibrarian(["route"], { cwd: dir.path, home: dir.path });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /no memory library found.*librarian init/);
});

Deno.test("route with bad arguments exits 2 with a usage line", async () => {
  for (const args of [["route", "src/api"], ["route", "--force"]]) {
    const result = await runLibrarian(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /^Usage: librarian route \[--dry-run\] \[--accept\] \[--json\]$/m);
  }
});

Deno.test("route keeps auto memories awaiting review; route --accept files them with their body", async () => {
  await using dir = await tempDir();
  const { REVIEW_MARKER } = await import("../src/format/markers.ts");
  const waiting = [
    "## [TAG: global, type: patterns]",
    REVIEW_MARKER,
    "- pnpm: use pnpm",
    "  Always use pnpm, never npm.",
    "",
  ].join("\n");
  const options = await project(dir.path, waiting);
  const kept = await runLibrarian(["route"], options);
  assert.equal(kept.code, 0, "awaiting review is not a problem");
  assert.match(kept.stdout, /Kept in scratch \(1\):[\s\S]*awaiting review/);
  assert.equal(await read(dir.path, "_memory_library/.scratch.md"), waiting, "left exactly as is");
  assert.equal(
    await Deno.stat(join(dir.path, "proj/_memory_library/patterns.md")).catch(() => 0),
    0,
  );

  const accepted = await runLibrarian(["route", "--accept"], options);
  assert.equal(accepted.code, 0, accepted.stderr + accepted.stdout);
  assert.match(accepted.stdout, /^Filed 1 learning from 1 block into 1 file:$/m);
  const patterns = await read(dir.path, "_memory_library/patterns.md");
  assert.match(patterns, /- pnpm: use pnpm\n {2}Always use pnpm, never npm\.\n/);
  assert.ok(!patterns.includes("librarian:"), "the marker is not filed");
  assert.equal(await read(dir.path, "_memory_library/.scratch.md"), "");
});
