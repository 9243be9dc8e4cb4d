import { posix } from 'node:path';
import type { RepoModel } from '../../src/model/model.js';
import { linesOf } from '../../src/model/seams.js';
import { extensionOf, TEXT_EXTENSIONS, textKind } from '../../src/model/text-kind.js';
import { tokenOffsets } from '../../src/model/text-scan.js';
import type { Loc } from '../../src/types.js';

/** Files whose history legitimately names what is gone. */
export function isHistoryFile(file: string): boolean {
  return /^(?:CHANGELOG|CHANGES|HISTORY|RELEASES?|RELEASE[-_]NOTES|NEWS)(?:\.|$)/i.test(posix.basename(file));
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
  const purpose = `mentions\0${tokens.join('\0')}`;
  const mentions: Mention[] = [];
  for (const file of scannableFiles(model)) {
    for (const [index, line, column] of model.derived(file, purpose, (text) => scanTokens(file, text, tokens)) ?? []) {
      const token = tokens[index] ?? '';
      if (skip(file, token)) continue;
      mentions.push({ token, file, loc: { line, column, endLine: line, endColumn: column + token.length } });
    }
  }
  return mentions;
}

/** [token index, line, column] of every whole-word occurrence, line by line; none in a file that is not text. */
function scanTokens(file: string, text: string, tokens: readonly string[]): [number, number, number][] {
  if (textKind(file, text) !== 'text') return [];
  const probes = tokens.map((token) => (/\s/.test(token) ? null : token));
  // Most files name none of the tokens: the whole text rules them out before it is split into lines.
  if (!probes.includes(null) && !probes.some((probe) => probe !== null && text.includes(probe))) return [];
  const hits: [number, number, number][] = [];
  linesOf(text).forEach((line, index) => {
    const lower = line.toLowerCase();
    tokens.forEach((token, t) => {
      const probe = probes[t];
      if (probe !== null && probe !== undefined ? !line.includes(probe) : !lower.includes(token.split(/\s+/)[0]?.toLowerCase() ?? '')) return;
      for (const offset of tokenOffsets(line, token)) hits.push([t, index + 1, offset + 1]);
    });
  });
  return hits;
}
