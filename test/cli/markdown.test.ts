import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPORTER_NAMES } from '../../src/report/index.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { runCli } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function demo(): string {
  const dir = fixtureRepo('demo');
  temps.push(dir);
  return dir;
}

const ORACLE_ROW = '| error | test/oracle.test.ts:3 | transitivePaidCall | free test reaches a paid call through';
const CHART = [
  '```mermaid',
  'flowchart LR',
  '  n0["test/oracle.test.ts:3"]',
  '  n1["compareToOracle (test/helpers/oracle.ts:18)"]',
  '  n2["judgeSameIssue (test/helpers/judge.ts:17)"]',
  '  n3["ask (test/helpers/judge.ts:6)"]',
  '  n4["#64;anthropic-ai/sdk"]',
  '  n0 --> n1',
  '  n1 --> n2',
  '  n2 --> n3',
  '  n3 --> n4',
  '```',
].join('\n');
const COVERAGE_ROW = '| review-cost-budget | test/e2e-quality.test.ts:17 | ❌ uncovered | ✅ periodic |';

describe('tripwire check --format markdown', () => {
  it('prints the demo report: the verdict, each finding by rule, the chain to the SDK and the maps coverage; exit 1', () => {
    const run = runCli(['check', '--format', 'markdown', '--no-cache'], demo());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^## ❌ tripwire found errors: 6 errors, 1 warning\n\n28 files · 8 rules · \d+ ms\n\n### \[global-touchfiles-present\]\(https:\/\/github\.com\/tripwire-lint\/tripwire\/blob\/main\/rules\/global-touchfiles-present\.md\) · 1 error\n/);
    expect(run.stdout).toContain(`\n${ORACLE_ROW}`);
    expect(run.stdout).toContain('\n| error | test/e2e-quality.test.ts:17 | missingTouchfileEntry | paid test id \'review-cost-budget\' has no touchfile entry');
    expect(run.stdout).toContain(`\n${CHART}\n`);
    expect(run.stdout).toContain('\n3 of 4 paid test ids have a touchfile entry; 4 of 4 have a tier.\n');
    expect(run.stdout).toContain(`\n${COVERAGE_ROW}\n`);
  });

  it('shows the coverage after a json run stored a verdict without it, and from the result cache after that', () => {
    const dir = demo();
    const json = runCli(['check', '--format', 'json'], dir);
    expect(json.code).toBe(1);
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual(['findings', 'summary']);
    const fresh = runCli(['check', '--format', 'markdown'], dir);
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toContain(`\n${COVERAGE_ROW}\n`);
    expect(fresh.stdout).not.toContain('verdict from the result cache');
    const cached = runCli(['check', '--format', 'markdown'], dir);
    expect(cached.code).toBe(1);
    expect(cached.stdout).toMatch(/^## ❌ tripwire found errors: 6 errors, 1 warning\n\n28 files · 8 rules · \d+ ms · verdict from the result cache\n/);
    expect(cached.stdout).toContain(`\n${COVERAGE_ROW}\n`);
    expect(cached.stdout).toContain(`\n${CHART}\n`);
  });

  it('--quiet leaves the warning out of the markdown report too', () => {
    const run = runCli(['check', '--format', 'markdown', '--quiet', '--no-cache'], demo());
    expect(run.stdout).toMatch(/^## ❌ tripwire found errors: 6 errors, 0 warnings\n/);
    expect(run.stdout).not.toContain('no-dangling-references');
  });
});

describe('help and README list the markdown format', () => {
  const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');

  it('check --help and the README option table name every reporter', () => {
    const help = runCli(['check', '--help'], PACKAGE_ROOT).stdout;
    expect(help).toContain(`--format NAME          ${REPORTER_NAMES.join(' | ')} (default: stylish)`);
    expect(REPORTER_NAMES).toContain('markdown');
    expect(readme).toContain(`| \`--format ${REPORTER_NAMES.join('\\|')}\` |`);
  });

  it('select --help and the README name text, json and markdown', () => {
    expect(runCli(['select', '--help'], PACKAGE_ROOT).stdout).toContain('--format NAME          text | json | markdown (default: text)');
    expect(readme).toContain('npx tripwire select --base origin/main --format markdown');
  });
});
