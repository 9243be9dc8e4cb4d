import { compareText } from './compare.js';

/**
 * Where one run's time went, for `TIMING=1` and `--stats`: each phase in run
 * order, each rule's own time (the facts it was first to ask for are counted
 * under facts, not under the rule), and how many files' facts were parsed or
 * found in the cache.
 */
export interface RunStats {
  phases: PhaseTime[];
  rules: RuleTime[];
  facts: { parsed: number; cached: number; read: number; workers?: { threads: number; parsed: number } };
}

export interface PhaseTime {
  name: string;
  ms: number;
}

export interface RuleTime {
  id: string;
  ms: number;
  /** Its findings were an earlier run's: no file it read had changed (engine/verdicts.ts). */
  reused?: true;
  /** Of a rule evaluated unit by unit (a free test, …): how many units were evaluated, and how many taken from an earlier run. */
  units?: { evaluated: number; reused: number };
  /** Only its units were evaluated: nothing else it read had changed (TripwireRule.resume). */
  resumed?: true;
}

/** Milliseconds with one decimal: enough to rank rules, stable enough to read. */
export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** A stopwatch over consecutive phases: `lap(name)` closes the phase that began at the previous lap. */
export function stopwatch(now: () => number = () => performance.now()): { lap(name: string, minus?: number): void; phases: PhaseTime[] } {
  let last = now();
  const phases: PhaseTime[] = [];
  return {
    phases,
    lap(name, minus = 0) {
      const at = now();
      phases.push({ name, ms: roundMs(Math.max(0, at - last - minus)) });
      last = at;
    },
  };
}

/**
 * The table `TIMING` prints on standard error, as ESLint's does: phases, then
 * rules by time, each with its share of the total. `TIMING=all` lists every
 * rule; any other value the ten slowest.
 */
export function formatStats(stats: RunStats, all: boolean): string {
  const total = stats.phases.reduce((sum, phase) => sum + phase.ms, 0);
  const share = (ms: number): string => (total > 0 ? `${((100 * ms) / total).toFixed(1)}%` : '–');
  const rows: string[][] = [['Phase', 'Time (ms)', 'Relative']];
  for (const phase of stats.phases) rows.push([phase.name, phase.ms.toFixed(1), share(phase.ms)]);
  const rules = [...stats.rules].sort((a, b) => b.ms - a.ms || compareText(a.id, b.id));
  const ruleRows: string[][] = [['Rule', 'Time (ms)', 'Relative']];
  for (const rule of all ? rules : rules.slice(0, 10)) ruleRows.push([ruleLabel(rule), rule.ms.toFixed(1), share(rule.ms)]);
  const { parsed, cached, read, workers } = stats.facts;
  const threads = workers === undefined ? '' : ` (${workers.parsed} of them by ${workers.threads} worker thread${workers.threads === 1 ? '' : 's'})`;
  return `${table(rows)}\n${table(ruleRows)}\nFacts: ${parsed} file(s) parsed${threads}, ${cached} from the cache, ${read} read from disk; total ${total.toFixed(1)} ms\n`;
}

function table(rows: string[][]): string {
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ');
  // A Markdown table, as ESLint prints it: the name column aligned left, the figures right.
  const rule = widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width)}` : `${'-'.repeat(column === widths.length - 1 ? width : width + 1)}:`)).join('|');
  return `${[line(rows[0] ?? []), rule, ...rows.slice(1).map(line)].join('\n')}\n`;
}

function ruleLabel(rule: RuleTime): string {
  if (rule.reused) return `${rule.id} (reused)`;
  if (rule.units && rule.units.reused > 0) return `${rule.id} (${rule.units.evaluated} of ${rule.units.evaluated + rule.units.reused} units${rule.resumed ? ', resumed' : ''})`;
  return rule.id;
}
