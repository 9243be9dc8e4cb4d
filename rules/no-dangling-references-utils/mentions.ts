import { posix } from 'node:path';
import type { RepoModel } from '../../src/model/model.js';
import { linesOf, scanText } from '../../src/model/seams.js';
import { tokenOffsets } from '../../src/model/text-scan.js';
import type { Loc } from '../../src/types.js';

const TEXT_EXTENSIONS = new Set([
  'md', 'markdown', 'mdx', 'mdc', 'txt', 'tmpl', 'tpl', 'prompt', 'j2', 'jinja', 'hbs', 'mustache', 'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs',
  'cjs', 'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'sh', 'bash', 'zsh', 'fish', 'bats', 'py', 'rb', 'go', 'rs',
  'java', 'kt', 'swift', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'php', 'sql', 'html', 'htm', 'css', 'scss', 'xml', 'properties', 'gradle', 'lua',
  'pl', 'r', 'ex', 'exs', 'csv', 'tsv', 'diff', 'patch', 'svelte', 'vue', 'astro',
]);

/** Files whose history legitimately names what is gone. */
export function isHistoryFile(file: string): boolean {
  return /^(?:CHANGELOG|CHANGES|HISTORY|RELEASES?|RELEASE[-_]NOTES|NEWS)(?:\.|$)/i.test(posix.basename(file));
}

/** Text files worth a lexical scan: known text extensions, extension-less files and dotfiles; lockfiles skipped. */
export function scannableFiles(model: RepoModel): string[] {
  return model.files.filter((file) => {
    const base = posix.basename(file);
    if (/(?:^package-lock\.json|^yarn\.lock|^pnpm-lock\.yaml|^bun\.lockb?|\.min\.js)$/.test(base)) return false;
    const dot = base.lastIndexOf('.');
    if (dot <= 0) return true;
    return TEXT_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
  });
}

export interface Mention {
  token: string;
  file: string;
  loc: Loc;
}

const linesMemo = new WeakMap<RepoModel, Map<string, string[] | null>>();

function fileLines(model: RepoModel, file: string): string[] | null {
  let memo = linesMemo.get(model);
  if (!memo) {
    memo = new Map();
    linesMemo.set(model, memo);
  }
  if (memo.has(file)) return memo.get(file) ?? null;
  const text = scanText(model, file);
  const lines = text === null ? null : linesOf(text);
  memo.set(file, lines);
  return lines;
}

/** Every whole-word occurrence of each token in the repository's text files, except in files `skip` rules out. */
export function findMentions(model: RepoModel, tokens: readonly string[], skip: (file: string, token: string) => boolean): Mention[] {
  if (tokens.length === 0) return [];
  const probes = tokens.map((token) => ({ token, probe: /\s/.test(token) ? null : token }));
  const mentions: Mention[] = [];
  // Most files name none of the tokens: the whole text rules them out before it is split into lines.
  const phrases = probes.some(({ probe }) => probe === null);
  for (const file of scannableFiles(model)) {
    const text = scanText(model, file);
    if (text === null || (!phrases && !probes.some(({ probe }) => probe !== null && text.includes(probe)))) continue;
    const lines = fileLines(model, file);
    if (!lines) continue;
    lines.forEach((line, index) => {
      const lower = line.toLowerCase();
      for (const { token, probe } of probes) {
        if (probe !== null ? !line.includes(probe) : !lower.includes(token.split(/\s+/)[0]?.toLowerCase() ?? '')) continue;
        if (skip(file, token)) continue;
        for (const offset of tokenOffsets(line, token)) {
          mentions.push({ token, file, loc: { line: index + 1, column: offset + 1, endLine: index + 1, endColumn: offset + 1 + token.length } });
        }
      }
    });
  }
  return mentions;
}
