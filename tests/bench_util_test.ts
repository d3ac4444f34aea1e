/**
 * The benchmark's clock (`scripts/bench_util.ts`): a timed run reports its wall time finer than
 * the millisecond, and a command that fails is not timed as if it had run.
 */
import assert from "node:assert/strict";
import { median, timeOnce } from "../scripts/bench_util.ts";
import { skipOnWindows } from "./platform.ts";

Deno.test("a timed run's wall time is read to the microsecond, not rounded to the millisecond", {
  ignore: skipOnWindows("times through bash's time keyword"),
}, async () => {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    runs.push(await timeOnce({ cmd: "sleep", args: ["0.02"], stdin: "" }));
  }
  const walls = runs.map((r) => r.wallMs);
  // No upper bound that a loaded machine could cross (starting `sleep` took over a second under
  // two CPU burners): the point is the reading's resolution, not its speed.
  assert.ok(walls.every((ms) => ms >= 19 && ms < 120_000), walls.join(", "));
  assert.ok(walls.some((ms) => !Number.isInteger(ms)), `whole milliseconds only: ${walls}`);
  assert.ok(runs.every((r) => r.cpuMs !== undefined && r.cpuMs < median(walls)));
});

Deno.test("a timed command that fails throws, with its status", {
  ignore: skipOnWindows("runs sh"),
}, async () => {
  await assert.rejects(
    () => timeOnce({ cmd: "sh", args: ["-c", "exit 3"], stdin: "" }),
    /exited 3/,
  );
});
