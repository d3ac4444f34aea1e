/**
 * The one lock (`src/core/lock.ts`) and what each side makes of a timeout: the inject hook's
 * window lock gives up with `null`, filing's library lock (`src/filing/library_lock.ts`) throws a
 * `LockTimeoutError` naming the lock. One holder at a time, across processes; released by
 * `using`, `await using` or `release()`, never throwing.
 */
import assert from "node:assert/strict";
import { takeLock } from "../src/core/lock.ts";
import { LibrarianError } from "../src/core/errors.ts";
import {
  acquireLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  LockTimeoutError,
  lockTimeoutFrom,
} from "../src/filing/library_lock.ts";
import { tempDir } from "./helpers.ts";

Deno.test("a held lock makes a second taker give up with null once its timeout has passed", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/ledgers/s1/main.lock`;
  using held = takeLock(path, 100);
  assert.ok(held, "the first taker gets it (creating the folder)");
  const start = performance.now();
  assert.equal(takeLock(path, 40), null);
  assert.ok(performance.now() - start >= 39, "it waited its timeout first");
});

Deno.test("filing's taker throws a LockTimeoutError, a LibrarianError naming the lock", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/locks/library.lock`;
  await using _held = acquireLock(path);
  let error: unknown;
  try {
    acquireLock(path, { timeoutMs: 30 });
  } catch (thrown) {
    error = thrown;
  }
  assert.ok(error instanceof LockTimeoutError && error instanceof LibrarianError);
  assert.match(error.message, /another Librarian run held .*library\.lock for more than 30 ms/);
});

Deno.test("`using` and `await using` release the lock at the end of the block", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/library.lock`;
  {
    using held = takeLock(path, 100);
    assert.ok(held);
  }
  {
    await using held = acquireLock(path, { timeoutMs: 30 });
    assert.equal(held.path, path);
  }
  const again = takeLock(path, 0)!;
  again.release();
  again.release(); // idempotent
  assert.ok(takeLock(path, 0), "released");
});

Deno.test("an unlock that fails still frees the lock: closing the file releases it", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/library.lock`;
  const held = takeLock(path, 100, {
    unlock: () => {
      throw new Error("unlock refused");
    },
  })!;
  held.release();
  using again = takeLock(path, 0);
  assert.ok(again);
});

Deno.test("a taker waits while another process holds the lock, and gets it once released", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/library.lock`;
  // another process takes the lock, says so, and exits (the system drops its lock) 300 ms later
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const f = Deno.openSync(${JSON.stringify(path)}, { read: true, write: true, create: true });
       f.lockSync(true); console.log("held"); await new Promise((r) => setTimeout(r, 300));`,
    ],
    stdout: "piped",
  }).spawn();
  const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value?.trim(), "held");
  assert.equal(takeLock(path, 0), null, "held by the other process");
  const held = takeLock(path, 30_000);
  assert.ok(held, "taken after the other process let go");
  assert.ok(held.waitedMs > 0);
  held.release();
  await reader.cancel();
  await holder.status;
});

Deno.test("LIBRARIAN_LOCK_TIMEOUT_MS: a non-negative number, else the default", () => {
  assert.equal(lockTimeoutFrom(" 0 "), 0);
  assert.equal(lockTimeoutFrom("1500"), 1500);
  assert.equal(lockTimeoutFrom("-1"), DEFAULT_LOCK_TIMEOUT_MS);
  assert.equal(lockTimeoutFrom(""), DEFAULT_LOCK_TIMEOUT_MS);
  assert.equal(lockTimeoutFrom("soon"), DEFAULT_LOCK_TIMEOUT_MS);
});
