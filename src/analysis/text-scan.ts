import { posix } from 'node:path';
import type { FenceFact } from '../facts/types.js';
import { isMarkdownFile } from '../util/file-kinds.js';
import { isScriptFile } from '../util/file-kinds.js';
import { compileGlobs, isDynamicGlob } from '../util/glob.js';
import type { Loc } from '../types.js';
import type { RepoModel } from '../model/model.js';
import { FIXTURE_DIRS, linesOf, scanText, testAreas } from './seams.js';

export type RunWhere = 'text' | 'code' | 'fence' | 'link' | 'front-matter' | 'line';

/** A run of text to scan for names, with what it is part of. */
export interface ScanRun {
  text: string;
  loc: Loc;
  where: RunWhere;
  fence?: FenceFact;
}

/** Several rules scan the same shipped files. */
const RUNS = {};

/**
 * A Markdown or plain-text file as runs of text on one line each: Markdown
 * from its facts (prose, code spans, code block lines, link targets, front
 * matter), any other text file line by line. Null for scripts, which are
 * checked through their facts, and for binary or unreadable files.
 */
export function textRuns(model: RepoModel, file: string): ScanRun[] | null {
  return model.memoFor(RUNS, file, () => computeTextRuns(model, file));
}

function computeTextRuns(model: RepoModel, file: string): ScanRun[] | null {
  if (isScriptFile(file)) return null;
  if (isMarkdownFile(file)) {
    const facts = model.markdownFacts(file);
    if (!facts) return null;
    const runs: ScanRun[] = [];
    for (const run of facts.frontMatter?.lines ?? []) runs.push({ ...run, where: 'front-matter' });
    for (const run of facts.text) runs.push({ ...run, where: 'text' });
    for (const run of facts.code) runs.push({ ...run, where: 'code' });
    for (const link of facts.links) runs.push({ text: link.target, loc: link.loc, where: 'link' });
    for (const fence of facts.fences) for (const run of fence.lines) runs.push({ ...run, where: 'fence', fence });
    return runs.sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column);
  }
  const text = scanText(model, file);
  if (text === null) return null;
  return linesOf(text).flatMap((line, index) => (line.trim() === '' ? [] : [{ text: line, loc: { line: index + 1, column: 1, endLine: index + 1, endColumn: line.length + 1 }, where: 'line' as const }]));
}

/** A fenced block marked as an example by an info-string word, or in a file configured as examples only. */
export function isIllustrative(model: RepoModel, file: string, fence: FenceFact): boolean {
  const markers = model.config.shipped.illustrative;
  const globs = markers.filter((marker) => marker.includes('/') || isDynamicGlob(marker));
  if (globs.length > 0 && compileGlobs(globs)(file)) return true;
  const words = fence.info.split(/[\s{}.,=]+/).filter(Boolean);
  return words.some((word) => markers.includes(word));
}

export function subLoc(run: Loc, index: number, length: number): Loc {
  return { line: run.line, column: run.column + index, endLine: run.line, endColumn: run.column + index + length };
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Identifier-like words with their offsets: what an env var or export name is matched against. */
export function identifiers(text: string): { word: string; index: number }[] {
  const words: { word: string; index: number }[] = [];
  for (const match of text.matchAll(IDENTIFIER)) words.push({ word: match[0], index: match.index });
  return words;
}

/**
 * The identifiers of a line of code that are code: those outside string
 * literals. A quoted key (`{"outcome": "merge"}`, `'outcome': 1`) and the
 * content of a string are data, not a name the code uses; an interpolation in
 * a string (`${outcome()}`, `$(outcome)`) is code again. A quote counts only
 * when it closes on the same line, and a `'` only where it opens a string
 * (not after a word character: `don't`), so that an apostrophe or a line cut
 * inside a string hides nothing.
 */
export function codeIdentifiers(text: string): { word: string; index: number }[] {
  const data = stringRanges(text);
  if (data.length === 0) return identifiers(text);
  return identifiers(text).filter(({ index }) => !data.some(([start, end]) => start <= index && index < end));
}

/** [start, end) of the contents of the string literals of a line, interpolations left out. */
function stringRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let index = 0;
  while (index < text.length) {
    const quote = text[index] ?? '';
    if ((quote !== '"' && quote !== "'" && quote !== '`') || (quote === "'" && /\w/.test(text[index - 1] ?? ''))) {
      index += 1;
      continue;
    }
    let end = index + 1;
    let start = end;
    const parts: [number, number][] = [];
    while (end < text.length && text[end] !== quote) {
      if (text[end] === '\\') end += 2;
      else if ((text[end] === '$' && (text[end + 1] === '{' || text[end + 1] === '(')) && quote !== "'") {
        // An interpolation: code up to its matching close.
        parts.push([start, end]);
        const open = text[end + 1];
        const close = open === '{' ? '}' : ')';
        let depth = 0;
        end += 1;
        for (; end < text.length; end += 1) {
          if (text[end] === open) depth += 1;
          else if (text[end] === close && --depth === 0) break;
        }
        end += 1;
        start = end;
      } else end += 1;
    }
    if (end >= text.length) {
      // Not closed on this line: not a string this scan can see.
      index += 1;
      continue;
    }
    parts.push([start, end]);
    ranges.push(...parts.filter(([a, b]) => b > a));
    index = end + 1;
  }
  return ranges;
}

