import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { initCommand } from '../../src/cli/commands/init.js';
import type { Io } from '../../src/cli/main.js';
import { SCHEMA_ID } from '../../src/config/json-schema.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { makeGitRepo, runCli } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function repo(name: string, without: string[] = []): string {
  const dir = fixtureRepo(name, { without });
  temps.push(dir);
  return dir;
}

function writtenConfig(dir: string): unknown {
  return JSON.parse(readFileSync(join(dir, 'tripwire.config.json'), 'utf8'));
}

interface JsonFinding {
  ruleId: string;
  file: string;
}

function checkJson(dir: string): { code: number | null; stderr: string; findings: { ruleId: string; file: string }[] } {
  const run = runCli(['check', '--no-cache', '--format', 'json'], dir);
  const report: { findings: JsonFinding[] } = JSON.parse(run.stdout);
  return { code: run.code, stderr: run.stderr, findings: report.findings.map((f) => ({ ruleId: f.ruleId, file: f.file })) };
}

describe('tripwire init on three kinds of repository', () => {
  it('vitest, tests beside the sources: reads vitest.config.ts, keeps the free test that reaches the model free, finds the maps, ids and self-gate', () => {
    const dir = repo('init/vitest-colocated');
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('wrote tripwire.config.json');
    expect(run.stdout).not.toContain('[Y/n]');
    // It reaches the SDK only through product code (src/client.ts): a kind only the strict preset reports, so init does not promise that check will.
    expect(run.stdout).not.toContain('src/answer.test.ts stays free');
    expect(writtenConfig(dir)).toEqual({
      $schema: SCHEMA_ID,
      tests: {
        include: ['src/**/*.test.ts', 'evals/**/*.test.ts', '!evals/samples/**'],
        paid: ['evals/**/*.test.ts'],
        ids: [{ call: 'defineEval', arg: 0, property: 'id' }],
        selfGate: [{ env: 'EVAL_TIER' }],
      },
      maps: {
        touchfiles: { file: 'evals/touchfiles.ts', export: 'EVAL_TOUCHFILES' },
        tiers: { file: 'evals/touchfiles.ts', export: 'EVAL_TIERS', values: ['pr', 'nightly'] },
        globals: { file: 'evals/touchfiles.ts', export: 'ALWAYS_RUN', require: ['evals/harness.ts'] },
      },
      shipped: { include: ['prompts/**', 'src/**'], exclude: ['src/**/*.test.ts', 'evals/**/*.test.ts'] },
    });

    const check = checkJson(dir);
    expect(check.stderr).toBe('');
    // The SDK is imported by product code (src/client.ts), not by the test: a heuristic kind, reported under `strict` only.
    expect(check.findings).toEqual([]);
    expect(check.code).toBe(0);
  });

  it('jest, maps in JSON: reads the "jest" key of package.json and the testPathIgnorePatterns of `npm test`, and addresses the maps by dot path', () => {
    const dir = repo('init/jest-json-maps');
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('package.json "jest" testMatch: 4 test files under __tests__/, llm-tests/');
    expect(writtenConfig(dir)).toEqual({
      $schema: SCHEMA_ID,
      tests: {
        include: ['**/__tests__/**/*.test.js', '**/llm-tests/**/*.test.js'],
        paid: ['llm-tests/**/*.test.js'],
        ids: [{ call: 'llmTest', arg: 0 }],
      },
      maps: {
        touchfiles: { file: 'llm-tests/selection.json', path: 'touchfiles' },
        tiers: { file: 'llm-tests/selection.json', path: 'tiers', values: ['gate', 'periodic'] },
        globals: { file: 'llm-tests/selection.json', path: 'globals', require: ['llm-tests/harness.js'] },
      },
      shipped: { include: ['prompts/**', 'lib/**'] },
    });

    const check = checkJson(dir);
    expect(check.stderr).toBe('');
    expect(check.findings).toEqual([]);
    expect(check.code).toBe(0);
  });

  it('bun:test, touchfile maps split over two files: configures both, the tier map and the global list from a third, and the SKILL.md outside the fixtures', () => {
    const dir = repo('init/bun-split-maps');
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/test runner +bun:test/);
    expect(writtenConfig(dir)).toEqual({
      $schema: SCHEMA_ID,
      tests: {
        include: ['test/**/*.test.ts'],
        paid: ['test/evals/**/*.test.ts'],
        ids: [{ call: 'evalCase', arg: 0 }],
        selfGate: [{ call: 'describeTier', arg: 0 }],
      },
      maps: {
        touchfiles: [
          { file: 'test/evals/maps/agent.ts', export: 'AGENT_TOUCHFILES' },
          { file: 'test/evals/maps/search.ts', export: 'SEARCH_TOUCHFILES' },
        ],
        tiers: { file: 'test/evals/maps/tiers.ts', export: 'EVAL_TIERS', values: ['gate', 'periodic'] },
        globals: { file: 'test/evals/maps/tiers.ts', export: 'GLOBAL_TOUCHFILES', require: ['test/evals/harness.ts', 'test/setup.ts'] },
      },
      shipped: { include: ['skills/**/SKILL.md'] },
    });

    const check = checkJson(dir);
    expect(check.stderr).toBe('');
    expect(check.findings).toEqual([]);
    expect(check.code).toBe(0);
  });
});

