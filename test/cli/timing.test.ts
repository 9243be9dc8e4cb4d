import { describe, expect, it } from 'vitest';
import { main, type Io } from '../../src/cli/main.js';
import { RULE_IDS } from '../../src/rule-ids.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { runCli } from '../support/repo.js';

// Time per phase and rule (TIMING, --stats) and the progress line: what they print and where.
// The figures themselves are never asserted (benchmarks measure speed); their presence and shape are.

const PHASES = ['configuration and file listing', 'facts (read, parse, cache)', 'rules', 'core checks and suppressions', 'fact cache save', 'baseline and narrowing'];

describe('TIMING and --stats', () => {
  const dir = fixtureRepo('demo');

  it('TIMING=1 prints a table of phases and rules on standard error and leaves the report as it was', () => {
    const plain = runCli(['check', '--no-cache', '--format', 'json'], dir);
    const timed = runCli(['check', '--no-cache', '--format', 'json'], dir, { TIMING: '1' });
    expect(timed.code).toBe(1);
    expect(plain.stderr).toBe('');
    const strip = (text: string): unknown => ({ ...JSON.parse(text), summary: { ...JSON.parse(text).summary, ms: 0 } });
    expect(strip(timed.stdout)).toEqual(strip(plain.stdout));
    const lines = timed.stderr.split('\n');
    expect(lines[0]).toMatch(/^Phase +\| Time \(ms\) \| Relative$/);
    for (const phase of [...PHASES, 'report']) expect(lines.some((line) => line.startsWith(`${phase} `))).toBe(true);
    for (const id of RULE_IDS) expect(lines.some((line) => new RegExp(`^${id} +\\| +\\d+\\.\\d \\| +\\d+\\.\\d%$`).test(line))).toBe(true);
    expect(timed.stderr).toMatch(/Facts: \d+ file\(s\) parsed, 0 from the cache, \d+ read from disk; total \d+\.\d ms/);
  });

  it('--rule narrows the rules timed', () => {
    const run = runCli(['check', '--no-cache', '--stats', '--rule', 'tiers-cover-paid-tests'], dir);
    const ruleLines = run.stderr.split('\n').filter((line) => RULE_IDS.some((id) => line.startsWith(`${id} `)));
    expect(ruleLines.map((line) => line.split(' ')[0])).toEqual(['tiers-cover-paid-tests']);
  });

  it('--stats with --format json puts the figures in summary.stats, not on standard error', () => {
    const run = runCli(['check', '--no-cache', '--stats', '--format', 'json'], dir);
    expect(run.stderr).toBe('');
    const { summary } = JSON.parse(run.stdout) as { summary: { stats: { phases: { name: string; ms: number }[]; rules: { id: string; ms: number }[]; facts: { parsed: number; cached: number } } } };
    expect(summary.stats.phases.map((phase) => phase.name)).toEqual(PHASES);
    expect(summary.stats.rules.map((rule) => rule.id).sort()).toEqual([...RULE_IDS].sort());
    expect(summary.stats.facts.parsed).toBeGreaterThan(0);
    expect(JSON.parse(runCli(['check', '--no-cache', '--format', 'json'], dir).stdout).summary).not.toHaveProperty('stats');
  });

  it('says so when the verdict came from the result cache', () => {
    runCli(['check'], dir);
    const run = runCli(['check'], dir, { TIMING: '1' });
    expect(run.stderr).toContain('Timing: the verdict came from the result cache');
  });
});

describe('the progress line', () => {
  function terminal(cwd: string, env: Record<string, string>): Io & { err: string[] } {
    const err: string[] = [];
    return { err, stdout: () => {}, stderr: (text) => err.push(text), cwd, env, isTTY: false, stderrIsTTY: true, progressAfterMs: 0 };
  }

  it('on a terminal, reports each rule as it runs and erases itself at the end', async () => {
    const dir = fixtureRepo('demo');
    const io = terminal(dir, {});
    expect(await main(['check', '--no-cache'], io)).toBe(1);
    const progress = io.err.filter((text) => text.startsWith('\r\x1b[2K'));
    expect(progress.some((text) => /^\r\x1b\[2Ktripwire: checking no-paid-calls-in-free-tests · facts of \d+ file\(s\) · \d+\.\d s$/.test(text))).toBe(true);
    expect(progress.some((text) => text.includes('checking no-weakened-frozen-tests'))).toBe(true);
    expect(progress.at(-1)).toBe('\r\x1b[2K');
  });

  it('never in CI, and never when standard error is not a terminal', async () => {
    const dir = fixtureRepo('demo');
    const ci = terminal(dir, { CI: 'true' });
    expect(await main(['check', '--no-cache'], ci)).toBe(1);
    expect(ci.err).toEqual([]);
    const piped = { ...terminal(dir, {}), stderrIsTTY: false };
    expect(await main(['check', '--no-cache'], piped)).toBe(1);
    expect(piped.err).toEqual([]);
  });
});
