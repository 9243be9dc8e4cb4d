import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureRepo } from '../support/fixture-repo.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { SHARED_MIN_FILES } from '../../src/facts/pool.js';
import { CLI_BIN, git, runCli, writeFiles } from '../support/repo.js';

// --concurrency: the facts the cache lacks are extracted on several threads
// (engine/prefetch.ts, facts/shared.ts). Whatever the number of threads, the
// report is the one the main thread alone gives. Speed is the benchmarks'
// business (bench/), never asserted here.

interface Report {
  findings: unknown[];
  summary: { ms: number; stats?: { facts: { parsed: number; workers?: { threads: number; parsed: number } } } };
}

/** The demo harness with 120 more free tests, a chain from some of them to a model SDK, and a module that does not parse. */
function largerDemo(): string {
  const dir = fixtureRepo('demo');
  const files: Record<string, string> = {
    'test/helpers/llm-client.ts': `import OpenAI from 'openai';\nexport const client = new OpenAI();\nexport async function ask(q: string) { return client.responses.create({ model: 'm', input: q }); }\n`,
    'test/helpers/broken.ts': `export const = ;\n`,
    // Read by no rule: not a test, not shipped, imported by nothing.
    'scripts/orphan-broken.ts': `function ( {\n`,
  };
  for (let i = 0; i < 120; i++) {
    const helper = i % 40 === 0 ? `import { ask } from './helpers/llm-client.js';\n` : i % 55 === 0 ? `import { value } from './helpers/broken.js';\n` : `import { score } from './helpers/local-${i % 7}.js';\n`;
    files[`test/generated-${i}.test.ts`] = `${helper}import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';\ndescribe('generated ${i}', () => {\n  it('holds ${i}', () => { expect(${i}).toBe(${i}); });\n});\n`;
  }
  for (let k = 0; k < 7; k++) files[`test/helpers/local-${k}.ts`] = `export function score(x: number): number { return x * ${k}; }\n`;
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'more tests');
  return dir;
}

function check(dir: string, ...args: string[]): Report {
  const run = runCli(['check', '--no-cache', '--format', 'json', '--stats', ...args], dir);
  expect(run.code, run.stderr).toBe(1);
  return JSON.parse(run.stdout) as Report;
}

