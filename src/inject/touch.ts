/**
 * The decision for one file or command touch (PreToolUse), given what the context window's
 * ledger holds: the tagging hint it is due (`touchHint`), the decision a context makes
 * (`contextDecision`), the hold of a blind first write (`holdFor`, `heldDecision`), and the
 * composer of the three (`decideTouch`). All pure: the context is rendered by the caller's
 * `contextFor` (`file_context.ts` reads the library files), the ledger is read and written by
 * `window.ts`.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import type { LibraryFile } from "../core/walk.ts";
import type { FileContext, FileLocation } from "./file_context.ts";
import { hintEnding, type HintTarget, hintText } from "./hint.ts";
import { foldersToHold, holdPreface } from "./hold.ts";
import type { Ledger } from "./ledger_format.ts";
import type { Decision } from "./window.ts";

/**
 * For the log: labels as library-relative paths, comma-separated (`undefined` for none).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { relPathsOf } from "./touch.ts";
 * const paths = relPathsOf([{ relPath: "tech.md", label: "tech.md (library root)", absPath: "/l/tech.md" }]);
 * assert.equal(paths(["tech.md (library root)"]), "tech.md");
 * assert.equal(paths([]), undefined);
 * ```
 */
export function relPathsOf(
  files: readonly LibraryFile[],
): (labels: string[]) => string | undefined {
  const byLabel = new Map(files.map((f) => [f.label, f.relPath]));
  return (labels) => labels.map((l) => byLabel.get(l) ?? l).join(",") || undefined;
}

/** The tagging hint a touch is due (all fields absent for a folder already handled). */
export interface TouchHint {
  /** The tag the hint suggests, when one is due. */
  tag?: string;
  /** The hint's words, when one is due. */
  text?: string;
  /** What the ledger records as handled once this touch is decided (folder and tag). */
  hinted?: string[];
}

/**
 * The hint for an edit's first touch of a folder in this context window: its tag, at its level,
 * unless that tag was given already. The folder is recorded as handled either way, so its tag
 * is looked up (`target.tag()`, which may read the disk) once per window at most.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { touchHint } from "./touch.ts";
 * const target = { folder: "src/api", tag: () => "src", scratchPath: "_memory_library/.scratch.md" };
 * const due = touchHint(target, []);
 * assert.equal(due.tag, "src");
 * assert.match(due.text!, /\[TAG: src, type: /);
 * assert.deepEqual(due.hinted, ["src/api", "src"]);
 * // the tag was given for another folder: recorded, not said again
 * assert.deepEqual(touchHint(target, ["src"]), { hinted: ["src/api"] });
 * // the folder was handled: nothing
 * assert.deepEqual(touchHint(target, ["src/api"]), {});
 * assert.deepEqual(touchHint(undefined, []), {});
 * ```
 */
export function touchHint(
  target: HintTarget | undefined,
  hinted: readonly string[] | undefined,
): TouchHint {
  if (target === undefined || hinted?.includes(target.folder)) return {};
  const tag = target.tag();
  if (tag === undefined || hinted?.includes(tag)) return { hinted: [target.folder] };
  return {
    tag,
    text: hintText(tag, target.scratchPath),
    hinted: [...new Set([target.folder, tag])],
  };
}

/**
 * The decision a touch's context makes: `injected` (the context, ending with the hint when
 * `withHint`), `hinted` (no context, the hint alone), or no output with the context's reason. The
 * ledger records the files delivered or refreshed and, unless a due hint was left out (to make
 * room for a hold: the next touch gives it), the hint's folder and tag.
 *
 * @example No context: the hint alone
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextDecision } from "./touch.ts";
 * const none = { kind: "none" as const, reason: "all-sent" as const, hits: 2, refreshed: {} };
 * const hint = { tag: "src", text: "[Librarian] ...", hinted: ["src/api", "src"] };
 * const hinted = contextDecision(none, hint, true, true);
 * assert.equal(hinted.outcome.result, "hinted");
 * assert.deepEqual(hinted.output, { event: "PreToolUse", text: "[Librarian] ..." });
 * assert.deepEqual(hinted.record, { files: {}, hinted: ["src/api", "src"] });
 * // without the hint, nothing is said and nothing recorded
 * assert.deepEqual(contextDecision(none, hint, false, true), {
 *   outcome: { result: "all-sent", hits: 2 },
 * });
 * ```
 */
