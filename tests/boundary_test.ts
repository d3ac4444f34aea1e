/**
 * The file boundary (`src/core/boundary.ts`, `boundary_rules.ts`): every read and write outside
 * the state folder stays inside its folder by real location, never opens a FIFO, never reads an
 * oversized file, writes through a person's link instead of replacing it, and never leaves a
 * temp file behind, a full disk included.
 */
import assert from "node:assert/strict";
import { Boundary, BoundaryError } from "../src/core/boundary.ts";
import type { AtomicIo } from "../src/core/atomic.ts";
import { LibrarianError } from "../src/core/errors.ts";
import { tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";
import { CAN_MOUNT_TINY_DISK, fillDisk, mountTinyDisk } from "./full_disk.ts";

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

function refusalOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof BoundaryError, `not a BoundaryError: ${error}`);
    assert.ok(error instanceof LibrarianError, "a BoundaryError is a LibrarianError");
    return error.refusal.kind;
  }
  assert.fail("nothing was refused");
}

/** Writes part of the temp file, then fails as a full disk does. */
const FULL_DISK: AtomicIo = {
  writeTextFileSync(path, text) {
    Deno.writeTextFileSync(path, text.slice(0, Math.ceil(text.length / 2)));
    throw Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
  },
  renameSync: (from, to) => Deno.renameSync(from, to),
};

Deno.test("a write inside the folder creates folders and the file, and reports created then updated", async () => {
  await using dir = await tempDir();
  const boundary = new Boundary(dir.path, "repository");
  assert.equal(boundary.writeText(`${dir.path}/a/b/c.md`, "one\n"), "created");
  assert.equal(boundary.writeText(`${dir.path}/a/b/c.md`, "two\n"), "updated");
  assert.equal(Deno.readTextFileSync(`${dir.path}/a/b/c.md`), "two\n");
  assert.deepEqual(names(`${dir.path}/a/b`), ["c.md"]);
});

Deno.test("a path outside the folder is refused for every operation", async () => {
  await using dir = await tempDir();
  await using other = await tempDir();
  const boundary = new Boundary(`${dir.path}`, "repository");
  Deno.writeTextFileSync(`${other.path}/x.md`, "theirs\n");
  assert.equal(refusalOf(() => boundary.writeText(`${other.path}/x.md`, "no")), "outside");
  assert.equal(refusalOf(() => boundary.readText(`${other.path}/x.md`, 100)), "outside");
  assert.equal(refusalOf(() => boundary.remove(`${other.path}/x.md`)), "outside");
  assert.equal(refusalOf(() => boundary.writeText(`${dir.path}/../elsewhere.md`, "no")), "outside");
  assert.equal(Deno.readTextFileSync(`${other.path}/x.md`), "theirs\n");
});

