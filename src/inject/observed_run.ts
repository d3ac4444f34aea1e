/**
 * A hook run watched through the Deno functions it learns about the world with, so that a run
 * which changed nothing and said nothing can be known again later without being run
 * (`quiet_repeat.ts`).
 *
 * While {@link observeRun} runs its function, each read of the file system (a `stat`, a folder's
 * listing, a file's text, a resolved link), each environment variable and the working folder are
 * recorded with what they were: for a listing or a file's text, the stamp of the folder or file
 * taken before it is read (a change after the stamp shows as a new stamp later, never as an old
 * one). Everything else that reaches the world (a write, a lock, a program, stdout, an
 * asynchronous read) marks the run as one that cannot be replayed ({@link ObservedRun.effect}).
 * The functions are the Deno namespace's own, put back when the run ends; `tests/observed_run_test.ts`
 * fails when `src/` uses a Deno function this module neither records nor marks.
 *
 * @module
 */

import { type EnvReader, processVariable, watchProcessEnv } from "../core/env.ts";
import { lastChangeMs, memoStamp } from "./walk_memo_format.ts";

/** The kinds of thing an observation reads. */
export const OBSERVATION_KINDS = [
  "stat",
  "lstat",
  "list",
  "read",
  "realpath",
  "readlink",
  "cwd",
  "uid",
  "env",
  "process-env",
] as const;

/** What kind of thing an observation read. */
export type ObservationKind = typeof OBSERVATION_KINDS[number];

/** One thing a run learnt from the world, and what it was then. */
export interface Observation {
  kind: ObservationKind;
  /** The path, or the variable's name (empty for the working folder and the user id). */
  subject: string;
  /** A stamp (`f:<mtime>:<ctime>:<ino>:<size>:<mode>:<uid>`), `!<Error name>`, or a value. */
  seen: string;
  /** For a stamp: when its thing last changed (`walk_memo_format.ts` `lastChangeMs`). */
  changedMs?: number;
}

/**
 * A watched run: its value, what it read, and whether anything rules out replaying it. What it
 * read is put in words only when asked (a run with an effect never needs them).
 */
export interface ObservedRun<T> {
  value: T;
  readonly observations: Observation[];
  /** The first thing the run did beyond reading (a Deno function's name); undefined if none. */
  effect: string | undefined;
  /** The latest change among what the run stamped (`walk_memo_format.ts` `lastChangeMs`); 0 if none. */
  newestChangeMs: number;
}

/** The Deno functions whose reads are recorded (what they return is known again by a stamp). */
export const RECORDED_READS: readonly string[] = [
  "statSync",
  "lstatSync",
  "readDirSync",
  "readTextFileSync",
  "readFileSync",
  "realPathSync",
  "readLinkSync",
  "cwd",
  "uid",
];

/**
 * The Deno functions that make a run one that cannot be replayed: what changes the world or asks
 * it in a way no stamp records. A constructor (`Command`) is caught when constructed.
 */
export const EFFECTS: readonly string[] = [
  "writeTextFileSync",
  "writeFileSync",
  "writeTextFile",
  "writeFile",
  "mkdirSync",
  "mkdir",
  "renameSync",
  "rename",
  "removeSync",
  "remove",
  "symlinkSync",
  "linkSync",
  "chmodSync",
  "copyFileSync",
  "truncateSync",
  "utimeSync",
  "openSync",
  "open",
  "makeTempDirSync",
  "makeTempFileSync",
  "chdir",
  "Command",
  "stat",
  "lstat",
  "readDir",
  "readTextFile",
  "readFile",
  "realPath",
  "readLink",
  "execPath",
];

/**
 * What `src/` uses of the Deno namespace that needs neither: types, constants, error classes,
 * the process's arguments, main module and exit, stdin (read before any run is watched) and the
 * process id (which only names files a write makes, and a write is an effect).
 */
export const NOT_OBSERVED: readonly string[] = [
  "test",
  "mainModule",
  "errors",
  "build",
  "version",
  "args",
  "exit",
  "exitCode",
  "stdin",
  "pid",
  "FileInfo",
  "DirEntry",
  "FsFile",
  "SeekMode",
  "WriteFileOptions",
];

/**
 * The stamp of a file or folder as `Deno.statSync` / `lstatSync` gives it: its kind, modification
 * and status-change times, inode, size, mode and owner.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { stampOfInfo } from "./observed_run.ts";
 * const info = { isFile: true, isDirectory: false, isSymlink: false, mtime: new Date(1700), ctime: null, ino: 7, size: 3, mode: 33188, uid: 501 };
 * assert.equal(stampOfInfo(info), "f:1700:-:7:3:33188:501");
 * ```
 */
