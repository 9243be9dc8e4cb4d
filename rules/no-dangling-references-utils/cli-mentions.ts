import { posix } from 'node:path';
import type { HeadingFact } from '../../src/facts/types.js';
import type { RepoModel } from '../../src/model/model.js';
import { linesOf } from '../../src/analysis/seams.js';
import { pathCandidates, pathTokens, textRuns, tokenOffsets, type ScanRun } from '../../src/analysis/text-scan.js';
import { isMarkdownFile, MODULE_EXTENSION, moduleStem } from '../../src/util/file-kinds.js';
import type { Mention } from './mentions.js';

/**
 * When a flag written in text is a reference to the flag of one of the
 * repository's own CLIs (a script whose literal option list declared it).
 *
 * A flag belongs to the program whose command line it is on. On a command
 * line (a code span, a line of a code block or of a non-Markdown file, cut at
 * `|`, `&&`, `;`, `(`, `$(` and joined across `\` continuations), the program
 * is the first word that is not an env assignment, an option or a launcher
 * (`node`, `npx`, `tsx`, `npm run`, `python3`, `bash`, …). The flag is the CLI's when that word
 * is the CLI: its script path (or the same path under a build directory,
 * `dist/cli.js` for `src/cli.ts`), the file name of a script in a `bin/` directory, a `bin` name that a package.json maps to
 * it, or a package.json script that runs it (after `npm`, `pnpm`, `yarn`,
 * `bun`). A flag on another program's command line (`gh pr view 12 --json`)
 * is never the CLI's. A flag in prose, or alone in code with no command
 * before it, is the CLI's when its section names the CLI (by bin name, script
 * path or `run <script>`): in Markdown, the lines from the heading above it to
 * the next heading and the titles of the headings it is under; in any other
 * file, the whole file.
 */
export interface CliIdentity {
  /** The script files (repository paths) that declared the flag. */
  scripts: readonly string[];
  /** package.json `bin` names that run one of them. */
  bins: ReadonlySet<string>;
  /** package.json script names whose command runs one of them. */
  npmScripts: ReadonlySet<string>;
}

