/**
 * Near-miss tag lines as a person meets them (issue 11, "Misfiled"): never swallowed into the
 * block above, kept in scratch with the fix, and reported by `route --dry-run`, `status` and
 * `lint`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLibrarian, tempDir, writeTree } from "./helpers.ts";

const SCRATCH = [
  "## [TAG: global, type: tech]",
  "- Deno 2 only",
  "## TAG: src/api type: patterns",
  "- retries need idempotency keys",
  "### [TAG: src/api, type: edge]",
  "- empty bodies are valid",
  "",
].join("\n");

async function project(root: string) {
  await writeTree(root, {
    "proj/_memory_library/.scratch.md": SCRATCH,
    "proj/src/api/handler.ts": "",
  });
  return { cwd: join(root, "proj"), home: join(root, "home") };
}

const FIX_1 = "no brackets around 'TAG: …'; write '## [TAG: src/api, type: patterns]'";
const FIX_2 = "3 '#' instead of 2; write '## [TAG: src/api, type: edge]'";

Deno.test("route files the good block alone and keeps each near miss with its fix", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["route"], options);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  const tech = await Deno.readTextFile(join(dir.path, "proj/_memory_library/tech.md"));
  assert.match(tech, /- Deno 2 only/);
  assert.doesNotMatch(tech, /TAG|idempotency|empty bodies/);
  const scratch = await Deno.readTextFile(join(dir.path, "proj/_memory_library/.scratch.md"));
  assert.equal(
    scratch,
    [
      "## TAG: src/api type: patterns",
      `<!-- librarian: kept in scratch: malformed tag: ${FIX_1} -->`,
      "- retries need idempotency keys",
      "### [TAG: src/api, type: edge]",
      `<!-- librarian: kept in scratch: malformed tag: ${FIX_2} -->`,
      "- empty bodies are valid",
      "",
    ].join("\n"),
  );
});

Deno.test("route --dry-run reports near-miss tags with their fix", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["route", "--dry-run"], options);
  assert.ok(result.stdout.includes(FIX_1), result.stdout);
  assert.ok(result.stdout.includes(FIX_2), result.stdout);
  const json = JSON.parse((await runLibrarian(["route", "-n", "--json"], options)).stdout);
  assert.deepEqual(json.kept.map((k: { code: string }) => k.code), ["malformed", "malformed"]);
});

Deno.test("status counts near-miss tags as rejected, with their fix", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const status = JSON.parse((await runLibrarian(["status", "--json"], options)).stdout);
  assert.deepEqual(
    status.scratch.blocks.map((b: { line: number; category: string }) => `${b.line} ${b.category}`),
    ["1 routable", "3 rejected", "5 rejected"],
  );
  assert.ok(status.scratch.blocks[1].reason.includes(FIX_1));
});

Deno.test("lint reports near-miss tags in scratch", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["lint", "--json"], options);
  assert.equal(result.code, 1);
  const findings = JSON.parse(result.stdout).findings as Array<
    { check: string; line: number; message: string }
  >;
  assert.deepEqual(findings.map((f) => `${f.check} ${f.line}`), [
    "scratch-tag 3",
    "scratch-tag 5",
  ]);
  assert.ok(findings[0]!.message.includes(FIX_1));
  assert.equal(
    (findings[0] as unknown as { fix: string }).fix,
    "replace the tag line with '## [TAG: src/api, type: patterns]'",
  );
});

Deno.test("librarian scratch gives a near miss its corrected line as the fix", async () => {
  await using dir = await tempDir();
  const options = await project(dir.path);
  const result = await runLibrarian(["scratch"], options);
  assert.match(
    result.stdout,
    /fix: +replace the tag line with '## \[TAG: src\/api, type: edge\]'/,
  );
});
