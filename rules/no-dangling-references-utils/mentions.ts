import { posix } from 'node:path';
import { defineDerived, type RepoModel } from '../../src/model/model.js';
import { linesOf } from '../../src/analysis/seams.js';
import { extensionOf, TEXT_EXTENSIONS, textKind } from '../../src/analysis/text-kind.js';
import { tokenScanner } from '../../src/analysis/text-scan.js';
import { sha1 } from '../../src/util/hash.js';
import type { Loc } from '../../src/types.js';

/** Files whose history legitimately names what is gone: changelogs, release notes, migration and upgrade guides. */
export function isHistoryFile(file: string): boolean {
  return /^(?:CHANGELOG|CHANGES|HISTORY|RELEASES?|RELEASE[-_]NOTES|NEWS|MIGRATING|MIGRATIONS?|UPGRADING|UPGRADE)(?:[-_.]|$)/i.test(posix.basename(file));
}

/** Text files worth a lexical scan: known text extensions, extension-less files and dotfiles; lockfiles skipped. */
export function scannableFiles(model: RepoModel): string[] {
  return model.files.filter((file) => {
    const base = posix.basename(file);
    if (/(?:^package-lock\.json|^yarn\.lock|^pnpm-lock\.yaml|^bun\.lockb?|\.min\.js)$/.test(base)) return false;
    const extension = extensionOf(file);
    return extension === null || TEXT_EXTENSIONS.has(extension);
  });
}

export interface Mention {
  token: string;
  file: string;
  loc: Loc;
}

/**
 * Every whole-word occurrence of each token in the repository's text files,
 * except in files `skip` rules out. Each file's scan is cached with its facts
 * (keyed by the token list), so a file git knows unchanged is not read again.
 */
export function findMentions(model: RepoModel, tokens: readonly string[], skip: (file: string, token: string) => boolean): Mention[] {
  if (tokens.length === 0) return [];
  // The token list is part of each file's cache key; hashed once, not once per file.
  const mentionsIn = MENTIONS(model, tokens);
  const mentions: Mention[] = [];
  for (const file of scannableFiles(model)) {
    for (const [index, line, column] of mentionsIn(file) ?? []) {
      const token = tokens[index] ?? '';
      if (skip(file, token)) continue;
      mentions.push({ token, file, loc: { line, column, endLine: line, endColumn: column + token.length } });
    }
  }
  return mentions;
}

/** One scanner per token list (the same list for every file of a search, or one read back from a stored verdict). */
const scanners = new WeakMap<readonly string[], (line: string) => [number, number][]>();

function scannerOf(tokens: readonly string[]): (line: string) => [number, number][] {
  let scan = scanners.get(tokens);
  if (!scan) scanners.set(tokens, (scan = tokenScanner(tokens)));
  return scan;
}

/** Each file's mentions of a token list, kept with its facts: a verdict that read a changed file only for them holds while they are the same. */
const MENTIONS = defineDerived<readonly string[], [number, number, number][]>(
  'mentions',
  (text, file, tokens) => scanTokens(file, text, tokens, scannerOf(tokens)),
  (tokens) => sha1(tokens.join('\0')),
);

/** Below this many tokens, looking for each in the whole text rules most files out faster than reading their words. */
const FEW_TOKENS = 16;

/** [token index, line, column] of every whole-word occurrence, line by line; none in a file that is not text. */
function scanTokens(file: string, text: string, tokens: readonly string[], scan: (line: string) => [number, number][]): [number, number, number][] {
  if (textKind(file, text) !== 'text') return [];
  if (tokens.length <= FEW_TOKENS && !tokens.some((token) => /\s/.test(token) || text.includes(token))) return [];
  const hits: [number, number, number][] = [];
  linesOf(text).forEach((line, index) => {
    for (const [t, offset] of scan(line)) hits.push([t, index + 1, offset + 1]);
  });
  return hits;
}
