import { describe, expect, it } from 'vitest';
import { terminalProgress, wantsProgress } from '../../src/util/progress.js';
import { formatStats, stopwatch, type RunStats } from '../../src/util/timing.js';

/** A clock the test moves by hand: progress and laps are decided by it, never by real time. */
function clock(start = 1000): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => void (at += ms) };
}

describe('stopwatch', () => {
  it('times each phase from the previous lap, less the time counted elsewhere', () => {
    const time = clock();
    const watch = stopwatch(time.now);
    time.advance(12.34);
    watch.lap('listing');
    time.advance(50);
    watch.lap('core', 20);
    time.advance(5);
    watch.lap('never negative', 9);
    expect(watch.phases).toEqual([
      { name: 'listing', ms: 12.3 },
      { name: 'core', ms: 30 },
      { name: 'never negative', ms: 0 },
    ]);
  });
});

describe('formatStats', () => {
  const rules = Array.from({ length: 12 }, (_, i) => ({ id: `rule-${String(i).padStart(2, '0')}`, ms: i }));
  const stats: RunStats = { phases: [{ name: 'facts (read, parse, cache)', ms: 60 }, { name: 'rules', ms: 40 }], rules, facts: { parsed: 3, cached: 4, read: 5 } };

  it('prints phases, then the ten slowest rules by time with their share, as ESLint does', () => {
    const text = formatStats(stats, false);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^Phase +\| Time \(ms\) \| Relative$/);
    expect(lines[1]).toMatch(/^:-+\|-+:\|-+:$/);
    expect(lines[2]).toMatch(/^facts \(read, parse, cache\) \| +60\.0 \| +60\.0%$/);
    const ruleRows = lines.filter((line) => line.startsWith('rule-'));
    expect(ruleRows).toHaveLength(10);
    expect(ruleRows[0]).toMatch(/^rule-11 \| +11\.0 \| +11\.0%$/);
    expect(ruleRows.at(-1)).toMatch(/^rule-02 /);
    expect(text).toContain('Facts: 3 file(s) parsed, 4 from the cache, 5 read from disk; total 100.0 ms');
  });

  it('lists every rule with TIMING=all', () => {
    expect(formatStats(stats, true).split('\n').filter((line) => line.startsWith('rule-'))).toHaveLength(12);
  });

  it('lines every row up with the header (a Markdown table)', () => {
    const lines = formatStats(stats, false).split('\n\n')[0]?.trim().split('\n') ?? [];
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});

describe('terminalProgress', () => {
  it('writes nothing for a run shorter than afterMs, and erases nothing', () => {
    const time = clock();
    const written: string[] = [];
    const progress = terminalProgress({ write: (text) => written.push(text), afterMs: 2000, now: time.now });
    progress.phase('checking a');
    time.advance(1999);
    progress.facts(10);
    progress.done();
    expect(written).toEqual([]);
  });

  it('after afterMs shows the phase and count at most once per everyMs, a new phase at once, and erases its line at the end', () => {
    const time = clock();
    const written: string[] = [];
    const progress = terminalProgress({ write: (text) => written.push(text), afterMs: 2000, everyMs: 100, now: time.now });
    progress.phase('checking no-paid-calls-in-free-tests');
    time.advance(2000);
    progress.facts(7);
    time.advance(50);
    progress.facts(8);
    progress.phase('checking no-test-carve-outs');
    time.advance(150);
    progress.facts(9);
    progress.done();
    expect(written).toEqual([
      '\r\x1b[2Ktripwire: checking no-paid-calls-in-free-tests · facts of 7 file(s) · 2.0 s',
      '\r\x1b[2Ktripwire: checking no-test-carve-outs · facts of 8 file(s) · 2.0 s',
      '\r\x1b[2Ktripwire: checking no-test-carve-outs · facts of 9 file(s) · 2.2 s',
      '\r\x1b[2K',
    ]);
  });
});

describe('wantsProgress', () => {
  it('only on a terminal, and never in CI', () => {
    expect(wantsProgress(true, {})).toBe(true);
    expect(wantsProgress(true, { CI: 'false' })).toBe(true);
    expect(wantsProgress(false, {})).toBe(false);
    expect(wantsProgress(true, { CI: 'true' })).toBe(false);
    expect(wantsProgress(true, { CI: '1' })).toBe(false);
  });
});