const BUILD_DIRS = new Set(['dist', 'build', 'lib', 'out', 'esm', 'cjs']);
const RUNTIMES = new Set(['node', 'tsx', 'ts-node', 'bun', 'deno', 'esno', 'jiti', 'vite-node', 'python', 'python3', 'sh', 'bash', 'zsh']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const LAUNCHERS = new Set([...RUNTIMES, ...PACKAGE_MANAGERS, 'sudo', 'env', 'exec', 'time', 'nohup', 'command', 'npx', 'bunx', 'pnpx', 'run', 'run-script', 'x', 'dlx', '--']);

/** `path` is `script`, or its compiled counterpart: the same path under a build directory. */
function sameModule(path: string, script: string): boolean {
  const a = moduleStem(path);
  const b = moduleStem(script);
  if (a === b) return true;
  const [first, ...rest] = a.split('/');
  return first !== undefined && BUILD_DIRS.has(first) && rest.length > 0 && rest.join('/') === b.split('/').slice(1).join('/');
}

function packageJsons(model: RepoModel): { dir: string; json: Record<string, unknown> }[] {
  const found: { dir: string; json: Record<string, unknown> }[] = [];
  for (const file of model.files) {
    if (posix.basename(file) !== 'package.json' || file.includes('node_modules/')) continue;
    const text = model.text(file);
    if (text === null) continue;
    try {
      const json: unknown = JSON.parse(text);
      if (json !== null && typeof json === 'object' && !Array.isArray(json)) found.push({ dir: posix.dirname(file), json: json as Record<string, unknown> });
    } catch {
      // An unparsable package.json declares no bin: another check reports it.
    }
  }
  return found;
}

/** The names the repository gives the CLI whose option list is in `scripts`. */
export function cliIdentity(model: RepoModel, scripts: readonly string[]): CliIdentity {
  const bins = new Set<string>();
  const npmScripts = new Set<string>();
  const isScript = (path: string): boolean => scripts.some((script) => sameModule(path, script));
  const packages = packageJsons(model);
  for (const { dir, json } of packages) {
    const bin = json.bin;
    const name = typeof json.name === 'string' ? json.name.replace(/^@[^/]+\//, '') : null;
    const entries: [string, unknown][] = typeof bin === 'string' ? (name === null ? [] : [[name, bin]]) : bin !== null && typeof bin === 'object' ? Object.entries(bin) : [];
    for (const [key, target] of entries) if (typeof target === 'string' && isScript(posix.join(dir, target))) bins.add(key);
  }
  // An executable in a bin/ directory runs by its file name.
  for (const script of scripts) {
    const parent = posix.dirname(script);
    if (parent === 'bin' || parent.endsWith('/bin')) bins.add(posix.basename(script));
  }
  const identity: CliIdentity = { scripts, bins, npmScripts };
  for (const { dir, json } of packages) {
    const entries = json.scripts !== null && typeof json.scripts === 'object' ? Object.entries(json.scripts) : [];
    for (const [key, command] of entries) {
      if (typeof command !== 'string') continue;
      if (segments(command).some((segment) => programOf(words(segment), identity, posix.join(dir, 'package.json')) === 'cli')) npmScripts.add(key);
    }
  }
  return identity;
}

/** The shell commands of a line, cut at pipes, lists, subshells and calls. */
function segments(line: string): string[] {
  return line.split(/\|\||&&|[|;(`]|\$\(/);
}

/** A segment's words, without the quotes, brackets and commas of the code around them. */
function words(segment: string): string[] {
  return segment
    .split(/\s+/)
    .map((word) => word.replace(/^['"[\]{},]+|['"[\]{},)]+$/g, ''))
    .filter(Boolean);
}

/** A word names the CLI: a bin name (or a path ending in one), or a path to its script. */
function namesCli(word: string, identity: CliIdentity, fromFile: string): boolean {
  if (identity.bins.has(word) || (word.includes('/') && identity.bins.has(posix.basename(word)))) return true;
  if (!word.includes('/') && !MODULE_EXTENSION.test(word)) return false;
  return pathCandidates(word, fromFile).some((candidate) => identity.scripts.some((script) => sameModule(candidate, script)));
}

/**
 * Whose command line `words` (the words before a flag) are: the CLI's,
 * another program's, or none (no program word before the flag).
 */
function programOf(before: readonly string[], identity: CliIdentity, fromFile: string): 'cli' | 'other' | 'none' {
  let runtime = false;
  let packageManager = false;
  for (const word of before) {
    if (/^[A-Za-z_]\w*=/.test(word) || word.startsWith('-')) continue;
    if (packageManager && identity.npmScripts.has(word)) return 'cli';
    // A runtime's own arguments (`node --import tsx`, `deno run`) come before the script it runs.
    if (runtime && !MODULE_EXTENSION.test(word) && !namesCli(word, identity, fromFile)) continue;
    if (LAUNCHERS.has(word) && !namesCli(word, identity, fromFile)) {
      runtime ||= RUNTIMES.has(word);
      packageManager ||= PACKAGE_MANAGERS.has(word);
      continue;
    }
    return namesCli(word, identity, fromFile) ? 'cli' : 'other';
  }
  return 'none';
}

/** The words of the command a flag at `column` (1-based) of `line` is on, `previous` lines joined where they end in `\`. */
function commandBefore(line: string, column: number, previous: readonly string[]): string[] {
  let text = line.slice(0, column - 1);
  for (let index = previous.length - 1; index >= 0 && /\\\s*$/.test(previous[index] ?? ''); index -= 1) text = `${(previous[index] ?? '').replace(/\\\s*$/, ' ')}${text}`;
  return words(segments(text).at(-1) ?? '');
}

/** A text names the CLI: a bin name, a path to its script, or `run <script>`. */
function textNamesCli(text: string, identity: CliIdentity, fromFile: string): boolean {
  for (const bin of identity.bins) if (tokenOffsets(text, bin).length > 0) return true;
  for (const name of identity.npmScripts) if (new RegExp(`\\brun\\s+${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text)) return true;
  return pathTokens(text).some(({ token }) => namesCli(token, identity, fromFile));
}

interface FileView {
  /** Markdown runs (null: a file read line by line). */
  runs: ScanRun[] | null;
  lines: string[];
  /** Markdown headings, in order: each starts a section. */
  headings: readonly HeadingFact[];
  /** Per section start, whether the section names the CLI. */
  named: Map<number, boolean>;
}

/**
 * The mentions of removed flags that are references to the CLI's flag, as
 * defined above. `owners` gives, per flag, the CLI that declared it.
 */
export function cliFlagMentions(model: RepoModel, mentions: readonly Mention[], owners: (flag: string) => CliIdentity): Mention[] {
  const views = new Map<string, FileView | null>();
  const view = (file: string): FileView | null => {
    let found = views.get(file);
    if (found !== undefined) return found;
    const text = model.text(file);
    if (text === null) found = null;
    else {
      const markdown = isMarkdownFile(file) ? model.markdownFacts(file) : null;
      const runs = markdown ? textRuns(model, file) : null;
      found = { runs, lines: linesOf(text), headings: [...(markdown?.headings ?? [])].sort((a, b) => a.loc.line - b.loc.line), named: new Map() };
    }
    views.set(file, found);
    return found;
  };
  return mentions.filter((mention) => {
    const identity = owners(mention.token);
    const fileView = view(mention.file);
    if (fileView === null) return false;
    const { line, column } = mention.loc;
    const run = fileView.runs?.find((r) => r.loc.line === line && r.loc.column <= column && column < r.loc.endColumn);
    const code = fileView.runs === null || (run !== undefined && (run.where === 'code' || run.where === 'fence'));
    if (code) {
      let before: string[];
      if (run === undefined) before = commandBefore(fileView.lines[line - 1] ?? '', column, fileView.lines.slice(0, line - 1));
      else {
        const previous = run.where === 'fence' ? (run.fence?.lines ?? []).filter((l) => l.loc.line < line).map((l) => l.text) : [];
        before = commandBefore(run.text, column - run.loc.column + 1, previous);
      }
      const program = programOf(before, identity, mention.file);
      if (program !== 'none') return program === 'cli';
    }
    return sectionNamesCli(mention.file, fileView, line, identity);
  });
}

/**
 * The flag's section names the CLI: in Markdown, the lines from the heading
 * above it to the next heading, with the titles of the headings it is under
 * (`# merge-digest` › `## Options`); in any other file, the whole file.
 */
function sectionNamesCli(file: string, fileView: FileView, line: number, identity: CliIdentity): boolean {
  if (identity.scripts.includes(file)) return true;
  const { runs, headings } = fileView;
  const index = runs === null ? -1 : headings.findLastIndex((heading) => heading.loc.line <= line);
  const start = index < 0 ? 1 : (headings[index]?.loc.line ?? 1);
  const cached = fileView.named.get(start);
  if (cached !== undefined) return cached;
  let texts: string[];
  if (runs === null) texts = fileView.lines;
  else {
    const end = headings[index + 1]?.loc.line ?? Infinity;
    texts = runs.filter((run) => run.loc.line >= start && run.loc.line < end).map((run) => run.text);
    let level = headings[index]?.level ?? 0;
    for (let above = index - 1; above >= 0 && level > 1; above -= 1) {
      const heading = headings[above];
      if (heading === undefined || heading.level >= level) continue;
      texts.push(heading.text);
      level = heading.level;
    }
  }
  const named = texts.some((text) => textNamesCli(text, identity, file));
  fileView.named.set(start, named);
  return named;
}

/**
 * The mentions of a removed subcommand that run it: in code (a code span, a
 * code block line, a line of a non-Markdown file), as the first word after
 * the CLI's name on the CLI's command line (`kit release --tag v2`). A word
 * in prose is never a subcommand: subcommands are ordinary words.
 */
export function cliSubcommandMentions(model: RepoModel, mentions: readonly Mention[], owner: (word: string) => CliIdentity): Mention[] {
  return mentions.filter((mention) => {
    const identity = owner(mention.token);
    const text = model.text(mention.file);
    if (text === null) return false;
    const lines = linesOf(text);
    const { line, column } = mention.loc;
    let before: string[];
    if (isMarkdownFile(mention.file)) {
      const run = textRuns(model, mention.file)?.find((r) => r.loc.line === line && r.loc.column <= column && column < r.loc.endColumn);
      if (run === undefined || (run.where !== 'code' && run.where !== 'fence')) return false;
      const previous = run.where === 'fence' ? (run.fence?.lines ?? []).filter((l) => l.loc.line < line).map((l) => l.text) : [];
      before = commandBefore(run.text, column - run.loc.column + 1, previous);
    } else before = commandBefore(lines[line - 1] ?? '', column, lines.slice(0, line - 1));
    const positional = before.filter((word) => !word.startsWith('-') && !/^[A-Za-z_]\w*=/.test(word));
    const last = positional.at(-1);
    return last !== undefined && namesCli(last, identity, mention.file) && programOf(before, identity, mention.file) === 'cli';
  });
}
