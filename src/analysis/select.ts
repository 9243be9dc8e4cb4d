import { compileGlobs, globTooComplex } from '../util/glob.js';
import { compareText } from '../util/compare.js';
import type { SelectedId, Selection } from './selection-types.js';

/**
 * The paid ids a set of changed files selects: an id whose globs match a
 * changed file, or every id when a global touchfile changed. Ids with no
 * touchfile entry are selected by a change to their own test file, so that a
 * gap in the map never hides a changed test.
 */
export function selectIds(selection: Selection, changedFiles: readonly string[], options: { tier?: string } = {}): SelectedId[] {
  const selected = new Map<string, SelectedId>();
  const add = (id: string, reason: SelectedId['reasons'][number]): void => {
    const tier = selection.tiers?.get(id)?.value ?? null;
    if (options.tier !== undefined && tier !== options.tier) return;
    let entry = selected.get(id);
    if (!entry) {
      entry = { id, tier, reasons: [] };
      selected.set(id, entry);
    }
    if (!entry.reasons.some((r) => r.file === reason.file && r.glob === reason.glob)) entry.reasons.push(reason);
  };

  const allIds = new Set([...selection.touchfiles.map((entry) => entry.key.value), ...selection.paidIds.map((p) => p.id)]);
  for (const global of selection.globals ?? []) {
    const matches = matcher(global.value);
    for (const file of changedFiles) {
      if (matches(file)) for (const id of allIds) add(id, { file, glob: global.value, global: true });
    }
  }
  for (const entry of selection.touchfiles) {
    for (const glob of entry.globs) {
      const matches = matcher(glob.value);
      for (const file of changedFiles) if (matches(file)) add(entry.key.value, { file, glob: glob.value, global: false });
    }
  }
  for (const paid of selection.paidIds) {
    if (changedFiles.includes(paid.file)) add(paid.id, { file: paid.file, glob: paid.file, global: false });
  }
  return [...selected.values()].sort((a, b) => compareText(a.id, b.id));
}

/** A glob refused as too complex (a finding in check) selects on every change: never a paid test missed. */
function matcher(glob: string): (file: string) => boolean {
  return globTooComplex(glob) === null ? compileGlobs([glob]) : () => true;
}