/**
 * Words of prose that name an environment variable: written as one (`$X`,
 * `${X}`, `X=…`, `env.X`), or shaped like one (upper case with an
 * underscore, `REVIEW_FIXTURE`). A bare word like PASS or JSON is prose.
 */
export function envMentions(text: string): { word: string; index: number }[] {
  return identifiers(text).filter(({ word, index }) => {
    if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]$/.test(word)) return true;
    const before = text.slice(Math.max(0, index - 5), index);
    return /(?:\$\{?|env\.|env\[['"])$/.test(before) || text[index + word.length] === '=';
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const tokenPatterns = new Map<string, RegExp>();

function tokenPattern(token: string, flags: 'g' | 'y'): RegExp {
  const key = `${flags}\0${token}`;
  let pattern = tokenPatterns.get(key);
  if (!pattern) {
    const phrase = /\s/.test(token);
    const body = phrase ? escape(token).replace(/\s+/g, '\\s+') : escape(token);
    pattern = new RegExp(`(?<![\\w-])${body}(?![\\w-])`, phrase ? `${flags}i` : flags);
    tokenPatterns.set(key, pattern);
  }
  return pattern;
}

/**
 * Offsets of a configured token in `text`: whole words only (an identifier
 * never matches inside a longer one), case-insensitive for a phrase.
 */
export function tokenOffsets(text: string, token: string): number[] {
  return [...text.matchAll(tokenPattern(token, 'g'))].map((match) => match.index);
}

const WORD_RUN = /[\w-]+/g;
const LEADING_WORD = /^[\w-]+/;

/**
 * One matcher for a whole token list, built once: `[token index, offset]` of
 * every occurrence in a line, as `tokenOffsets` would find them token by
 * token, ordered by token index, then offset. An occurrence starts where a
 * run of word characters starts, and the token's leading word is that whole
 * run: the line's word runs are looked up in a map of leading words, so a
 * line costs the same for 5 tokens as for 50,000 (a scan per token made 50k
 * removed tokens run past two minutes). Tokens that do not start with a word
 * character are few, and keep their own scan.
 */
export function tokenScanner(tokens: readonly string[]): (line: string) => [number, number][] {
  const exact = new Map<string, number[]>();
  /** Phrases match case-insensitively: by their lower-cased leading word. */
  const folded = new Map<string, number[]>();
  const others: number[] = [];
  tokens.forEach((token, index) => {
    const lead = LEADING_WORD.exec(token)?.[0];
    if (lead === undefined) {
      others.push(index);
      return;
    }
    const phrase = /\s/.test(token);
    const map = phrase ? folded : exact;
    const key = phrase ? lead.toLowerCase() : lead;
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  });
  const at = (line: string, index: number, offset: number): boolean => {
    const sticky = tokenPattern(tokens[index] ?? '', 'y');
    sticky.lastIndex = offset;
    return sticky.test(line);
  };
  return (line) => {
    const hits: [number, number][] = [];
    if (exact.size > 0 || folded.size > 0) {
      for (const run of line.matchAll(WORD_RUN)) {
        for (const index of exact.get(run[0]) ?? []) if (at(line, index, run.index)) hits.push([index, run.index]);
        if (folded.size === 0) continue;
        for (const index of folded.get(run[0].toLowerCase()) ?? []) if (at(line, index, run.index)) hits.push([index, run.index]);
      }
    }
    for (const index of others) for (const offset of tokenOffsets(line, tokens[index] ?? '')) hits.push([index, offset]);
    return hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  };
}

const PATH_TOKEN = /(?:\.{1,2}\/)+[\w@.+*-]+(?:\/[\w@.+*-]+)*\/?|[\w@.+*-]+(?:\/[\w@.+*-]+)+\/?/g;

/**
 * Tokens of `text` shaped like a relative path (`a/b`, `./a`, `../a/b.md`).
 * Absolute paths, home paths, `$VAR/…` and URLs are not repository paths,
 * and trailing sentence punctuation is dropped.
 */
export function pathTokens(text: string): { token: string; index: number }[] {
  const tokens: { token: string; index: number }[] = [];
  // Every path token has a slash; most prose has none.
  if (!text.includes('/')) return tokens;
  for (const match of text.matchAll(PATH_TOKEN)) {
    const before = text[match.index - 1] ?? '';
    if (/[/~$:\w.@-]/.test(before) || (before === '{' && text[match.index - 2] === '$')) continue;
    const token = match[0].replace(/[.]+$/, '');
    if (token.includes('/') || token.startsWith('.')) tokens.push({ token, index: match.index });
  }
  return tokens;
}

/** Where a relative path written in `fromFile` may point: from the repository root, and from the file's directory. */
export function pathCandidates(token: string, fromFile: string): string[] {
  const clean = token.replace(/\/+$/, '');
  const candidates: string[] = [];
  const add = (path: string): void => {
    const normal = posix.normalize(path);
    if (normal === '.' || normal === '..' || normal.startsWith('../') || candidates.includes(normal)) return;
    candidates.push(normal);
  };
  if (clean.startsWith('/')) {
    add(clean.slice(1));
    return candidates;
  }
  if (!clean.startsWith('./') && !clean.startsWith('../')) add(clean);
  add(posix.join(posix.dirname(fromFile), clean));
  return candidates;
}

/** A file or directory of the repository, or a glob that matches a file. */
export function pathExists(model: RepoModel, path: string): boolean {
  if (model.fileSet.has(path) || testAreas(model).dirs.has(path)) return true;
  return isDynamicGlob(path) && model.matching([path]).length > 0;
}

/** `shipped.allow` lets this token through in this file. */
export function isAllowed(model: RepoModel, token: string, file: string): boolean {
  return model.config.shipped.allow.some((entry) => entry.token === token && (entry.files === undefined || compileGlobs(entry.files)(file)));
}

/**
 * The test-only path a token names, or null: a file or directory inside a
 * test root or fixture directory (from the root or the file's directory), or
 * a trailing part of one that names a fixture directory or a `bin/<stub>`
 * (`fixtures/bin/gh`), unless that part exists outside the tests too.
 */
export function testPathOf(model: RepoModel, token: string, fromFile: string): string | null {
  const areas = testAreas(model);
  const clean = token.replace(/\/+$/, '');
  if (isDynamicGlob(clean)) {
    // `**/*.jsonl` names files anywhere (a tool's logs); only a glob rooted in a directory can name the tests'.
    if (isDynamicGlob(clean.replace(/^\.\//, '').split('/')[0] ?? '')) return null;
    const matches = model.matching([clean.replace(/^\.\//, '')]);
    return matches.length > 0 && matches.every((file) => areas.isTestOnly(file)) ? clean : null;
  }
  const candidates = pathCandidates(clean, fromFile);
  const inside = candidates.find((candidate) => areas.paths.has(candidate));
  if (inside !== undefined) return inside;
  if (candidates.some((candidate) => pathExists(model, candidate))) return null;
  const segments = clean.replace(/^(?:\.{1,2}\/)+/, '').split('/');
  if (segments.length < 2) return null;
  const last = segments.at(-1) ?? '';
  const marked = segments.some((segment) => FIXTURE_DIRS.has(segment)) || (segments.at(-2) === 'bin' && areas.stubs.has(last));
  if (!marked) return null;
  const suffix = `/${segments.join('/')}`;
  for (const path of areas.paths) if (path.endsWith(suffix)) return path;
  return null;
}
