import type { MapCoverage } from '../types.js';
import type { RepoModel } from '../model/model.js';
import { mapLabel, touchfileRefs } from '../config/refs.js';
import { selectionOf } from './selection.js';
import { compareText } from '../util/compare.js';

/** Every paid test id, once (at its first declaration), against the touchfile and tier maps. */
export function mapCoverage(model: RepoModel): MapCoverage {
  const maps = model.config.maps;
  const touchfileMaps = maps ? touchfileRefs(model.config).map(mapLabel) : [];
  const tierMap = maps?.tiers ? mapLabel(maps.tiers) : null;
  if (!maps) return { touchfileMaps, tierMap, ids: [] };
  const { selection } = selectionOf(model);
  const keys = new Set(selection.touchfiles.map((entry) => entry.key.value));
  const rows = new Map<string, MapCoverage['ids'][number]>();
  for (const paid of selection.paidIds) {
    if (rows.has(paid.id)) continue;
    const tier = selection.tiers?.get(paid.id);
    rows.set(paid.id, { id: paid.id, file: paid.file, line: paid.loc.line, touchfile: keys.has(paid.id), hasTier: tier !== undefined, tier: tier?.value ?? null });
  }
  // Code-unit order, as the reports sort: never the machine's locale.
  return { touchfileMaps, tierMap, ids: [...rows.values()].sort((a, b) => compareText(a.id, b.id)) };
}
