import { posix } from 'node:path';
import type { RepoModel } from '../../src/model/model.js';
import { FIXTURE_DIRS, shippedFiles, testAreas, type TestAreas } from '../../src/analysis/seams.js';
import { textRuns, type ScanRun } from '../../src/analysis/text-scan.js';
import { SHELL_LANGUAGES } from '../../src/vocab/languages.js';
import { isMarkdownFile } from '../../src/util/file-kinds.js';
import type { RuleFinding } from '../../src/rule.js';
import { firstPerFile, timesNamed } from '../shared/mentions.js';
import { isHistoryFile, type Mention } from './mentions.js';

// The repository's own executables (a file directly in a `bin/` directory outside the tests, a package.json
// `bin` name) and the places text runs one as a command: the first word of a code span, of a shell command
// in a code block, or what follows `run` in prose.

/** Words before the command that only launch it. */
const LAUNCHERS = new Set(['$', '>', 'npx', 'bunx', 'pnpx', 'sudo', 'env', 'exec', 'command', 'time', 'nohup', 'pnpm', 'yarn', 'bun', 'npm', 'exec', 'run', 'x', 'dlx']);

/** The executables of the tree as it is: bin/ files outside the test areas by file name, and package.json bin names. */
export function executables(model: RepoModel): Set<string> {
  const areas = testAreas(model);
  const names = new Set<string>();
  for (const file of model.files) {
    if (isBinFile(file) && !areas.isTestOnly(file)) names.add(posix.basename(file));
    if (posix.basename(file) === 'package.json') for (const name of binNames(model.text(file))) names.add(name);
  }
  return names;
}

/** Whether a path (that may no longer exist) lies in a test root or a fixture directory. */
export function inTestArea(areas: TestAreas, path: string): boolean {
  return areas.isTestOnly(path) || areas.roots.some((root) => path.startsWith(`${root}/`)) || path.split('/').slice(0, -1).some((segment) => FIXTURE_DIRS.has(segment));
}

/** A file directly in a `bin/` directory. */
export function isBinFile(file: string): boolean {
  const parent = posix.dirname(file);
  return parent === 'bin' || parent.endsWith('/bin');
}

