/**
 * The stop hook as one module: the entry `scripts/bundle_hooks.ts` bundles into `hooks/stop.js`,
 * which the launcher runs in source mode. It imports the modules the hook otherwise loads later
 * (filing, the auto-memory sync, the summary, the nudge's reason, re-export) so that the bundle
 * carries them, and hands them to `loadLater` before the hook runs.
 *
 * @module
 */

import * as sync from "../automemory/sync.ts";
import * as provenance from "../core/provenance.ts";
import * as afterFiling from "../export/after_filing.ts";
import * as coordination from "../filing/coordination.ts";
import * as gitHead from "../filing/git_head.ts";
import * as lock from "../filing/lock.ts";
import * as nudgeReason from "../filing/nudge_reason.ts";
import * as provenanceStamp from "../filing/provenance_stamp.ts";
import * as route from "../filing/route.ts";
import * as stopSummary from "../filing/stop_summary.ts";
import { provideBundled } from "../core/load_later.ts";
import { run } from "../filing/hook.ts";
import { runHookEntry } from "./hook_process.ts";

/** The modules the stop hook loads later, carried by its bundle (by path under `src/`). */
export const CARRIED: Readonly<Record<string, unknown>> = {
  "automemory/sync.ts": sync,
  "core/provenance.ts": provenance,
  "export/after_filing.ts": afterFiling,
  "filing/coordination.ts": coordination,
  "filing/git_head.ts": gitHead,
  "filing/lock.ts": lock,
  "filing/nudge_reason.ts": nudgeReason,
  "filing/provenance_stamp.ts": provenanceStamp,
  "filing/route.ts": route,
  "filing/stop_summary.ts": stopSummary,
};

if (import.meta.main) {
  provideBundled(CARRIED);
  await runHookEntry("stop", run);
}
