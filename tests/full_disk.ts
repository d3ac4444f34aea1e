/**
 * A tiny real file system that fills up: a tmpfs of a few kilobytes, mounted for one test, so a
 * full disk (`ENOSPC`) is the kernel's own and not a simulation. Only where the tests may mount
 * one (Linux, as root, with the mount permission: this project's machines); elsewhere the tests
 * that need it are skipped and the injected-writer tests (`tests/boundary_test.ts`) cover the
 * same paths.
 *
 * @module
 */

/** A mounted tmpfs, unmounted (and its folder removed) when disposed. */
export interface TinyDisk extends AsyncDisposable {
  path: string;
}

async function run(command: string, args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output();
    return out.code === 0;
  } catch {
    return false;
  }
}

/** Mounts a tmpfs of `kilobytes` KiB on a new temp folder, or returns null when none can be. */
export async function mountTinyDisk(kilobytes: number): Promise<TinyDisk | null> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return null;
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "librarian-disk-" }));
  if (!await run("mount", ["-t", "tmpfs", "-o", `size=${kilobytes}k`, "tmpfs", path])) {
    await Deno.remove(path, { recursive: true }).catch(() => {});
    return null;
  }
  return {
    path,
    async [Symbol.asyncDispose]() {
      await run("umount", [path]);
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Fills the disk at `path` until no byte fits (one file `filler`); returns its size. */
export function fillDisk(path: string, leaveBytes = 0): number {
  const filler = `${path}/filler`;
  const file = Deno.openSync(filler, { write: true, create: true });
  let written = 0;
  try {
    const chunk = new Uint8Array(1024);
    for (;;) {
      try {
        written += file.writeSync(chunk);
      } catch {
        break;
      }
    }
  } finally {
    file.close();
  }
  if (leaveBytes > 0) Deno.truncateSync(filler, Math.max(0, written - leaveBytes));
  return written;
}

/** True when this machine lets the tests mount a tmpfs (probed once, at load). */
export const CAN_MOUNT_TINY_DISK: boolean = await (async () => {
  const disk = await mountTinyDisk(16);
  if (disk === null) return false;
  await disk[Symbol.asyncDispose]();
  return true;
})();
