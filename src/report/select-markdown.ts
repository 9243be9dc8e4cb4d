import type { SelectedId } from '../analysis/selection-types.js';
import { escapeMarkdown, table, truncate } from './markdown-text.js';
import { plural } from '../util/text.js';

/** What `tripwire select` found: its JSON output, which this renders. */
export interface SelectReport {
  base: string | null;
  changed: string[];
  selected: SelectedId[];
  total: number;
}

const LIMITS = { rows: 200, reasons: 5, text: 200 } as const;

/** What changed in a key's map entry, as the reason of a map-diff selection says it. */
export const MAP_DIFF = { added: 'new entry', globs: 'globs changed', tier: 'tier changed' } as const;
/** What changed in a paid CI job, as the reason of a lane selection says it. */
export const LANE_CHANGE = { added: 'the paid lane, new', changed: 'the paid lane, changed' } as const;

function reason(r: SelectedId['reasons'][number]): string {
  const file = escapeMarkdown(truncate(r.file, LIMITS.text));
  if (r.mapDiff !== undefined) return `${file} (${escapeMarkdown(truncate(r.glob, LIMITS.text))}: ${MAP_DIFF[r.mapDiff]})`;
  if (r.lane !== undefined) return `${file} (${escapeMarkdown(truncate(r.glob, LIMITS.text))}: ${LANE_CHANGE[r.lane]})`;
  if (r.global) return `${file} (global touchfile)`;
  return r.glob === r.file ? file : `${file} (${escapeMarkdown(truncate(r.glob, LIMITS.text))})`;
}

/** `tripwire select --format markdown`: the selected ids, their tiers and the changed files that selected each, for a job summary. */
export function selectMarkdown({ base, changed, selected, total }: SelectReport, tier: string | undefined): string {
  const scope = tier === undefined ? '' : ` (tier ${escapeMarkdown(tier)})`;
  const globals = [...new Set(selected.flatMap((s) => s.reasons.filter((r) => r.global).map((r) => r.file)))];
  const count = globals.length > 0 ? `all ${plural(selected.length, 'paid test')} selected${scope}` : `${selected.length} of ${plural(total, 'paid test')} selected${scope}`;
  const since = base === null ? 'staged (the index against HEAD)' : `since the merge base ${escapeMarkdown(base.slice(0, 12))}`;
  const parts = [`## tripwire select: ${count}`, `${plural(changed.length, 'changed file')} ${since}.`];
  if (globals.length > 0) parts.push(`A global touchfile changed (${globals.map((file) => escapeMarkdown(truncate(file, LIMITS.text))).join(', ')}): every paid test is selected.`);
  if (selected.length === 0) return `${parts.join('\n\n')}\n`;
  const shown = selected.slice(0, LIMITS.rows);
  const rows = shown.map((s) => {
    const reasons = s.reasons.slice(0, LIMITS.reasons).map(reason);
    if (s.reasons.length > LIMITS.reasons) reasons.push(`… and ${s.reasons.length - LIMITS.reasons} more`);
    return [escapeMarkdown(truncate(s.id, LIMITS.text)), s.tier === null ? 'no tier' : escapeMarkdown(s.tier), reasons.join('<br>')];
  });
  parts.push(table(['paid test id', 'tier', 'selected by (changed file and the glob it matched)'], rows));
  if (selected.length > shown.length) parts.push(`… and ${selected.length - shown.length} more selected ids: \`tripwire select --format json\` lists them all.`);
  return `${parts.join('\n\n')}\n`;
}
