/**
 * What an export leaves out (pure): a list item or paragraph of a library file that holds a
 * likely credential never reaches a generated file. The rest of the file is exported; the
 * report names the file and lines, never the value. A file a person vouched for (the
 * not-a-secret marker, as `lint` reads it) is exported whole.
 *
 * @module
 */

import { NOT_SECRET_MARKER } from "../format/markers.ts";
import { describeSecrets, withoutSecretBlocks } from "../format/secrets.ts";
import type { FolderFile } from "./render.ts";

/** A block an export left out of a library file, and why (never the value). */
export interface SetAside {
  relPath: string;
  reason: string;
}

/**
 * The folder's files without their blocks that hold a likely credential, and what was left out.
 *
 * @example Usage
 * ```ts
 * import { withoutSecretsForExport } from "./export_secrets.ts";
 * import assert from "node:assert/strict";
 *
 * const token = ["gh", "p_", "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0aB3d"].join("");
 * const files = [{ relPath: "tech.md", text: `- CI uses ${token}\n- Postgres 16\n` }];
 * const { files: kept, setAside } = withoutSecretsForExport(files);
 * assert.equal(kept[0]!.text, "- Postgres 16\n");
 * assert.deepEqual(setAside, [{
 *   relPath: "tech.md",
 *   reason: "tech.md line 1 left out: likely GitHub token (line 1)",
 * }]);
 * ```
 */
export function withoutSecretsForExport(
  files: readonly FolderFile[],
): { files: FolderFile[]; setAside: SetAside[] } {
  const setAside: SetAside[] = [];
  const kept = files.map((file) => {
    if (file.text === null || NOT_SECRET_MARKER.test(file.text)) return file;
    const { text, spans } = withoutSecretBlocks(file.text);
    if (spans.length === 0) return file;
    const lines = spans.map(({ line, endLine }) =>
      endLine > line ? `${line}-${endLine}` : `${line}`
    );
    setAside.push({
      relPath: file.relPath,
      reason: `${file.relPath} line${lines.length > 1 || lines[0]!.includes("-") ? "s" : ""} ` +
        `${lines.join(", ")} left out: ${describeSecrets(spans)}`,
    });
    return { relPath: file.relPath, text };
  });
  return { files: kept, setAside };
}
