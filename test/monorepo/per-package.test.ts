import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check as checkApi } from '../../src/api.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, runCli, writeFiles } from '../support/repo.js';

// fixtures/monorepo/per-package: npm workspaces. The root's configuration puts
// the paid tests under packages/*/test/evals/; packages/answers has its own,
// which puts them under test/live/ (test/evals/ there is free). Both free
// tests that are reported import the sibling @desk/test-utils, whose code calls
// the Anthropic SDK; packages/formatting has no configuration of its own.

interface Reported {
  code: number | null;
  findings: string[];
  stderr: string;
}

/** `ruleId messageId file:line ← related file:line` of each finding of a `check --format json` run. */
function check(cwd: string, ...args: string[]): Reported {
  const run = runCli(['check', '--format', 'json', ...args], cwd);
  if (run.stdout === '') return { code: run.code, findings: [], stderr: run.stderr };
  const report: { findings: { ruleId: string; messageId: string; file: string; line: number; related?: { file: string; line: number }[] }[] } = JSON.parse(run.stdout);
  const findings = report.findings.map((f) => `${f.ruleId} ${f.messageId} ${f.file}:${f.line}${(f.related ?? []).map((r) => ` ← ${r.file}:${r.line}`).join('')}`);
  return { code: run.code, findings, stderr: run.stderr };
}

const SCORE = 'no-paid-calls-in-free-tests transitivePaidCall packages/answers/test/evals/score.test.ts:2 ← packages/test-utils/src/index.ts:4';
const PREVIEW = 'no-paid-calls-in-free-tests transitivePaidCall packages/formatting/test/preview.test.ts:2 ← packages/test-utils/src/index.ts:4';

