/**
 * The rules for the common file, text and search commands (pure): `cat`, `head`, `sed -i`, `mv`,
 * `rm`, `grep -r`, `rg`, `find`, `ls`, `tree`, ... See `shell_commands.ts` for what a rule is.
 *
 * @module
 */

import {
  type CommandRule,
  type CommandUse,
  each,
  HERE,
  parseArgs,
  touches,
  valuesOf,
} from "./shell_commands.ts";
import { afterFirst, copies, lists, readsAll, search, writesAll } from "./shell_rules.ts";
import type { ShellWord } from "./shell_scan.ts";

/** GNU `-i[SUFFIX]` in a short-option cluster (`-i`, `-Ei`, `-i.bak`), not `--in-place`. */
const SED_IN_PLACE = /^-[A-Za-hj-z]*i/;

/**
 * `sed`: the script is the first positional unless `-e`/`-f` gave it; the files are written with
 * `-i` (GNU `-i[SUFFIX]`, `--in-place`, BSD `-i ''`), else read.
 */
function sed(args: ShellWord[]): CommandUse {
  const rest = [...args];
  const bsdSuffix = rest.findIndex((w, k) => w.value === "-i" && rest[k + 1]?.value === "");
  if (bsdSuffix >= 0) rest.splice(bsdSuffix + 1, 1);
  let inPlace = false;
  // -i takes its suffix attached: cut it off so that `-i.bak` is not read as more flags
  const cleaned = rest.map((w) => {
    const text = w.value ?? "";
    if (text.startsWith("--in-place")) inPlace = true;
    if (!SED_IN_PLACE.test(text)) return w;
    inPlace = true;
    const flags = text.slice(0, text.indexOf("i"));
    return { value: flags === "-" ? "-n" : flags };
  });
  const parsed = parseArgs(cleaned, { short: "efl", long: "expression file line-length" });
  const scriptFiles = valuesOf(parsed, "f", "file");
  const scripted = scriptFiles.length > 0 || valuesOf(parsed, "e", "expression").length > 0;
  const files = parsed.positionals.slice(scripted ? 0 : 1);
  return {
    touches: [...touches(files, inPlace ? "write" : "read"), ...touches(scriptFiles, "read")],
  };
}

/** `awk`: the program is the first positional unless `-f`; gawk `-i inplace` writes the files. */
function awk(args: ShellWord[]): CommandUse {
  const parsed = parseArgs(args, { short: "fvFiE", long: "file assign field-separator include" });
  const programFiles = valuesOf(parsed, "f", "file");
  const inPlace = valuesOf(parsed, "i", "include").some((w) => w.value === "inplace");
  const files = parsed.positionals.slice(programFiles.length > 0 ? 0 : 1)
    .filter((w) => w.value === null || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value));
  return {
    touches: [...touches(files, inPlace ? "write" : "read"), ...touches(programFiles, "read")],
  };
}

/**
 * `perl`: with `-e` code the files are read, or written with `-i` (`-pi`, `-i.bak`); without
 * it the first positional is the script it runs.
 */
function perl(args: ShellWord[]): CommandUse {
  let inPlace = false;
  let code = false;
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === null || !text.startsWith("-") || text === "-") break;
    if (text === "--") {
      i++;
      break;
    }
    for (let k = 1; k < text.length; k++) {
      const letter = text[k]!;
      if (letter === "i") inPlace = true;
      if (letter === "e" || letter === "E") code = true;
      if ("eEIMmx".includes(letter) && k + 1 === text.length) i++; // its value is the next word
      if ("ieEIMmxl0C".includes(letter)) break; // the rest of the cluster is its value
    }
  }
  const rest = args.slice(i);
  if (!code) return { touches: touches(rest.slice(0, 1), "read") };
  return { touches: touches(rest, inPlace ? "write" : "read") };
}

/** `find`: the paths before the first expression word, or the working folder. */
function find(args: ShellWord[]): CommandUse {
  const paths: ShellWord[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$/.test(args[i]!.value ?? "")) i++;
  if (args[i]?.value === "-D") i += 2;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text !== null && (text.startsWith("-") || text === "(" || text === "!")) break;
    paths.push(args[i]!);
  }
  return { touches: touches(paths.length > 0 ? paths : [HERE], "read") };
}

