import type { RepoModel } from '../../src/model/model.js';
import { isScriptFile } from '../../src/util/file-kinds.js';
import type { Fix, Loc } from '../../src/types.js';
import { replaceString, stringLiteralAt } from '../../src/analysis/literal-edits.js';

/**
 * The path git's rename detection says `path` became in the diff since the
 * merge base (`--base`), when that file exists now; null without a diff, for
 * a deletion, or when the path is still there.
 */
export function renamedPath(model: RepoModel, path: string): string | null {
  if (!model.diff || model.fileSet.has(path)) return null;
  const change = model.diff.changes.find((c) => c.status === 'renamed' && c.oldPath === path);
  return change && model.fileSet.has(change.path) ? change.path : null;
}

/**
 * Replaces the string literal at `loc` of a TS/JS file, whose value is the
 * old path exactly, by the path git renamed it to, keeping its quotes.
 */
export function renameFix(model: RepoModel, file: string, loc: Loc, old: string): { fix?: Fix } {
  const renamed = renamedPath(model, old);
  if (renamed === null || !isScriptFile(file)) return {};
  const text = model.text(file);
  const literal = text === null ? null : stringLiteralAt(model, file, text, loc);
  if (text === null || !literal || literal.text !== old) return {};
  const { range, text: replacement } = replaceString({ text, source: literal.getSourceFile() }, literal, renamed);
  return { fix: { messageId: 'replaceRenamedPath', description: `replace '${old}' by '${renamed}', the name git gives it since the merge base`, edits: [{ file, range, text: replacement }] } };
}
