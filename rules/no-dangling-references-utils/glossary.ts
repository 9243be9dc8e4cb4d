import { posix } from 'node:path';
import type { RepoModel } from '../../src/model/model.js';
import { isMarkdownFile } from '../../src/util/file-kinds.js';
import { findMentions, isHistoryFile, type Mention } from './mentions.js';

// Glossaries and concept documents define the project's terms, one per heading or per `**Term**:` line.

/** A glossary or concepts document, by its file name. */
export function isGlossaryFile(file: string): boolean {
  return isMarkdownFile(file) && /(?:^|[-_.])(?:glossary|concepts?|terminology|terms|vocabulary)(?:[-_.]|$)/i.test(posix.basename(file));
}

/** A dated log (`notes/2026-11-03.md`, `log/2026-11-03-retro.md`): a record of its day, not a reference. */
export function isDatedLog(file: string): boolean {
  return /(?:^|\/)\d{4}-\d{2}-\d{2}[^/]*$/.test(file);
}

/** The terms a glossary's text defines: its headings below the title, and its `**Term**:` (or `- **Term** —`) lines. */
export function definedTerms(text: string): Set<string> {
  const terms = new Set<string>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const heading = /^#{2,6}\s+(.+?)\s*#*\s*$/.exec(line);
    const definition = /^\s*(?:[-*+]\s+)?\*\*([^*]+?)\*\*\s*(?::|—|–|-\s)/.exec(line);
    const term = (heading?.[1] ?? definition?.[1] ?? '').replace(/`/g, '').trim();
    if (term.length >= 3 && term.length <= 60 && /[A-Za-z]/.test(term)) terms.add(term);
  }
  return terms;
}

/**
 * With a diff: terms whose definition the diff removed from a glossary (the
 * file deleted, or the heading or definition line gone) and that no
 * glossary defines now, where other documentation still uses them, case and
 * words exact. History files and dated logs are records, not uses.
 */
export function removedTermMentions(model: RepoModel): { mention: Mention; glossary: string }[] {
  const diff = model.diff;
  if (!diff) return [];
  const removed = new Map<string, string>();
  for (const change of diff.changes) {
    const oldPath = change.oldPath ?? change.path;
    if (change.status === 'added' || !isGlossaryFile(oldPath)) continue;
    const before = definedTerms(model.oldText(oldPath) ?? '');
    const after = change.status === 'deleted' ? new Set<string>() : definedTerms(model.text(change.path) ?? '');
    for (const term of before) if (!after.has(term)) removed.set(term, oldPath);
  }
  if (removed.size === 0) return [];
  for (const file of model.files) if (isGlossaryFile(file)) for (const term of definedTerms(model.text(file) ?? '')) removed.delete(term);
  const skip = (file: string): boolean => !isMarkdownFile(file) || isGlossaryFile(file) || isHistoryFile(file) || isDatedLog(file);
  return findMentions(model, [...removed.keys()], skip).map((mention) => ({ mention, glossary: removed.get(mention.token) ?? '' }));
}