/** The `bin` names a package.json declares (a string `bin` is named after the package). */
export function binNames(text: string | null): string[] {
  if (text === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const { bin, name } = json as { bin?: unknown; name?: unknown };
  if (typeof bin === 'string') return typeof name === 'string' ? [name.replace(/^@[^/]+\//, '')] : [];
  return bin !== null && typeof bin === 'object' ? Object.keys(bin) : [];
}

/** Documentation and skills: Markdown outside the test areas, and the shipped text files. */
export function commandTextFiles(model: RepoModel): string[] {
  const areas = testAreas(model);
  const shipped = new Set(shippedFiles(model));
  return model.files.filter((file) => !areas.isTestOnly(file) && (isMarkdownFile(file) || shipped.has(file)));
}

/**
 * Where `file` runs a command `accept` recognizes: the command word of a code
 * span, of each command of a shell code block line, and the word after `run`
 * in prose when it is a code span or a name with a `-`, `_` or `.`.
 */
export function commandMentions(model: RepoModel, file: string, accept: (word: string) => boolean): Mention[] {
  const mentions: Mention[] = [];
  const at = (run: ScanRun, index: number, word: string): void => {
    mentions.push({ token: word, file, loc: { line: run.loc.line, column: run.loc.column + index, endLine: run.loc.line, endColumn: run.loc.column + index + word.length } });
  };
  for (const run of textRuns(model, file) ?? []) {
    if (run.where === 'code' || (run.where === 'fence' && (run.fence?.lang === '' || SHELL_LANGUAGES.has(run.fence?.lang ?? '')))) {
      for (const segment of commandSegments(run.text)) {
        const command = commandWord(segment.text);
        if (command !== null && accept(command.word)) at(run, segment.index + command.index, command.word);
      }
    } else if (run.where === 'text') {
      for (const match of run.text.matchAll(/\brun\s+([A-Za-z0-9][\w.-]*[_.-][\w.-]*[A-Za-z0-9])\b/g)) {
        const word = match[1] ?? '';
        if (accept(word)) at(run, (match.index ?? 0) + match[0].length - word.length, word);
      }
    }
  }
  return mentions;
}

/** The commands of a line, cut at `&&`, `||`, `;` and `|`, with their offsets. */
function commandSegments(text: string): { text: string; index: number }[] {
  const segments: { text: string; index: number }[] = [];
  let start = 0;
  for (const match of text.matchAll(/&&|\|\||[;|]/g)) {
    segments.push({ text: text.slice(start, match.index), index: start });
    start = (match.index ?? 0) + match[0].length;
  }
  segments.push({ text: text.slice(start), index: start });
  return segments;
}

/** The command a segment runs: its first word that is not a prompt, an env assignment or a launcher, without a `./` or `bin/` path. */
function commandWord(segment: string): { word: string; index: number } | null {
  for (const match of segment.matchAll(/\S+/g)) {
    const word = match[0];
    if (LAUNCHERS.has(word) || /^[A-Za-z_]\w*=/.test(word)) continue;
    const path = /^(?:\.\/)?(?:[\w.-]+\/)*bin\/([\w.-]+)$|^\.\/([\w.-]+)$/.exec(word);
    const name = path ? (path[1] ?? path[2] ?? '') : word;
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) return null;
    return { word: name, index: (match.index ?? 0) + word.length - name.length };
  }
  return null;
}

/**
 * The prefix most of the repository's executables share (`proj-` of
 * `proj-build`, `proj-lint`, `proj-ship`): at least three of them, and at
 * least two thirds of all; null when there is no such convention.
 */
export function commandPrefix(names: ReadonlySet<string>): string | null {
  const counts = new Map<string, number>();
  for (const name of names) {
    const dash = name.indexOf('-');
    if (dash > 0) counts.set(name.slice(0, dash + 1), (counts.get(name.slice(0, dash + 1)) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best !== undefined && best[1] >= 3 && best[1] * 3 >= names.size * 2 ? best[0] : null;
}

/**
 * Without a diff: docs and skills that run a command with the repository's
 * own executable prefix that names no executable, package.json script or
 * file (a command renamed or removed long ago). History files are skipped.
 */
export function unknownCommands(model: RepoModel): RuleFinding<'unknownCommand'>[] {
  const names = executables(model);
  const prefix = commandPrefix(names);
  if (prefix === null) return [];
  const known = new Set([...names, ...model.files.map((file) => posix.basename(file))]);
  for (const file of model.files) if (posix.basename(file) === 'package.json') for (const script of scriptNames(model.text(file))) known.add(script);
  const accept = (word: string): boolean => word.startsWith(prefix) && word.length > prefix.length && /^[a-z0-9-]+$/.test(word) && !known.has(word);
  const mentions = commandTextFiles(model).flatMap((file) => (isHistoryFile(file) ? [] : commandMentions(model, file, accept)));
  return firstPerFile(mentions, (m) => m.token).map(({ first: mention, count }) => ({
    messageId: 'unknownCommand',
    file: mention.file,
    loc: mention.loc,
    message: `runs ${mention.token}, but no executable of this repository has that name (its own commands are the ${prefix}* files in bin/ and package.json bin names): a command renamed or removed. Update the instruction.${timesNamed(count)}`,
  }));
}

function scriptNames(text: string | null): string[] {
  if (text === null) return [];
  try {
    const json: unknown = JSON.parse(text);
    const scripts = json !== null && typeof json === 'object' ? (json as { scripts?: unknown }).scripts : undefined;
    return scripts !== null && typeof scripts === 'object' && scripts !== undefined ? Object.keys(scripts) : [];
  } catch {
    return [];
  }
}