describe('--concurrency', () => {
  it('reports the same findings on 1, 2 and 3 threads, and the threads did extract', () => {
    const dir = largerDemo();
    const alone = check(dir, '--concurrency', 'off');
    expect(alone.summary.stats?.facts.workers).toBeUndefined();
    // The chain to the SDK and the module that does not parse are found; the orphan is read by no rule.
    const text = JSON.stringify(alone.findings);
    expect(text).toContain('generated-40.test.ts');
    expect(text).toContain('test/helpers/broken.ts');
    expect(text).not.toContain('orphan-broken');
    for (const threads of ['1', '2', '3']) {
      const report = check(dir, '--concurrency', threads);
      expect(report.findings, `--concurrency ${threads}`).toEqual(alone.findings);
      expect(report.summary.stats?.facts.parsed).toBe(alone.summary.stats?.facts.parsed);
      const workers = report.summary.stats?.facts.workers;
      if (threads === '1') expect(workers).toBeUndefined();
      else {
        expect(workers?.threads).toBe(Number(threads) - 1);
        expect(workers?.parsed).toBeGreaterThan(0);
      }
    }
  });

  it('unset, a cold run with 2,000 files or more to extract shares them with a worker (given two cores), and reports what the main thread alone does', () => {
    const dir = largerDemo();
    const files: Record<string, string> = {};
    for (let i = 0; i < SHARED_MIN_FILES; i++) files[`test/bulk/case-${i}.test.ts`] = `import { it } from 'vitest';\nimport { score } from '../helpers/local-${i % 7}.js';\nit('case ${i}', () => score(${i}));\n`;
    writeFiles(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'many tests');
    const report = check(dir);
    expect(report.summary.stats?.facts.workers?.threads).toBe(availableParallelism() >= 2 ? 1 : undefined);
    expect(report.findings).toEqual(check(dir, '--concurrency', 'off').findings);
    // Warm, after an edit to no script: nothing to extract ahead, no worker.
    const cache = mkdtempSync(join(tmpdir(), 'tripwire-concurrency-'));
    const warm = (): Report => {
      const run = runCli(['check', '--format', 'json', '--stats', '--cache-location', cache], dir);
      expect(run.code, run.stderr).toBe(1);
      return JSON.parse(run.stdout) as Report;
    };
    warm();
    appendFileSync(join(dir, 'README.md'), '\nOne more line.\n');
    const after = warm();
    expect(after.summary.stats?.facts.workers).toBeUndefined();
    rmSync(cache, { recursive: true, force: true });
  });

  it('auto starts no thread for a repository this small', () => {
    const report = check(largerDemo());
    expect(report.summary.stats?.facts.workers).toBeUndefined();
  });

  it('unset, a warm run parses the scripts edited since on one worker while the fact cache loads, and reports what the main thread alone does', () => {
    const dir = largerDemo();
    const cache = mkdtempSync(join(tmpdir(), 'tripwire-concurrency-'));
    const warm = (...args: string[]): Report => {
      const run = runCli(['check', '--format', 'json', '--stats', '--cache-location', cache, ...args], dir);
      expect(run.code, run.stderr).toBe(1);
      return JSON.parse(run.stdout) as Report;
    };
    // The first run has no fact cache to overlap with: everything on the main thread.
    expect(warm().summary.stats?.facts.workers).toBeUndefined();
    appendFileSync(join(dir, 'test/helpers/local-3.ts'), "export const edited = 'yes';\n");
    const report = warm();
    expect(report.summary.stats?.facts.workers).toEqual({ threads: 1, parsed: 1 });
    expect(report.findings).toEqual(check(dir, '--concurrency', 'off').findings);
    // An explicit off keeps it on the main thread.
    appendFileSync(join(dir, 'test/helpers/local-3.ts'), "export const again = 'yes';\n");
    expect(warm('--concurrency', 'off').summary.stats?.facts.workers).toBeUndefined();
    rmSync(cache, { recursive: true, force: true });
  });

  it('run by a Node given an option no thread may take, extracts on the main thread: the same findings, and no internal error', () => {
    const dir = largerDemo();
    const cache = mkdtempSync(join(tmpdir(), 'tripwire-concurrency-'));
    // --max-semi-space-size is the process's: Node refuses a worker that would inherit it.
    const withFlag = (...args: string[]): Report => {
      const run = spawnSync(process.execPath, ['--max-semi-space-size=16', join(PACKAGE_ROOT, CLI_BIN), 'check', '--format', 'json', '--stats', '--cache-location', cache, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(run.status, run.stderr).toBe(1);
      return JSON.parse(run.stdout) as Report;
    };
    const alone = check(dir, '--concurrency', 'off');
    const pooled = withFlag('--concurrency', '3');
    expect(pooled.findings).toEqual(alone.findings);
    expect(pooled.summary.stats?.facts.workers).toBeUndefined();
    // Warm, with an edited script: the extraction ahead cannot start a worker either.
    appendFileSync(join(dir, 'test/helpers/local-3.ts'), "export const edited = 'yes';\n");
    const ahead = withFlag();
    expect(ahead.findings).toEqual(check(dir, '--concurrency', 'off').findings);
    expect(ahead.summary.stats?.facts.workers).toBeUndefined();
    rmSync(cache, { recursive: true, force: true });
  });

  it('refuses a value that is not a positive integer, auto or off', () => {
    const dir = fixtureRepo('demo');
    for (const value of ['0', '', 'two', '1.5']) {
      const run = runCli(['check', '--concurrency', value], dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--concurrency expects a positive integer, 'auto' or 'off', got '${value}'`);
    }
  });
});
