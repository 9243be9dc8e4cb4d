import { applyBaseline } from './baseline.js';
import { evaluate, type SelectedRule } from './index.js';
import type { RepoModel } from '../model/model.js';
import type { Finding, Fix, TextEdit } from '../types.js';

/** A fix that was planned, with the finding it removes. */
export interface PlannedFix {
  finding: Finding;
  fix: Fix;
  /** 0 for a finding of the run; later rounds find theirs in the text the earlier fixes left. */
  round: number;
}

export interface FixPlan {
  /** The text each edited file had when it was read: what the edits were computed against, and what must still be on disk. */
  originals: Map<string, string>;
  /** The text each edited file will have. */
  texts: Map<string, string>;
  applied: PlannedFix[];
}

/**
 * Fixes whose edits touch cannot be applied together (a removal and an
 * insertion at the same entry): the later one waits for the next round,
 * computed on the text the earlier ones produced.
 */
const MAX_ROUNDS = 10;

/**
 * Applies the fixes of `findings` in memory, round after round (each round
 * re-evaluates the rules on the edited texts as overlays), until nothing
 * more can be fixed. Nothing is written here.
 */
export function planFixes(model: RepoModel, selected: readonly SelectedRule[], configPath: string | null, findings: readonly Finding[]): FixPlan {
  const originals = new Map<string, string>();
  const texts = new Map<string, string>();
  const applied: PlannedFix[] = [];
  const done = new Set<string>();
  let current = findings;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const accepted = acceptNonOverlapping(current.filter((finding) => finding.fix && !done.has(fixKey(finding.fix))), round);
    if (accepted.length === 0) break;
    const byFile = new Map<string, TextEdit[]>();
    for (const { fix } of accepted) {
      done.add(fixKey(fix));
      for (const edit of fix.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
    }
    for (const [file, edits] of byFile) {
      const before = texts.get(file) ?? model.text(file);
      if (before === null) continue;
      if (!originals.has(file)) originals.set(file, before);
      texts.set(file, applyEdits(before, edits));
    }
    applied.push(...accepted);
    const next = model.withOverlays(texts);
    current = applyBaseline(next, evaluate(next, selected, configPath).findings, next.config.baseline).kept;
  }
  return { originals, texts, applied };
}

function fixKey(fix: Fix): string {
  return JSON.stringify(fix.edits);
}

/** In finding order, each fix whose edits overlap none accepted before it; insertions at one point all go in, in order. */
function acceptNonOverlapping(findings: readonly Finding[], round: number): PlannedFix[] {
  const taken: TextEdit[] = [];
  const keys = new Set<string>();
  const out: PlannedFix[] = [];
  for (const finding of findings) {
    const fix = finding.fix;
    if (!fix || keys.has(fixKey(fix))) continue;
    if (fix.edits.some((edit) => taken.some((other) => other.file === edit.file && overlaps(edit.range, other.range)))) continue;
    keys.add(fixKey(fix));
    taken.push(...fix.edits);
    out.push({ finding, fix, round });
  }
  return out;
}

function overlaps([a0, a1]: [number, number], [b0, b1]: [number, number]): boolean {
  const bothInsertions = a0 === a1 && b0 === b1;
  if (bothInsertions) return false;
  if (a0 === a1 || b0 === b1) return a0 <= b1 && b0 <= a1;
  return a0 < b1 && b0 < a1;
}

/** Edits by original offsets, applied from the end; insertions at one point keep their order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => b.edit.range[0] - a.edit.range[0] || b.index - a.index);
  let out = text;
  for (const { edit } of ordered) out = out.slice(0, edit.range[0]) + edit.text + out.slice(edit.range[1]);
  return out;
}