describe('tripwire init against hand-written configurations', () => {
  it('infers the tests and maps of the map rules\' known-good harness exactly as they were written by hand', () => {
    const handWritten = parse(readFileSync(join(PACKAGE_ROOT, 'fixtures/maps/good/tripwire.config.json'), 'utf8'));
    const dir = repo('maps/good', ['tripwire.config.json']);
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.code).toBe(0);
    const written = writtenConfig(dir);
    expect(written).toMatchObject({ tests: handWritten.tests, maps: handWritten.maps });
    expect(checkJson(dir)).toMatchObject({ code: 0, findings: [] });
  });

  it('on the demo, trusts `npm test` over reachability: the free test that reaches the model stays free, and check reports it', () => {
    const dir = repo('demo', ['tripwire.config.json']);
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('test/oracle.test.ts stays free');
    expect(writtenConfig(dir)).toMatchObject({ tests: { paid: ['test/e2e-*.test.ts'] } });
    const check = checkJson(dir);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(1);
    expect(check.findings).toContainEqual({ ruleId: 'no-paid-calls-in-free-tests', file: 'test/oracle.test.ts' });
  });
});

describe('tripwire init on files nested deeper than the parser goes', () => {
  it('infers from what it can read, and never crashes: a vitest config and a paid test of 10,000 nested brackets', () => {
    // Parsing them ran the compiler out of stack: "internal error" and no configuration.
    const dir = makeGitRepo({
      'package.json': JSON.stringify({ name: 'deep', scripts: { test: 'vitest run', 'test:evals': 'EVALS=1 vitest run test/evals' }, devDependencies: { vitest: '3.2.4' } }),
      'vitest.config.ts': `export default ${'('.repeat(10_000)}{}${')'.repeat(10_000)};\n`,
      'test/evals/judge.test.ts': `import OpenAI from 'openai';\nexport const rows = ${'['.repeat(10_000)}${']'.repeat(10_000)};\n`,
      'test/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
    });
    temps.push(dir);
    const run = runCli(['init', '--no-cache', '--dry-run'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const config = parse(run.stdout.slice(run.stdout.indexOf('{')));
    expect(config.tests).toEqual({ include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'] });
  });
});

describe('tripwire init writes carefully', () => {
  it('never overwrites an existing configuration without --force', () => {
    const dir = repo('init/bun-split-maps');
    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] } }\n');
    const refused = runCli(['init', '--no-cache'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('tripwire.config.json already configures tripwire; not overwritten. Run `tripwire init --force`');
    expect(readFileSync(join(dir, 'tripwire.config.json'), 'utf8')).toBe('{ "tests": { "include": ["test/**/*.test.ts"] } }\n');

    const forced = runCli(['init', '--no-cache', '--force'], dir);
    expect(forced.code).toBe(0);
    expect(writtenConfig(dir)).toMatchObject({ $schema: SCHEMA_ID, tests: { paid: ['test/evals/**/*.test.ts'] } });
  });

  it('counts the "tripwire" key of package.json as a configuration', () => {
    const dir = repo('init/bun-split-maps');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, tripwire: { tests: { include: ['test/**/*.test.ts'] } } }, null, 2));
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('package.json "tripwire" already configures tripwire');
    expect(existsSync(join(dir, 'tripwire.config.json'))).toBe(false);
  });

  it('--dry-run prints the configuration and writes nothing', () => {
    const dir = repo('init/jest-json-maps');
    const run = runCli(['init', '--no-cache', '--dry-run'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tripwire.config.json (not written: --dry-run)\n{\n  "$schema": ');
    expect(existsSync(join(dir, 'tripwire.config.json'))).toBe(false);
  });

  it('writes through a temporary file renamed over the target, leaving nothing else behind', () => {
    const dir = repo('init/jest-json-maps');
    const before = readdirSync(dir).sort();
    expect(runCli(['init', '--no-cache'], dir).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...before, 'tripwire.config.json'].sort());
  });
});

describe('tripwire init asks only a person at a terminal', () => {
  function io(cwd: string): Io & { out: string[] } {
    const out: string[] = [];
    return { out, stdout: (text) => out.push(text), stderr: (text) => out.push(text), cwd, env: {}, isTTY: false };
  }

  it('writes nothing when the answer is no', async () => {
    const dir = repo('init/jest-json-maps');
    const questions: string[] = [];
    const terminal = io(dir);
    const code = await initCommand(['--no-cache'], terminal, '', async (question) => {
      questions.push(question);
      return false;
    });
    expect(code).toBe(0);
    expect(questions).toEqual(['Write tripwire.config.json? [Y/n] ']);
    expect(terminal.out.join('')).toContain('nothing written');
    expect(existsSync(join(dir, 'tripwire.config.json'))).toBe(false);
  });

  it('does not ask with --yes, and writes when nobody can be asked (stdin is not a terminal)', async () => {
    const withYes = repo('init/jest-json-maps');
    let asked = false;
    expect(await initCommand(['--no-cache', '--yes'], io(withYes), '', async () => {
      asked = true;
      return false;
    })).toBe(0);
    expect(asked).toBe(false);
    expect(existsSync(join(withYes, 'tripwire.config.json'))).toBe(true);

    const noTerminal = repo('init/jest-json-maps');
    expect(await initCommand(['--no-cache'], io(noTerminal), '', async () => null)).toBe(0);
    expect(existsSync(join(noTerminal, 'tripwire.config.json'))).toBe(true);
  });
});

describe('tripwire init: reaching a paid call never classifies', () => {
  it('keeps in tests.include, and out of tests.paid, a free test that reaches a paid call; the paid suite is what its own script runs', () => {
    const dir = makeGitRepo({
      'package.json': JSON.stringify({ name: 'reach', type: 'module', scripts: { test: "vitest run --exclude 'test/evals/**'", 'test:evals': 'vitest run test/evals' }, devDependencies: { vitest: '4.1.12' } }),
      'src/format.ts': 'export const format = (text: string): string => text.trim();\n',
      'test/format.test.ts': "import { expect, test } from 'vitest';\nimport OpenAI from 'openai';\nimport { format } from '../src/format.js';\ntest('trims', async () => {\n  expect(format(' a ')).toBe('a');\n  await new OpenAI().responses.create({ model: 'm', input: 'x' });\n});\n",
      'test/evals/answer.test.ts': "import { test } from 'vitest';\nimport Anthropic from '@anthropic-ai/sdk';\ntest('answers', async () => {\n  await new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [] });\n});\n",
    });
    temps.push(dir);
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.code).toBe(0);
    const config = writtenConfig(dir) as { tests: { include: string[]; paid: string[] } };
    expect(config.tests.paid).toEqual(['test/evals/**/*.test.ts']);
    expect(run.stdout).toContain('test/format.test.ts stays free: `npm run test` runs it, yet it reaches a paid call');
    const check = checkJson(dir);
    expect(check.findings).toEqual([{ ruleId: 'no-paid-calls-in-free-tests', file: 'test/format.test.ts' }]);
    expect(check.code).toBe(1);
  });
});

describe('tripwire init and the CI workflows', () => {
  it('says which workflows paid-ci-lanes checks and which of their jobs are the paid lanes, from the workflow facts the rule reads', () => {
    const dir = makeGitRepo({
      'package.json': JSON.stringify({ name: 'judge', scripts: { test: 'vitest run test/unit' }, devDependencies: { vitest: '3.2.4' } }),
      'test/unit/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
      'test/evals/judge.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('judge', async () => { await new OpenAI().models.list(); });\n",
      '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n  evals:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npx vitest run test/evals\n',
    });
    temps.push(dir);
    const run = runCli(['init', '--no-cache', '--dry-run'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rules.paid-ci-lanes  on (1 workflow)');
    expect(run.stdout).toContain('the paid lanes it will judge: `.github/workflows/ci.yml:12 job evals`');
  });

  it('teaches the rule a model key it does not know when that key is all a paid lane receives, so that check finds it in the free job', () => {
    const dir = makeGitRepo({
      'package.json': JSON.stringify({ name: 'judge', scripts: { test: 'vitest run test/unit' }, devDependencies: { vitest: '3.2.4' } }),
      'test/unit/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
      'test/evals/judge.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('judge', async () => { await new OpenAI({ apiKey: process.env.EVALS_API_KEY }).models.list(); });\n",
      '.github/workflows/ci.yml':
        'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    env:\n      EVALS_API_KEY: ${{ secrets.EVALS_API_KEY }}\n    steps:\n      - run: npm test\n  evals:\n    runs-on: ubuntu-latest\n    env:\n      EVALS_API_KEY: ${{ secrets.EVALS_API_KEY }}\n    steps:\n      - run: npx vitest run test/evals\n',
    });
    temps.push(dir);
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rules.paid-ci-lanes  on (1 workflow), secrets: EVALS_API_KEY');
    expect(run.stdout).toContain('secrets: EVALS_API_KEY, the only model key `.github/workflows/ci.yml:14 job evals` receives, is not a built-in key variable: the rule learns it');
    const config = writtenConfig(dir) as { rules?: Record<string, unknown> };
    expect(config.rules?.['paid-ci-lanes']).toEqual(['error', { secrets: ['EVALS_API_KEY'] }]);
    const check = runCli(['check', '--no-cache', '--format', 'json'], dir);
    const report = JSON.parse(check.stdout) as { findings: { ruleId: string; messageId: string; file: string; line: number }[] };
    expect(report.findings.map((f) => [f.ruleId, f.messageId, f.file, f.line])).toEqual([['paid-ci-lanes', 'secretInFreeLane', '.github/workflows/ci.yml', 6]]);
    expect(check.code).toBe(1);
  });

  it('teaches nothing when the paid lane also receives a key the rule knows: its other `_API_KEY` names may be any service\'s', () => {
    const dir = makeGitRepo({
      'package.json': JSON.stringify({ name: 'judge', scripts: { test: 'vitest run test/unit' }, devDependencies: { vitest: '3.2.4' } }),
      'test/unit/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
      'test/evals/judge.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('judge', async () => { await new OpenAI().models.list(); });\n",
      '.github/workflows/ci.yml':
        'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    env:\n      CODECOV_API_KEY: ${{ secrets.CODECOV_API_KEY }}\n    steps:\n      - run: npm test\n  evals:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n      CODECOV_API_KEY: ${{ secrets.CODECOV_API_KEY }}\n    steps:\n      - run: npx vitest run test/evals\n',
    });
    temps.push(dir);
    const run = runCli(['init', '--no-cache'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rules.paid-ci-lanes  on (1 workflow)\n');
    expect((writtenConfig(dir) as { rules: Record<string, unknown> }).rules).not.toHaveProperty('paid-ci-lanes');
    expect(checkJson(dir)).toMatchObject({ code: 0, findings: [] });
  });
});