export function stampOfInfo(
  info: Pick<Deno.FileInfo, "isFile" | "isDirectory" | "isSymlink" | "mtime" | "ino" | "size"> & {
    ctime?: Date | null;
    mode: number | null;
    uid: number | null;
  },
): string {
  const kind = info.isFile ? "f" : info.isDirectory ? "d" : info.isSymlink ? "l" : "o";
  return `${kind}:${memoStamp(info)}:${info.mode ?? "-"}:${info.uid ?? "-"}`;
}

function failed(error: unknown): string {
  return `!${error instanceof Error ? error.name : "Error"}`;
}

/** What `kind` of `subject` returned as file information, as an observation records it. */
function infoObservation(
  kind: ObservationKind,
  subject: string,
  info: Deno.FileInfo,
): Observation & { changedMs: number } {
  return { kind, subject, seen: stampOfInfo(info), changedMs: lastChangeMs(info) };
}

/**
 * A `stat` of `path` now, as a watched run records it: its stamp and last change, or its error.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { statObservation } from "./observed_run.ts";
 * assert.deepEqual(statObservation("/no/such/file"), { kind: "stat", subject: "/no/such/file", seen: "!NotFound" });
 * assert.match(statObservation(Deno.execPath()).seen, /^f:/);
 * ```
 */
export function statObservation(path: string): Observation {
  try {
    return infoObservation("stat", path, Deno.statSync(path));
  } catch (error) {
    return { kind: "stat", subject: path, seen: failed(error) };
  }
}

/** What `kind` of `subject` is now, in the form an {@link Observation} records it. */
function seenNow(kind: ObservationKind, subject: string, env: EnvReader): string {
  try {
    switch (kind) {
      case "lstat":
        return stampOfInfo(Deno.lstatSync(subject));
      case "stat":
      case "list":
      case "read":
        return stampOfInfo(Deno.statSync(subject));
      case "realpath":
        return Deno.realPathSync(subject);
      case "readlink":
        return Deno.readLinkSync(subject);
      case "cwd":
        return Deno.cwd();
      case "uid":
        return String(Deno.uid());
      case "env":
        return valueSeen(env(subject));
      case "process-env":
        return valueSeen(processVariable(subject));
    }
  } catch (error) {
    return failed(error);
  }
}

function valueSeen(value: string | undefined): string {
  return value === undefined ? "!unset" : `=${value}`;
}

/**
 * True when what `observation` recorded is still so: the same stamp, link, value or error.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { observationHolds } from "./observed_run.ts";
 * const env = (name: string) => name === "A" ? "1" : undefined;
 * assert.ok(observationHolds({ kind: "env", subject: "A", seen: "=1" }, env));
 * assert.ok(observationHolds({ kind: "env", subject: "B", seen: "!unset" }, env));
 * assert.ok(!observationHolds({ kind: "stat", subject: "/no/such/file", seen: "f:1:-:1:1:1:1" }, env));
 * ```
 */
export function observationHolds(observation: Observation, env: EnvReader): boolean {
  return seenNow(observation.kind, observation.subject, env) === observation.seen;
}

type AnyFunction = (...args: unknown[]) => unknown;

/**
 * Runs `run` with the Deno namespace watched (see the module doc) and `env` recorded as it is
 * read; the functions are put back when it settles, however it ends.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { observeRun } from "./observed_run.ts";
 * const folder = Deno.makeTempDirSync();
 * const quiet = await observeRun((name) => name === "X" ? "1" : undefined, (env) => {
 *   env("X");
 *   return Promise.resolve([...Deno.readDirSync(folder)].length);
 * });
 * assert.equal(quiet.value, 0);
 * assert.deepEqual(quiet.observations.map((o) => o.kind), ["env", "list"]);
 * assert.equal(quiet.effect, undefined);
 * const loud = await observeRun(() => undefined, () => {
 *   Deno.writeTextFileSync(`${folder}/a`, "a");
 *   return Promise.resolve(1);
 * });
 * assert.equal(loud.effect, "writeTextFileSync");
 * Deno.removeSync(folder, { recursive: true });
 * ```
 */
