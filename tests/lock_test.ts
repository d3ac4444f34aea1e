/**
 * The library lock (`src/filing/lock.ts`), in process: one holder at a time, a clear timeout, and
 * release by `await using`.
 */
import assert from "node:assert/strict";
import {
  acquireLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  LockTimeoutError,
  lockTimeoutFrom,
} from "../src/filing/lock.ts";
import { tempDir } from "./helpers.ts";

Deno.test("a held lock makes a second taker time out with a message naming the lock", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/locks/library.lock`;
  await using _held = await acquireLock(path);
  const error = await acquireLock(path, { timeoutMs: 30 }).catch((e) => e);
  assert.ok(error instanceof LockTimeoutError);
  assert.match(error.message, /another Librarian run held .*library\.lock for more than 30 ms/);
});

Deno.test("`await using` releases the lock at the end of the block", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/library.lock`;
  {
    await using held = await acquireLock(path);
    assert.equal(held.path, path);
  }
  const again = await acquireLock(path, { timeoutMs: 30 });
  again.release();
  again.release(); // idempotent
});

Deno.test("a waiting taker gets the lock once it is released", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/library.lock`;
  const first = await acquireLock(path);
  const waiting = acquireLock(path, { timeoutMs: 5_000 });
  setTimeout(() => first.release(), 20);
  const second = await waiting;
  assert.ok(second.waitedMs >= 0);
  second.release();
});

Deno.test("LIBRARIAN_LOCK_TIMEOUT_MS: a non-negative number, else the default", () => {
  assert.equal(lockTimeoutFrom(" 0 "), 0);
  assert.equal(lockTimeoutFrom("1500"), 1500);
  assert.equal(lockTimeoutFrom("-1"), DEFAULT_LOCK_TIMEOUT_MS);
  assert.equal(lockTimeoutFrom(""), DEFAULT_LOCK_TIMEOUT_MS);
  assert.equal(lockTimeoutFrom("soon"), DEFAULT_LOCK_TIMEOUT_MS);
});
