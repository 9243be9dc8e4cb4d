import type { RunStats } from './util/timing.js';

/** 1-based positions, columns counted in UTF-16 code units like ESLint. */
export interface Loc {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export type Severity = 'error' | 'warn';
export type SeveritySetting = Severity | 'off';

export interface Related {
  file: string;
  line: number;
  column?: number;
  message?: string;
}

/**
 * One step on the way from a free test to a paid call: the test first, the
 * paid call (an SDK, a spawn, a request, a key read) last. `line` is absent
 * where the step has no position of its own (a module run on import, an SDK).
 */
export interface ChainLink {
  label: string;
  file: string;
  line?: number;
}

export interface Finding {
  ruleId: string;
  /** The kind of finding: camelCase, stable across releases, listed in the rule's doc. */
  messageId: string;
  severity: Severity;
  /** Repository-relative, forward slashes. */
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  message: string;
  related?: Related[];
  /**
   * The whole chain to a paid call, in order, for the reporters that draw it
   * (markdown). Not part of the JSON output contract: `related` carries the
   * steps that have a position.
   */
  chain?: ChainLink[];
  /** A mechanical fix: `tripwire fix` applies it, ESLint offers it as a suggestion. */
  fix?: Fix;
}

/** Replace `range` (UTF-16 offsets into the file's current text, end exclusive) of `file` with `text`. */
export interface TextEdit {
  /** Repository-relative, forward slashes. */
  file: string;
  range: [number, number];
  text: string;
}

/** A fix that needs no judgement: the edits that make the finding go away, never a guess. */
export interface Fix {
  /** The kind of fix (camelCase, listed in the rule's doc under "Fixes"); ESLint's suggestion message id. */
  messageId: string;
  /** What it does, in one line. */
  description: string;
  edits: TextEdit[];
}

export interface Summary {
  errors: number;
  warnings: number;
  files: number;
  rules: number;
  ms: number;
  suppressed?: number;
  /** Findings the baseline knows, not reported. */
  baselined?: number;
  /** Baseline entries that match no finding any more: the baseline can shrink. */
  baselineFixed?: number;
  /** With --update-baseline: the entries written. */
  baselineWritten?: number;
  /** The verdict of an earlier run with the same inputs (the CLI's result cache), not recomputed. */
  cached?: boolean;
  /** With --stats and --format json: where the time went. */
  stats?: RunStats;
}

/** A paid test id and whether each selection map has it. */
export interface CoverageRow {
  id: string;
  /** Where the id is declared (relative to the root). */
  file: string;
  line: number;
  /** A touchfile map has an entry for it. */
  touchfile: boolean;
  /** The tier map has an entry for it (its value may not be evaluable: `tier` is null then). */
  hasTier: boolean;
  tier: string | null;
}

/** The paid test ids against the touchfile and tier maps, for the reports that show it (markdown). */
export interface MapCoverage {
  /** The configured touchfile maps (export names, or `file#path`); empty when none is. */
  touchfileMaps: string[];
  /** The configured tier map, or null. */
  tierMap: string | null;
  ids: CoverageRow[];
}

export interface CheckResult {
  findings: Finding[];
  summary: Summary;
  /** Computed only when asked (`CheckOptions.coverage`); never in the JSON output. */
  coverage?: MapCoverage;
}
