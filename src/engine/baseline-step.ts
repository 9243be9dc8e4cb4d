import { applyBaseline, writeBaseline, type AddedEntry, type BaselineScope } from './baseline.js';
import type { RepoModel } from '../model/model.js';
import type { Finding } from '../types.js';
import { CORE_RULES, toFinding } from './core-checks.js';
import { pathFilter } from './narrow.js';
import type { CheckOptions, SelectedRule } from './types.js';

export interface KnownStep {
  /** The findings to report: those the baseline does not know, and one per entry the change added to it. */
  kept: Finding[];
  baselined: number;
  /** Entries that match no finding any more. */
  fixed: number;
  /** With --update-baseline: the entries written. */
  written?: number;
}

/**
 * The baseline step: write it (`--update-baseline`), or leave out what it
 * knows, and report what a change added to it (with `--base`, only what it
 * held at the merge base is known). A run narrowed by `--rule` or paths
 * speaks for its part of the baseline only.
 */
export function applyBaselineStep(model: RepoModel, findings: Finding[], selected: readonly SelectedRule[], options: CheckOptions): KnownStep {
  const baselineFile = model.config.baseline;
  const scopePaths = options.staged === true ? undefined : options.paths;
  const scopeRules = options.rules === undefined || options.rules.length === 0 ? null : new Set([...selected.map((s) => s.rule.id), ...Object.keys(CORE_RULES)]);
  const withinPaths = pathFilter(scopePaths, options.cwd, model.root);
  const scope: BaselineScope | undefined =
    scopeRules === null && (scopePaths === undefined || scopePaths.length === 0) ? undefined : (entry) => (scopeRules === null || scopeRules.has(entry.ruleId)) && withinPaths(entry.file);
  if (options.updateBaseline === true) {
    const written = writeBaseline(model, scope === undefined ? findings : findings.filter((finding) => scope(finding)), baselineFile, scope);
    return { kept: findings, baselined: 0, fixed: 0, written };
  }
  if (options.baseline === false) return { kept: findings, baselined: 0, fixed: 0 };
  const atBase = options.base !== undefined && model.diff ? textAtBase(model, baselineFile) : undefined;
  const applied = applyBaseline(model, findings, baselineFile, atBase, scope);
  const ruleIds = new Set([...selected.map((s) => s.rule.id), ...Object.keys(CORE_RULES)]);
  const grown = applied.added.filter((added) => ruleIds.has(added.entry.ruleId)).map((added) => grownFinding(baselineFile, added));
  return { kept: [...applied.kept, ...grown], baselined: applied.baselined, fixed: applied.fixed };
}

/**
 * The text `file` (as named now) had at the merge base of `--base`; null
 * where it did not exist. A file git does not list (ignored) and the diff does
 * not name was never committed there: tracked at the base and ignored now, it
 * would be a deletion.
 */
function textAtBase(model: RepoModel, file: string): string | null {
  const change = model.diff?.changes.find((c) => c.path === file);
  if (change) return change.status === 'added' ? null : model.oldText(change.oldPath ?? change.path);
  return model.fileSet.has(file) ? model.text(file) : null;
}

function grownFinding(file: string, added: AddedEntry): Finding {
  const { entry } = added;
  const kind = 'messageId' in entry ? `${entry.ruleId}/${entry.messageId}` : entry.ruleId;
  const what = added.added === entry.count ? 'adds a baseline entry' : `raises by ${added.added} the count of the baseline entry`;
  const message = `this change ${what} for ${kind} in ${entry.file}: a change cannot accept its own finding, so the entry suppresses nothing. Fix the finding and drop the entry; the baseline only shrinks in a change.`;
  const related = added.unsuppressed.map((finding) => ({ file: finding.file, line: finding.line, column: finding.column, message: 'the finding the entry would hide' }));
  return toFinding('baseline-growth', 'baselineEntryAdded', 'error', file, added.loc, message, related);
}
