/**
 * The door of `format/`: what other folders use of it. The library's text formats the commands and
 * the products read: scratch blocks, tag rules, markers, secrets, front matter, learnings,
 * similarity.
 *
 * @module
 */

export { atImports, MAX_IMPORT_DEPTH, withoutImports } from "./at_imports.ts";
export { fairShare } from "./budget.ts";
export {
  type ExportFormat,
  exportFormatOf,
  exportSourceOf,
  findSection,
  isGeneratedText,
  isMarkerLine,
  withoutExportSection,
  withoutHeldSections,
} from "./export_marks.ts";
export { readFrontMatter } from "./front_matter.ts";
export { learningsOf, type LearningUnit } from "./learnings.ts";
export { stripMetadata } from "./library_doc.ts";
export { libraryLine } from "./markdown.ts";
export { NOT_A_SECRET, NOT_SECRET_MARKER } from "./markers.ts";
export { tagLineFix } from "./near_miss.ts";
export {
  frontMatterKeys,
  globsCover,
  globsOf,
  type RuleAgent,
  type RuleScope,
  ruleScope,
} from "./rule_scope.ts";
export { parseScratch, splitLinesKeepingEnds } from "./scratch.ts";
export { findSecrets, findSecretSpans } from "./secrets.ts";
export { DEFAULT_SIMILARITY, shinglesOf, similarPairs } from "./similarity.ts";
export { checkTagType } from "./tag_rules.ts";
