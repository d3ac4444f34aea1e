/**
 * SHA-256 of files, for the checksum file next to the binaries and its verification.
 *
 * @module
 */

/** The lower-case hex SHA-256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The lower-case hex SHA-256 of the file at `path`. */
export async function sha256File(path: string): Promise<string> {
  return await sha256Hex(await Deno.readFile(path));
}