Deno.test("symbolic links: followed inside, refused when they leave, never replaced", {
  ignore: skipOnWindows("needs symbolic links"),
}, async (t) => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  const repo = `${dir.path}/repo`;
  Deno.mkdirSync(`${repo}/config/claude`, { recursive: true });
  const boundary = new Boundary(repo, "repository");

  await t.step("a folder link that stays inside is written through", () => {
    Deno.symlinkSync("config/claude", `${repo}/.claude`);
    boundary.writeText(`${repo}/.claude/rules/a.md`, "inside\n");
    assert.equal(Deno.readTextFileSync(`${repo}/config/claude/rules/a.md`), "inside\n");
    assert.ok(Deno.lstatSync(`${repo}/.claude`).isSymlink);
  });

  await t.step(
    "a folder link that leaves is refused, and nothing is created where it leads",
    () => {
      Deno.symlinkSync(outside.path, `${repo}/.cursor`);
      const message = (() => {
        try {
          boundary.writeText(`${repo}/.cursor/rules/librarian.mdc`, "no");
        } catch (error) {
          return (error as Error).message;
        }
        return "";
      })();
      assert.match(message, /\.cursor\/rules\/librarian\.mdc leads outside the repository/);
      assert.match(
        message,
        new RegExp(`to ${outside.path}/rules/librarian\\.mdc; nothing was written`),
      );
      assert.deepEqual(names(outside.path), []);
      assert.equal(refusalOf(() => boundary.ensureFolder(`${repo}/.cursor/rules`)), "outside");
      assert.equal(refusalOf(() => boundary.readText(`${repo}/.cursor/x`, 10)), "outside");
    },
  );

  await t.step(
    "a person's linked file is written through: the link stays, its target changes",
    () => {
      Deno.writeTextFileSync(`${repo}/config/settings.json`, "{}\n");
      Deno.chmodSync(`${repo}/config/settings.json`, 0o600);
      Deno.symlinkSync("config/settings.json", `${repo}/settings.json`);
      assert.equal(boundary.writeText(`${repo}/settings.json`, '{"a":1}\n'), "updated");
      assert.ok(Deno.lstatSync(`${repo}/settings.json`).isSymlink);
      assert.equal(Deno.readTextFileSync(`${repo}/config/settings.json`), '{"a":1}\n');
      assert.equal(Deno.statSync(`${repo}/config/settings.json`).mode! & 0o777, 0o600);
      assert.deepEqual(names(`${repo}/config`), ["claude", "settings.json"]);
    },
  );

  await t.step("a linked file that leads outside is refused, and its target is untouched", () => {
    Deno.writeTextFileSync(`${outside.path}/bashrc`, "mine\n");
    Deno.symlinkSync(`${outside.path}/bashrc`, `${repo}/AGENTS.md`);
    assert.equal(refusalOf(() => boundary.writeText(`${repo}/AGENTS.md`, "x")), "outside");
    assert.equal(refusalOf(() => boundary.readText(`${repo}/AGENTS.md`, 100)), "outside");
    assert.equal(Deno.readTextFileSync(`${outside.path}/bashrc`), "mine\n");
    assert.ok(Deno.lstatSync(`${repo}/AGENTS.md`).isSymlink);
  });

  await t.step("removing a link removes the link, never what it leads to", () => {
    assert.equal(boundary.remove(`${repo}/AGENTS.md`), true);
    assert.equal(Deno.readTextFileSync(`${outside.path}/bashrc`), "mine\n");
    assert.equal(boundary.remove(`${repo}/AGENTS.md`), false);
  });

  await t.step("a link to nothing is refused, not replaced by a file nor written through", () => {
    Deno.symlinkSync(`${outside.path}/not-yet`, `${repo}/dangling.md`);
    assert.equal(refusalOf(() => boundary.writeText(`${repo}/dangling.md`, "x")), "broken-link");
    assert.ok(Deno.lstatSync(`${repo}/dangling.md`).isSymlink);
    assert.throws(() => Deno.lstatSync(`${outside.path}/not-yet`));
  });

  await t.step("a folder spelled through another name of the root is compared by real path", () => {
    Deno.symlinkSync(repo, `${dir.path}/checkout`);
    const viaCheckout = new Boundary(`${dir.path}/checkout`, "repository");
    viaCheckout.writeText(`${repo}/docs/b.md`, "b\n");
    assert.equal(Deno.readTextFileSync(`${repo}/docs/b.md`), "b\n");
  });

  await t.step("a move into a link that leaves is refused; a linked source is not moved", () => {
    Deno.mkdirSync(`${repo}/old`);
    Deno.writeTextFileSync(`${repo}/old/edge.md`, "- learned\n");
    Deno.symlinkSync(outside.path, `${repo}/vendor`);
    assert.equal(refusalOf(() => boundary.move(`${repo}/old`, `${repo}/vendor/new`)), "outside");
    assert.equal(refusalOf(() => boundary.move(`${repo}/vendor`, `${repo}/v2`)), "link");
    assert.equal(Deno.readTextFileSync(`${repo}/old/edge.md`), "- learned\n");
    boundary.move(`${repo}/old`, `${repo}/moved/here`);
    assert.equal(Deno.readTextFileSync(`${repo}/moved/here/edge.md`), "- learned\n");
  });

  await t.step("a link is replaced atomically by a link, never over a file", () => {
    assert.equal(boundary.writeLink(`${repo}/bin/tool`, "/first"), "created");
    assert.equal(boundary.writeLink(`${repo}/bin/tool`, "/second"), "updated");
    assert.equal(Deno.readLinkSync(`${repo}/bin/tool`), "/second");
    assert.deepEqual(names(`${repo}/bin`), ["tool"]);
    Deno.writeTextFileSync(`${repo}/bin/other`, "#!/bin/sh\n");
    assert.equal(refusalOf(() => boundary.writeLink(`${repo}/bin/other`, "/x")), "not-a-file");
  });
});