describe('a check at the root of a monorepo whose packages have their own configuration', () => {
  it("checks packages/answers against its own configuration (test/evals/ free, test/live/ paid), following its import of a sibling package, and the rest against the root's", () => {
    const dir = fixtureRepo('monorepo/per-package');
    expect(check(dir, '--no-cache')).toEqual({ code: 1, findings: [SCORE, PREVIEW], stderr: '' });
  });

  it("without the package's configuration, the root's decides the line there: the test/live/ test is free and reported, the test/evals/ one paid (the control)", () => {
    const dir = fixtureRepo('monorepo/per-package', { without: ['packages/answers/tripwire.config.json'] });
    expect(check(dir, '--no-cache')).toEqual({
      code: 1,
      findings: ['no-paid-calls-in-free-tests transitivePaidCall packages/answers/test/live/draft.test.ts:2 ← packages/test-utils/src/index.ts:4', PREVIEW],
      stderr: '',
    });
  });

  it('names every path from the repository root in the text, SARIF and GitHub reports too', () => {
    const dir = fixtureRepo('monorepo/per-package');
    const stylish = runCli(['check', '--no-cache'], dir);
    expect(stylish.stdout).toContain('packages/answers/test/evals/score.test.ts\n  2:1  error');
    expect(stylish.stdout).toContain('↳ packages/test-utils/src/index.ts:4:1');
    const sarif: { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[]; relatedLocations?: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] } = JSON.parse(
      runCli(['check', '--no-cache', '--format', 'sarif'], dir).stdout,
    );
    expect(sarif.runs[0]?.results.map((r) => `${r.ruleId} ${r.locations[0]?.physicalLocation.artifactLocation.uri}:${r.locations[0]?.physicalLocation.region.startLine} ← ${r.relatedLocations?.map((l) => l.physicalLocation.artifactLocation.uri).join(',')}`)).toEqual([
      'no-paid-calls-in-free-tests packages/answers/test/evals/score.test.ts:2 ← packages/test-utils/src/index.ts',
      'no-paid-calls-in-free-tests packages/formatting/test/preview.test.ts:2 ← packages/test-utils/src/index.ts',
    ]);
    expect(runCli(['check', '--no-cache', '--format', 'github'], dir).stdout).toContain('::error file=packages/answers/test/evals/score.test.ts,line=2,');
  });

  it('run inside the package, checks it against its own configuration and still follows the import of its sibling (paths relative to the package in JSON, as for any package root)', () => {
    const dir = fixtureRepo('monorepo/per-package');
    expect(check(join(dir, 'packages/answers'), '--no-cache')).toEqual({ code: 1, findings: ['no-paid-calls-in-free-tests transitivePaidCall test/evals/score.test.ts:2 ← ../test-utils/src/index.ts:4'], stderr: '' });
  });

  it('--workspace NAME checks only that package, against its own configuration; repeating a name checks it once', () => {
    const dir = fixtureRepo('monorepo/per-package');
    expect(check(dir, '--no-cache', '--workspace', '@desk/answers')).toEqual({ code: 1, findings: [SCORE], stderr: '' });
    expect(check(dir, '--no-cache', '--workspace', '@desk/answers', '--workspace', '@desk/answers')).toEqual({ code: 1, findings: [SCORE], stderr: '' });
  });

  it('the programmatic check is the same: every package against its own configuration, and `workspaces` as --workspace', async () => {
    const dir = fixtureRepo('monorepo/per-package');
    const located = (result: { findings: { messageId: string; file: string; line: number }[] }): string[] => result.findings.map((f) => `${f.messageId} ${f.file}:${f.line}`);
    expect(located(await checkApi({ cwd: dir, cache: false }))).toEqual(['transitivePaidCall packages/answers/test/evals/score.test.ts:2', 'transitivePaidCall packages/formatting/test/preview.test.ts:2']);
    expect(located(await checkApi({ cwd: dir, cache: false, workspaces: ['@desk/answers'] }))).toEqual(['transitivePaidCall packages/answers/test/evals/score.test.ts:2']);
  });

  it('--workspace naming no package, or a package without a configuration of its own, is a usage error listing the packages that have one', () => {
    const dir = fixtureRepo('monorepo/per-package');
    expect(check(dir, '--no-cache', '--workspace', '@desk/answer')).toEqual({
      code: 2,
      findings: [],
      stderr: "tripwire: --workspace @desk/answer: no workspace package is named so (packages with a configuration: @desk/answers)\nRun 'tripwire --help' for usage.\n",
    });
    expect(check(dir, '--no-cache', '--workspace', '@desk/formatting')).toEqual({
      code: 2,
      findings: [],
      stderr: "tripwire: --workspace @desk/formatting: packages/formatting has no configuration of its own (packages with a configuration: @desk/answers); its files are checked by the root's\nRun 'tripwire --help' for usage.\n",
    });
  });

  it('a package configuration that does not load fails the whole check (exit 2), naming the file: never a package skipped in silence', () => {
    const dir = fixtureRepo('monorepo/per-package');
    writeFiles(dir, { 'packages/answers/tripwire.config.json': '{ "tests": { "paid": 3 } }\n' });
    expect(check(dir, '--no-cache')).toEqual({
      code: 2,
      findings: [],
      stderr: 'tripwire: invalid configuration\npackages/answers/tripwire.config.json: tests.paid: expected a list of globs and map references, or one map reference { "file", "export" | "path" }, received 3\n',
    });
  });

  it('--staged at the top reports what the staged change in a package can affect, against that package\'s configuration', () => {
    const dir = fixtureRepo('monorepo/per-package');
    writeFiles(dir, {
      'packages/answers/test/evals/length.test.ts': "import { sampleReply } from '@desk/test-utils';\nexport const reply = sampleReply('How long is the trial?');\n",
      'packages/answers/test/live/tone.test.ts': "import { sampleReply } from '@desk/test-utils';\nexport const reply = sampleReply('Say thanks.');\n",
    });
    git(dir, 'add', 'packages/answers/test');
    expect(check(dir, '--no-cache', '--staged')).toEqual({
      code: 1,
      findings: ['no-paid-calls-in-free-tests transitivePaidCall packages/answers/test/evals/length.test.ts:1 ← packages/test-utils/src/index.ts:4'],
      stderr: '',
    });
  });

  it('paths narrow the report to the packages that hold them; a path in no package checked is a usage error', () => {
    const dir = fixtureRepo('monorepo/per-package');
    expect(check(dir, '--no-cache', 'packages/answers/test')).toEqual({ code: 1, findings: [SCORE], stderr: '' });
    expect(check(dir, '--no-cache', 'packages/formatting')).toEqual({ code: 1, findings: [PREVIEW], stderr: '' });
    expect(check(dir, '--no-cache', 'packages')).toEqual({ code: 1, findings: [SCORE, PREVIEW], stderr: '' });
    expect(check(dir, '--no-cache', '--workspace', '@desk/answers', 'packages/formatting').code).toBe(2);
  });
});