export async function observeRun<T>(
  env: EnvReader,
  run: (env: EnvReader) => Promise<T>,
): Promise<ObservedRun<T>> {
  // what was seen: a value, or the file information a stamp is made of when it is asked for
  const seen: { kind: ObservationKind; subject: string; value: string | Deno.FileInfo }[] = [];
  let effect: string | undefined;
  const deno = Deno as unknown as Record<string, unknown>;
  const originals = new Map<string, AnyFunction>();
  const restore: (() => void)[] = [];
  // puts `by` in `holder[name]` until the run ends (an inherited method is left as it was)
  const patch = (holder: Record<string, unknown>, name: string, by: unknown) => {
    const own = Object.getOwnPropertyDescriptor(holder, name);
    restore.push(() => own ? Object.defineProperty(holder, name, own) : delete holder[name]);
    holder[name] = by;
  };
  const replace = (name: string, by: (fn: AnyFunction) => unknown) => {
    const fn = deno[name];
    if (typeof fn !== "function") return;
    originals.set(name, fn as AnyFunction);
    patch(deno, name, by(fn as AnyFunction));
  };
  const original = (name: string) => originals.get(name)!;
  const note = (kind: ObservationKind, subject: string, value: string | Deno.FileInfo) => {
    seen.push({ kind, subject, value });
  };
  // a stat: what it returned; a listing or a read: the stamp taken just before
  const statLike = (kind: "stat" | "lstat", name: string) => (path: unknown) => {
    try {
      const info = original(name)(path) as Deno.FileInfo;
      note(kind, String(path), info);
      return info;
    } catch (error) {
      note(kind, String(path), failed(error));
      throw error;
    }
  };
  const stampFirst =
    (kind: "list" | "read", name: string) => (path: unknown, ...rest: unknown[]) => {
      try {
        note(kind, String(path), original("statSync")(path) as Deno.FileInfo);
      } catch (error) {
        note(kind, String(path), failed(error));
      }
      return original(name)(path, ...rest);
    };
  const valueOf = (kind: ObservationKind, name: string) => (path?: unknown) => {
    try {
      const value = path === undefined ? original(name)() : original(name)(path);
      note(kind, path === undefined ? "" : String(path), String(value));
      return value;
    } catch (error) {
      note(kind, path === undefined ? "" : String(path), failed(error));
      throw error;
    }
  };
  const marking = (name: string, target: AnyFunction) =>
    new Proxy(target, {
      apply(fn, self, args) {
        effect ??= name;
        return Reflect.apply(fn, self, args);
      },
      construct(fn, args, newTarget) {
        effect ??= name;
        return Reflect.construct(fn, args, newTarget);
      },
    });
  for (const name of EFFECTS) {
    const descriptor = Object.getOwnPropertyDescriptor(deno, name);
    if (descriptor?.get === undefined) {
      replace(name, (fn) => marking(name, fn));
      continue;
    }
    // one the runtime loads on first use (`Command`: some 70 million instructions): using it
    // at all is the effect, so it is never loaded here
    const get = descriptor.get;
    restore.push(() => Object.defineProperty(deno, name, descriptor));
    Object.defineProperty(deno, name, {
      ...descriptor,
      get() {
        effect ??= name;
        return get.call(deno);
      },
    });
  }
  replace("statSync", () => statLike("stat", "statSync"));
  replace("lstatSync", () => statLike("lstat", "lstatSync"));
  replace("readDirSync", () => stampFirst("list", "readDirSync"));
  replace("readTextFileSync", () => stampFirst("read", "readTextFileSync"));
  replace("readFileSync", () => stampFirst("read", "readFileSync"));
  replace("realPathSync", () => valueOf("realpath", "realPathSync"));
  replace("readLinkSync", () => valueOf("readlink", "readLinkSync"));
  replace("cwd", () => valueOf("cwd", "cwd"));
  replace("uid", () => valueOf("uid", "uid"));
  restore.push(watchProcessEnv(
    (name, value) => note("process-env", name, valueSeen(value)),
    (method) => effect ??= method,
  ));
  for (const stream of [Deno.stdout, Deno.stderr] as unknown as Record<string, unknown>[]) {
    for (const name of ["writeSync", "write"]) {
      patch(stream, name, marking("stdout", (stream[name] as AnyFunction).bind(stream)));
    }
  }
  const watchedEnv: EnvReader = (name) => {
    const value = env(name);
    note("env", name, valueSeen(value));
    return value;
  };
  try {
    const value = await run(watchedEnv);
    let observations: Observation[] | undefined;
    let newestChangeMs = 0;
    const inWords = () =>
      observations ??= seen.map(({ kind, subject, value }) => {
        if (typeof value === "string") return { kind, subject, seen: value };
        const observation = infoObservation(kind, subject, value);
        newestChangeMs = Math.max(newestChangeMs, observation.changedMs);
        return observation;
      });
    return {
      value,
      effect,
      get observations() {
        return inWords();
      },
      get newestChangeMs() {
        inWords();
        return newestChangeMs;
      },
    };
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
