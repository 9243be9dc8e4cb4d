import { compileGlobs, globTooComplex } from '../util/glob.js';
import { compareText } from '../util/compare.js';
import type { LaneChange, MapChange, SelectedId, SelectReason, Selection } from './selection-types.js';

/**
 * The paid ids a set of changed files selects: an id whose globs match a
 * changed file, or every id when a global touchfile changed. Ids with no
 * touchfile entry are selected by a change to their own test file, so that a
 * gap in the map never hides a changed test. A paid lane in CI whose
 * definition changed selects every id.
 */
export function selectIds(selection: Selection, changedFiles: readonly string[], options: { tier?: string; mapChanges?: readonly MapChange[]; laneChanges?: readonly LaneChange[] } = {}): SelectedId[] {
  const selected = new Map<string, SelectedId>();
  const add = (id: string, reason: SelectReason): void => {
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
  for (const change of options.mapChanges ?? []) add(change.id, { file: change.file, glob: change.map, global: false, mapDiff: change.change });
  // A paid lane whose definition changed runs every paid test differently: each is selected (the tier still applies).
  for (const change of options.laneChanges ?? []) for (const id of allIds) add(id, { file: change.file, glob: `job ${change.job}`, global: false, lane: change.change });
  return [...selected.values()].sort((a, b) => compareText(a.id, b.id));
}

/** A glob refused as too complex (a finding in check) selects on every change: never a paid test missed. */
function matcher(glob: string): (file: string) => boolean {
  return globTooComplex(glob) === null ? compileGlobs([glob]) : () => true;
}

/**
 * The keys whose entries differ between the maps at the merge base (`then`)
 * and now: a new key, changed touchfile globs (or an entry that does not
 * evaluate on one side), a changed tier. A removed key selects nothing: no
 * entry is left to run it by.
 */
export function mapChanges(then: Selection, now: Selection, tierMap: string): MapChange[] {
  const before = entriesByKey(then);
  const after = entriesByKey(now);
  const changes: MapChange[] = [];
  for (const entry of now.touchfiles) {
    const id = entry.key.value;
    if (changes.some((c) => c.id === id)) continue;
    const old = before.get(id);
    const change = old === undefined ? 'added' : old !== after.get(id) ? 'globs' : null;
    if (change !== null) changes.push({ id, file: entry.key.file, map: entry.map, change });
  }
  for (const [id, tier] of now.tiers ?? []) {
    const old = then.tiers?.get(id);
    if (old === undefined || old.value === tier.value || changes.some((c) => c.id === id)) continue;
    changes.push({ id, file: tier.file, map: tierMap, change: 'tier' });
  }
  return changes;
}

/** Each key's entries as one comparable string: the maps it is in, whether it evaluated, its globs (sorted, unique). */
function entriesByKey(selection: Selection): Map<string, string> {
  const parts = new Map<string, Set<string>>();
  for (const entry of selection.touchfiles) {
    const set = parts.get(entry.key.value) ?? new Set<string>();
    set.add(`map ${entry.map}${entry.unevaluated ? ' (unevaluated)' : ''}`);
    for (const glob of entry.globs) set.add(glob.value);
    parts.set(entry.key.value, set);
  }
  return new Map([...parts].map(([key, set]) => [key, [...set].sort(compareText).join('\n')]));
}