describe('the result cache and the baseline of a monorepo check', () => {
  it('recompute when a package configuration changes, and (inside a package) when a sibling it imports changes', () => {
    const dir = fixtureRepo('monorepo/per-package');
    const cache = mkdtempSync(join(tmpdir(), 'tripwire-results-'));
    const cached = (cwd: string): Reported & { cached: boolean } => {
      const run = runCli(['check', '--format', 'json', '--cache-location', cache], cwd);
      const report: { findings: { file: string; line: number }[]; summary: { cached?: boolean } } = JSON.parse(run.stdout);
      return { code: run.code, findings: report.findings.map((f) => `${f.file}:${f.line}`), stderr: run.stderr, cached: report.summary.cached === true };
    };
    expect(cached(dir)).toEqual({ code: 1, findings: ['packages/answers/test/evals/score.test.ts:2', 'packages/formatting/test/preview.test.ts:2'], stderr: '', cached: false });
    expect(cached(dir).cached).toBe(true);
    const config = join(dir, 'packages/answers/tripwire.config.json');
    writeFileSync(config, readFileSync(config, 'utf8').replace('"test/live/**/*.test.ts"', '"test/evals/**/*.test.ts"'));
    expect(cached(dir)).toEqual({ code: 1, findings: ['packages/answers/test/live/draft.test.ts:2', 'packages/formatting/test/preview.test.ts:2'], stderr: '', cached: false });

    const inside = join(dir, 'packages/answers');
    expect(cached(inside)).toMatchObject({ findings: ['test/live/draft.test.ts:2'], cached: false });
    expect(cached(inside).cached).toBe(true);
    writeFiles(dir, { 'packages/test-utils/src/index.ts': 'export async function sampleReply(question: string): Promise<string> {\n  return `A canned reply to: ${question}`;\n}\n' });
    expect(cached(inside)).toEqual({ code: 0, findings: [], stderr: '', cached: false });
  });

  it('--staged at the workspace root recomputes when a package configuration changes, staged or not (the configuration is read from the work tree)', () => {
    const dir = fixtureRepo('monorepo/per-package');
    const cache = mkdtempSync(join(tmpdir(), 'tripwire-results-'));
    const cached = (): boolean => {
      const run = runCli(['check', '--format', 'json', '--cache-location', cache, '--staged'], dir);
      const report: { summary: { cached?: boolean } } = JSON.parse(run.stdout);
      return report.summary.cached === true;
    };
    expect(cached()).toBe(false);
    expect(cached()).toBe(true);
    const config = join(dir, 'packages/answers/tripwire.config.json');
    writeFileSync(config, readFileSync(config, 'utf8').replace('"test/live/**/*.test.ts"', '"test/evals/**/*.test.ts"'));
    expect(cached()).toBe(false);
    expect(cached()).toBe(true);
  });

  it("--update-baseline writes each configuration's own baseline, which each package's check then reads", () => {
    const dir = fixtureRepo('monorepo/per-package');
    const update = runCli(['check', '--no-cache', '--update-baseline', '--format', 'json'], dir);
    expect(update.code).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ findings: [], summary: { baselineWritten: 2 } });
    expect(existsSync(join(dir, '.tripwire/baseline.json'))).toBe(true);
    expect(existsSync(join(dir, 'packages/answers/.tripwire/baseline.json'))).toBe(true);
    expect(readFileSync(join(dir, 'packages/answers/.tripwire/baseline.json'), 'utf8')).toContain('"test/evals/score.test.ts"');
    const run = runCli(['check', '--no-cache', '--format', 'json'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ findings: [], summary: { errors: 0, baselined: 2 } });
    rmSync(join(dir, 'packages/answers/.tripwire/baseline.json'));
    expect(check(dir, '--no-cache')).toEqual({ code: 1, findings: [SCORE], stderr: '' });
  });
});