export function contextDecision(
  context: FileContext,
  hint: TouchHint,
  withHint: boolean,
  ledgerOn: boolean,
): Decision {
  const shownHint = withHint ? hint.text : undefined;
  const hinted = hint.hinted ? { hinted: hint.hinted } : {};
  // a hint left out (to make room for a hold) is not recorded: the next touch gives it
  const hintedNow = hint.text !== undefined && shownHint === undefined ? {} : hinted;
  if (context.kind === "none") {
    const refreshed = context.refreshed ?? {};
    if (shownHint) {
      return {
        outcome: { result: "hinted", hint: hint.tag, hits: context.hits, chars: shownHint.length },
        output: { event: "PreToolUse", text: shownHint },
        record: { files: refreshed, ...hinted },
      };
    }
    const record = {
      ...(Object.keys(refreshed).length > 0 ? { files: refreshed } : {}),
      ...hintedNow,
    };
    return {
      outcome: { result: context.reason, hits: context.hits },
      ...(Object.keys(record).length > 0 ? { record } : {}),
    };
  }
  const { shown, cut, left, skipped } = context.rendered;
  const paths = relPathsOf(context.files);
  return {
    outcome: {
      result: "injected",
      sent: paths([...shown, ...cut]),
      cut: paths(cut),
      left_out: paths(left),
      skipped: paths(skipped),
      chars: context.rendered.text.length,
      hits: context.hits,
      hint: shownHint === undefined ? undefined : hint.tag,
      ledger: ledgerOn ? "on" : "off",
    },
    output: { event: "PreToolUse", text: context.rendered.text },
    record: { files: context.delivered, ...hintedNow },
  };
}

/**
 * The folders this call is held for, given what the window was sent: written folders not held
 * before whose library files include one the window has never been sent.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyLedger } from "./ledger_format.ts";
 * import { holdFor } from "./touch.ts";
 * const file = { relPath: "src/tech.md", label: "src/tech.md", absPath: "/p/_memory_library/src/tech.md" };
 * const location = {
 *   kind: "located" as const, relPath: "src/a.ts", files: [file],
 *   library: { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const },
 * };
 * assert.deepEqual(holdFor(location, ["src"], { ...emptyLedger(), files: {} }), ["src"]);
 * assert.deepEqual(holdFor(location, ["src"], { ...emptyLedger(), files: { [file.absPath]: "fp" } }), [], "sent");
 * assert.deepEqual(holdFor(location, ["src"], { ...emptyLedger(), files: {}, held: ["/p/src"] }), [], "held before");
 * ```
 */
export function holdFor(
  location: FileLocation,
  written: readonly string[],
  ledger: Ledger,
): string[] {
  if (written.length === 0 || location.kind !== "located") return [];
  const root = location.library.projectRoot;
  const unsent = location.files.filter((f) => !f.outside && ledger.files[f.absPath] === undefined);
  return foldersToHold({
    written,
    held: ledger.held ?? [],
    keyOf: (folder) => joinPath(root, folder),
    unsent,
  });
}

/**
 * Whether a context brings (shows whole or in part) a file the window was never sent.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyLedger } from "./ledger_format.ts";
 * import { bringsUnsent } from "./touch.ts";
 * const file = { relPath: "tech.md", label: "tech.md", absPath: "/l/tech.md" };
 * const context = {
 *   kind: "context" as const, relPath: "a.ts", hits: 0, delivered: {}, files: [file],
 *   library: { root: "/l", projectRoot: "/", foundBy: "cwd" as const },
 *   rendered: { text: "x", shown: ["tech.md"], cut: [], left: [], skipped: [], delivered: [] },
 * };
 * assert.equal(bringsUnsent(context, { ...emptyLedger(), files: {} }), true);
 * assert.equal(bringsUnsent(context, { ...emptyLedger(), files: { "/l/tech.md": "fp" } }), false);
 * ```
 */
export function bringsUnsent(
  context: FileContext & { kind: "context" },
  ledger: Ledger,
): boolean {
  const brought = new Set([...context.rendered.shown, ...context.rendered.cut]);
  return context.files.some((f) => brought.has(f.label) && ledger.files[f.absPath] === undefined);
}