Deno.test("a FIFO is never opened, for a read or a write", {
  ignore: skipOnWindows("needs FIFOs"),
}, async () => {
  await using dir = await tempDir();
  const fifo = `${dir.path}/CLAUDE.md`;
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  const boundary = new Boundary(dir.path, "project");
  assert.equal(refusalOf(() => boundary.readText(fifo, 1000)), "not-a-file");
  assert.equal(refusalOf(() => boundary.writeText(fifo, "x")), "not-a-file");
  assert.ok(Deno.lstatSync(fifo).isFifo);
});

Deno.test("an oversized file is not read, a folder is not a file, bytes that are not text are named", async () => {
  await using dir = await tempDir();
  const boundary = new Boundary(dir.path, "library");
  Deno.writeTextFileSync(`${dir.path}/big.md`, "x".repeat(2000));
  Deno.writeFileSync(`${dir.path}/bin.md`, new Uint8Array([0xff, 0xfe, 0x00]));
  Deno.mkdirSync(`${dir.path}/folder.md`);
  assert.equal(refusalOf(() => boundary.readText(`${dir.path}/big.md`, 1000)), "too-large");
  assert.equal(refusalOf(() => boundary.readText(`${dir.path}/bin.md`, 1000)), "not-text");
  assert.equal(refusalOf(() => boundary.readText(`${dir.path}/folder.md`, 1000)), "folder");
  assert.equal(refusalOf(() => boundary.writeText(`${dir.path}/folder.md`, "x")), "folder");
  assert.equal(refusalOf(() => boundary.remove(`${dir.path}/folder.md`)), "folder");
  assert.equal(boundary.readText(`${dir.path}/missing.md`, 10), null);
  assert.equal(boundary.readText(`${dir.path}/big.md`, 2000)?.length, 2000);
});

Deno.test("a full disk: the write fails with words a person understands, the file is as it was, no temp file is left", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/AGENTS.md`, "old\n");
  const boundary = new Boundary(dir.path, "repository", FULL_DISK);
  assert.throws(
    () => boundary.writeText(`${dir.path}/AGENTS.md`, "new text\n"),
    (error: unknown) =>
      error instanceof LibrarianError && !(error instanceof BoundaryError) &&
      /could not write .*AGENTS\.md: the disk is full/.test(error.message),
  );
  assert.throws(() => boundary.writeText(`${dir.path}/src/AGENTS.md`, "new\n"), /disk is full/);
  assert.equal(Deno.readTextFileSync(`${dir.path}/AGENTS.md`), "old\n");
  assert.deepEqual(names(dir.path), ["AGENTS.md", "src"]);
  assert.deepEqual(names(`${dir.path}/src`), []);
});

Deno.test("a real full disk (a tiny tmpfs): no temp file is left and the old text stays", {
  ignore: !CAN_MOUNT_TINY_DISK,
}, async () => {
  await using disk = (await mountTinyDisk(64))!;
  Deno.writeTextFileSync(`${disk.path}/AGENTS.md`, "old\n");
  fillDisk(disk.path);
  const boundary = new Boundary(disk.path, "repository");
  assert.throws(
    () => boundary.writeText(`${disk.path}/AGENTS.md`, "x".repeat(20_000)),
    /disk is full/,
  );
  assert.equal(Deno.readTextFileSync(`${disk.path}/AGENTS.md`), "old\n");
  assert.deepEqual(names(disk.path), ["AGENTS.md", "filler"]);
});

Deno.test("creating a file only when nothing is there", async () => {
  await using dir = await tempDir();
  const boundary = new Boundary(dir.path, "repository");
  assert.equal(boundary.createFile(`${dir.path}/lib/.scratch.md`), true);
  Deno.writeTextFileSync(`${dir.path}/lib/.scratch.md`, "kept\n");
  assert.equal(boundary.createFile(`${dir.path}/lib/.scratch.md`), false);
  assert.equal(Deno.readTextFileSync(`${dir.path}/lib/.scratch.md`), "kept\n");
  assert.equal(boundary.ensureFolder(`${dir.path}/lib`), false);
  assert.equal(boundary.ensureFolder(`${dir.path}/lib/deeper/still`), true);
  assert.equal(refusalOf(() => boundary.ensureFolder(`${dir.path}/lib/.scratch.md`)), "folder");
});