/** `sort`: reads its files, writes `-o`. */
function sort(args: ShellWord[]): CommandUse {
  const parsed = parseArgs(args, { short: "otkST", long: "output key field-separator" });
  const output = valuesOf(parsed, "o", "output");
  return { touches: [...touches(parsed.positionals, "read"), ...touches(output, "write")] };
}

/** `jq`: the filter is the first positional unless `-f`; the rest are read. */
function jq(args: ShellWord[]): CommandUse {
  const parsed = parseArgs(args, { short: "f", long: "arg argjson from-file indent" });
  const fromFile = valuesOf(parsed, "f", "from-file").length > 0;
  return { touches: touches(parsed.positionals.slice(fromFile ? 0 : 1), "read") };
}

const GREP = {
  short: "efmABCdD",
  long: "regexp file max-count after-context before-context context include exclude " +
    "exclude-dir exclude-from label devices directories binary-files",
};
const RG = {
  short: "efgtTmABCMjrEd",
  long: "regexp file glob iglob type type-not type-add max-count after-context before-context " +
    "context max-columns threads replace encoding max-depth max-filesize sort sortr pre " +
    "pre-glob engine ignore-file path-separator colors context-separator",
};
const FD = {
  short: "etEdxXjSco",
  long: "extension type exclude max-depth exec owner changed-within changed-before",
};

/** The rules for file, text and search commands, by command name. */
export const FILE_COMMANDS: Readonly<Record<string, CommandRule>> = {
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  find,
  perl,
  sort,
  jq,
  head: readsAll({ short: "nc", long: "lines bytes" }),
  tail: readsAll({ short: "ncs", long: "lines bytes pid sleep-interval" }),
  bat: readsAll({ short: "lHmr", long: "language line-range highlight-line style theme" }),
  diff: readsAll({ short: "xXILFCU", long: "label exclude ignore-matching-lines" }),
  nl: readsAll({ short: "bdfhilnsvw" }),
  uniq: readsAll({ short: "fsw" }),
  od: readsAll({ short: "AjNtw" }),
  xxd: readsAll({ short: "clgos" }),
  hexdump: readsAll({ short: "enos" }),
  strings: readsAll({ short: "nte" }),
  stat: readsAll({ short: "cf", long: "format printf" }),
  cut: readsAll({ short: "bcdf", long: "delimiter fields" }),
  shred: readsAll({ short: "nsu" }),
  touch: writesAll({ short: "dtr", long: "date reference" }),
  truncate: writesAll({ short: "sr", long: "size reference" }),
  mkdir: (args) => ({
    touches: touches(parseArgs(args, { short: "m", long: "mode" }).positionals, "folder"),
  }),
  cp: copies("tS"),
  mv: copies("tS"),
  install: copies("tSmog"),
  grep: search(GREP, ["e", "f", "regexp", "file"], false),
  rg: search(RG, ["e", "f", "regexp", "file", "files", "type-list"], true),
  ag: search({ short: "GAaBCmg", long: "file-search-regex ignore depth" }, ["g"], true),
  ack: search({ short: "ABCm", long: "type ignore-dir" }, ["f"], true),
  fd: search(FD, [], true),
  ls: lists({ short: "IwT", long: "ignore hide format sort time-style block-size" }),
  tree: lists({ short: "LPIoHT", long: "charset filelimit timefmt sort" }),
  du: lists({ short: "dBtX", long: "max-depth block-size threshold exclude-from" }),
  eza: lists({ short: "LIT", long: "level ignore-glob" }),
  exa: lists({ short: "LI", long: "level" }),
  fdfind: search(FD, [], true),
  tee: writesAll(),
  ...each("egrep fgrep zgrep", search(GREP, ["e", "f"], false)),
  ...each("cat tac less more wc cmp file md5sum sha1sum sha256sum rm rmdir unlink", readsAll()),
  ...each("chmod chown chgrp", afterFirst()),
};
