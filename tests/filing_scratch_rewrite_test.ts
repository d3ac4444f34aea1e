/**
 * Rewriting scratch never loses an append, in-process and deterministic: whatever a writer
 * appends while a pass rewrites scratch (through the path, or through a descriptor it opened
 * before the old file was replaced, however long it waits) reaches scratch, once.
 */
import assert from "node:assert/strict";
import { carryOverScratch } from "../src/filing/carry_over.ts";
import { hasPendingCarryOver } from "../src/filing/carry_kept.ts";
import { rewriteScratch } from "../src/filing/scratch_rewrite.ts";
import { scratchFileProblem } from "../src/core/scratch_file.ts";
import { joinPath } from "../src/core/paths.ts";
import { tempDir } from "./helpers.ts";
import { skipUnderWine } from "./platform.ts";

const FILED = "## [TAG: global, type: tech]\n- filed\n";
const OTHER = "## [TAG: global, type: tech]\n- other\n";
const encoder = new TextEncoder();

async function scratchIn(dir: string, text: string): Promise<string> {
  const path = joinPath(dir, ".scratch.md");
  await Deno.writeTextFile(path, text);
  return path;
}

/** Every carry-over file next to scratch. */
function carryFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.includes("carry"));
}

Deno.test(
  "an append through a descriptor opened before the rewrite reaches scratch at the next carry-over",
  { ignore: skipUnderWine("renames over a file another handle holds open") },
  async () => {
    await using dir = await tempDir();
    const path = await scratchIn(dir.path, FILED + OTHER);
    using writer = await Deno.open(path, { append: true });
    await rewriteScratch(path, { remove: [FILED], replace: [] });
    assert.equal(await Deno.readTextFile(path), OTHER);
    // The writer held the old file open and writes only now, after the rename.
    writer.writeSync(encoder.encode("- late bullet\n"));
    assert.equal(hasPendingCarryOver([path]), true);
    carryOverScratch(path);
    assert.equal(await Deno.readTextFile(path), `${OTHER}- late bullet\n`);
    assert.equal(hasPendingCarryOver([path]), false);
    carryOverScratch(path); // carried once, never twice
    assert.equal(await Deno.readTextFile(path), `${OTHER}- late bullet\n`);
  },
);

Deno.test(
  "a writer whose file was replaced twice (two passes) before it writes still loses nothing",
  { ignore: skipUnderWine("renames over a file another handle holds open") },
  async () => {
    await using dir = await tempDir();
    const path = await scratchIn(dir.path, FILED + OTHER);
    using writer = await Deno.open(path, { append: true });
    await rewriteScratch(path, { remove: [FILED], replace: [] });
    await Deno.writeTextFile(path, FILED, { append: true });
    carryOverScratch(path);
    await rewriteScratch(path, { remove: [FILED], replace: [] });
    writer.writeSync(encoder.encode("- very late\n"));
    carryOverScratch(path);
    assert.equal(await Deno.readTextFile(path), `${OTHER}- very late\n`);
  },
);

Deno.test("an append through the path between the check and the rename is carried over (no window)", async () => {
  await using dir = await tempDir();
  const path = await scratchIn(dir.path, FILED + OTHER);
  await rewriteScratch(path, { remove: [FILED], replace: [] }, {
    beforeRename: () => Deno.writeTextFileSync(path, "- in the window\n", { append: true }),
  });
  carryOverScratch(path);
  assert.equal(await Deno.readTextFile(path), `${OTHER}- in the window\n`);
});

Deno.test("an append that closes its descriptor right before the rename is carried over too", async () => {
  await using dir = await tempDir();
  const path = await scratchIn(dir.path, FILED);
  await rewriteScratch(path, { remove: [FILED], replace: [] }, {
    beforeRename: () => {
      using file = Deno.openSync(path, { append: true });
      file.writeSync(encoder.encode(OTHER));
    },
  });
  carryOverScratch(path);
  assert.equal(await Deno.readTextFile(path), OTHER);
});

Deno.test("a scratch edited (not appended to) during the rewrite is planned again, never overwritten", async () => {
  await using dir = await tempDir();
  const path = await scratchIn(dir.path, FILED + OTHER);
  let edited = false;
  await rewriteScratch(path, { remove: [FILED], replace: [] }, {
    beforeCheck: () => {
      if (edited) return;
      edited = true;
      Deno.writeTextFileSync(path, `${FILED}## [TAG: global, type: tech]\n- edited\n`);
    },
  });
  assert.equal(await Deno.readTextFile(path), "## [TAG: global, type: tech]\n- edited\n");
});

Deno.test("the file kept for carry-over never makes scratch look hard-linked, and is removed once stale", async () => {
  await using dir = await tempDir();
  const path = await scratchIn(dir.path, FILED + OTHER);
  await rewriteScratch(path, { remove: [FILED], replace: [] });
  assert.equal(scratchFileProblem(path), null);
  assert.equal(carryFiles(dir.path).length, 1);
  carryOverScratch(path, [path], Date.now() + 2 * 3600_000);
  assert.deepEqual(carryFiles(dir.path), []);
});

Deno.test("a run killed between keeping the old scratch and the rename leaves nothing to carry twice", async () => {
  await using dir = await tempDir();
  const path = await scratchIn(dir.path, FILED + OTHER);
  // What such a run leaves: a second name for scratch itself.
  Deno.linkSync(path, `${path}.tmp-carry-crashed-0`);
  assert.match(scratchFileProblem(path) ?? "", /hard links/);
  carryOverScratch(path);
  assert.equal(scratchFileProblem(path), null);
  assert.equal(await Deno.readTextFile(path), FILED + OTHER);
  assert.deepEqual(carryFiles(dir.path), []);
});

Deno.test(
  "old scratch files are kept beside the journal when they can be, so the library stays clean",
  { ignore: skipUnderWine("renames over a file another handle holds open") },
  async () => {
    await using dir = await tempDir();
    const lib = joinPath(dir.path, "lib");
    const locks = joinPath(dir.path, "locks");
    await Deno.mkdir(lib);
    await Deno.mkdir(locks);
    const path = await scratchIn(lib, FILED + OTHER);
    const places = [joinPath(locks, "key.scratch"), path];
    using writer = await Deno.open(path, { append: true });
    await rewriteScratch(path, { remove: [FILED], replace: [] }, { places });
    assert.deepEqual(carryFiles(lib), []);
    assert.equal(carryFiles(locks).length, 1);
    writer.writeSync(encoder.encode("- late\n"));
    assert.equal(hasPendingCarryOver(places), true);
    carryOverScratch(path, places);
    assert.equal(await Deno.readTextFile(path), `${OTHER}- late\n`);
  },
);

Deno.test("rewriteScratch uses the plan's result only while scratch still reads as the plan read it", async () => {
  await using dir = await tempDir();
  const path = joinPath(dir.path, ".scratch.md");
  const filed = "## [TAG: global, type: tech]\n- a\n";
  const edits = { remove: [filed], replace: [] };
  // as planned: the result worked out with the plan is written as it is
  Deno.writeTextFileSync(path, filed);
  rewriteScratch(path, edits, { known: { text: filed, next: "worked out\n" } });
  assert.equal(Deno.readTextFileSync(path), "worked out\n");
  // appended to since: the edits are applied to what is there now
  const later = "## [TAG: global, type: edge]\n- b\n";
  Deno.writeTextFileSync(path, filed + later);
  rewriteScratch(path, edits, { known: { text: filed, next: "worked out\n" } });
  assert.equal(Deno.readTextFileSync(path), later);
});
