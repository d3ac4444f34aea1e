/**
 * The door of `import/`: what other folders use of it. The import product, as far as the core uses
 * it: the native memory files a library doubles (`lint`, `doctor`) and the secret lines held back.
 * The `import` command itself is loaded later.
 *
 * @module
 */

export { describeDoubling, type Doubling } from "./native.ts";
export { nativeDoublings } from "./project_sources.ts";
export { withoutSecretLines } from "./secret_lines.ts";