/**
 * A held call's decision: denied with the hold's words (`preface`) before the context, recorded
 * as held for `holding` (by absolute folder), and `unheld` to make and take instead when the hold
 * cannot first be recorded.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { heldDecision } from "./touch.ts";
 * const context = {
 *   kind: "context" as const, relPath: "a.ts", hits: 0, delivered: {}, files: [],
 *   library: { root: "/p/_memory_library", projectRoot: "/p", foundBy: "cwd" as const },
 *   rendered: { text: "notes", shown: [], cut: [], left: [], skipped: [], delivered: [] },
 * };
 * const decision = { outcome: { result: "injected" }, record: { files: { "/l/t.md": "fp" } } };
 * const held = heldDecision(decision, context, "Held.", ["", "src"], () => decision);
 * assert.deepEqual(held.outcome, { result: "held", held: ".,src" });
 * assert.deepEqual(held.output, { event: "PreToolUse", text: "Held.\n\nnotes", deny: true });
 * assert.deepEqual(held.record?.held, ["/p", "/p/src"]);
 * assert.equal(held.unheld?.(), decision);
 * ```
 */
export function heldDecision(
  decision: Decision,
  context: FileContext & { kind: "context" },
  preface: string,
  holding: readonly string[],
  unheld: () => Decision,
): Decision {
  const root = context.library.projectRoot;
  return {
    outcome: {
      ...decision.outcome,
      result: "held",
      held: holding.map((f) => f || ".").join(","),
    },
    output: { event: "PreToolUse", text: `${preface}\n\n${context.rendered.text}`, deny: true },
    record: { ...decision.record, held: holding.map((folder) => joinPath(root, folder)) },
    unheld,
  };
}

/** What a touch is, apart from the window's ledger. */
export interface Touch {
  /** The tool's name (`Edit`, `Bash`). */
  tool: string;
  location: FileLocation;
  /** Where an edit's tagging hint would point (`hint.ts` `hintTarget`). */
  target: HintTarget | undefined;
  /** The project folders the call writes into, when a hold may apply to it. */
  written: readonly string[];
  /** Whether the window has a ledger (for the log). */
  ledgerOn: boolean;
  /**
   * The touch's context against the files the window was sent, ending with `ending`, in the
   * budget less `reserved` characters (`file_context.ts` `touchContext`: the files are read once
   * for all of a decision's attempts, each of which renders them).
   */
  contextFor(sent: Ledger["files"], ending: string, reserved: number): FileContext;
}

/**
 * The touch's decision: the context with the hint it is due; held instead when it writes into a
 * folder whose library files never reached this window and the hold can be recorded first
 * (`recorded`). Held only when the context really brings one of those files (not just names
 * them); when the budget is small, the hint makes room for them (it comes with the next touch);
 * with no room for any of them beside the hold's words, the call goes through with its context.
 * A held decision's `unheld` (the decision without the hold) is made only when it is taken.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyLedger } from "./ledger_format.ts";
 * import { decideTouch } from "./touch.ts";
 * const touch = {
 *   tool: "Read", target: undefined, written: [], ledgerOn: true,
 *   location: { kind: "none" as const, reason: "no-library" as const },
 *   contextFor: () => ({ kind: "none" as const, reason: "no-library" as const, hits: 0 }),
 * };
 * assert.deepEqual(decideTouch(touch, { ...emptyLedger(), files: {} }, true), {
 *   outcome: { result: "no-library", hits: 0 },
 * });
 * ```
 */
export function decideTouch(touch: Touch, ledger: Ledger, recorded: boolean): Decision {
  const hint = touchHint(touch.target, ledger.hinted);
  const attempt = (withHint: boolean, reserved: number) => {
    const ending = withHint ? hintEnding(hint.text) : "";
    const context = touch.contextFor(ledger.files, ending, reserved);
    return { context, decision: contextDecision(context, hint, withHint, touch.ledgerOn) };
  };
  // a write into a folder whose files never reached this window is held (hold.ts), when the
  // hold can be recorded first
  const holding = recorded ? holdFor(touch.location, touch.written, ledger) : [];
  const unheld = () => attempt(true, 0).decision;
  if (holding.length === 0) return unheld();
  const preface = holdPreface(touch.tool, holding);
  const reserved = preface.length + 2;
  for (const withHint of hint.text === undefined ? [false] : [true, false]) {
    const { context, decision } = attempt(withHint, reserved);
    if (context.kind !== "context" || !bringsUnsent(context, ledger)) continue;
    return heldDecision(decision, context, preface, holding, unheld);
  }
  return unheld();
}
