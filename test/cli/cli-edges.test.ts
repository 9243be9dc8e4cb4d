import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { CLI_BIN, makeGitRepo, runCli } from '../support/repo.js';

// Issue 15, defect 14: the edges of the command line a new user hits first.

const JUDGE_TEST = `import { test } from 'vitest';\nimport { judge } from './helpers/judge.js';\ntest('judges', async () => { await judge('x'); });\n`;
const JUDGE_HELPER = `import Anthropic from '@anthropic-ai/sdk';\nexport async function judge(q: string) {\n  return new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: q }] });\n}\n`;

/** One warning (the paid call, set to warn) and one error (a glob that matches nothing). */
const WARNING_AND_ERROR = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts", "spec/**/*.test.ts"] }, "rules": { "no-paid-calls-in-free-tests": "warn" } }\n',
  'test/judge.test.ts': JUDGE_TEST,
  'test/helpers/judge.ts': JUDGE_HELPER,
};

const WARNING_ONLY = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] }, "rules": { "no-paid-calls-in-free-tests": "warn" } }\n',
  'test/judge.test.ts': JUDGE_TEST,
  'test/helpers/judge.ts': JUDGE_HELPER,
};

const ERROR_ONLY = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
  'test/judge.test.ts': JUDGE_TEST,
  'test/helpers/judge.ts': JUDGE_HELPER,
};

/** runCli drops FORCE_COLOR from the environment; these cases need it. */
function runWithForcedColor(args: string[], cwd: string): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '1' };
  delete env.NO_COLOR;
  return spawnSync(process.execPath, [join(PACKAGE_ROOT, CLI_BIN), ...args], { cwd, encoding: 'utf8', env });
}

function ruleIds(stdout: string): string[] {
  return JSON.parse(stdout).findings.map((finding: { ruleId: string; severity: string }) => `${finding.severity} ${finding.ruleId}`);
}

describe('--help of each command', () => {
  it('explain --help exits 0 with the usage of explain', () => {
    const run = runCli(['explain', '--help'], makeGitRepo(ERROR_ONLY));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: tripwire explain RULE\n/);
    expect(run.stdout).not.toContain('Options for check');
  });

  it.each([
    ['check', /^Usage: tripwire check \[paths\.\.\.\] \[options\]\n/, 'Options for select'],
    ['select', /^Usage: tripwire select --base REF \[options\]\n/, 'Options for check'],
    ['init', /^Usage: tripwire init \[--hook\] \[options\]\n/, 'Options for check'],
    ['freeze', /^Usage:\n {2}tripwire freeze add /, 'Options for check'],
    ['lock', /^Usage: tripwire lock GLOB\.\.\. \| --verify/, 'Options for check'],
  ])('%s --help prints its own usage, not the global text', (command, usage, foreign) => {
    const run = runCli([command, '--help'], makeGitRepo(ERROR_ONLY));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(usage);
    expect(run.stdout).not.toContain(foreign);
  });

  it('freeze verify --help prints the usage of freeze, not that of check', () => {
    const run = runCli(['freeze', 'verify', '--help'], makeGitRepo(ERROR_ONLY));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage:\n {2}tripwire freeze add /);
  });

  it('the global --help still lists every command and points at the per-command help', () => {
    const run = runCli(['--help'], makeGitRepo(ERROR_ONLY));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tripwire COMMAND --help');
    expect(run.stdout).toContain('Options for check');
    expect(run.stdout).toContain('--quiet');
    expect(run.stdout).toContain('--no-color');
  });
});

describe('check --quiet', () => {
  it('reports the errors only', () => {
    const run = runCli(['check', '--quiet', '--format', 'json'], makeGitRepo(WARNING_AND_ERROR));
    expect(run.code).toBe(1);
    expect(ruleIds(run.stdout)).toEqual(['error unmatched-glob']);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ errors: 1, warnings: 0 });
  });

  it('without it the warning is reported too', () => {
    const run = runCli(['check', '--format', 'json'], makeGitRepo(WARNING_AND_ERROR));
    expect(ruleIds(run.stdout)).toEqual(['warn no-paid-calls-in-free-tests', 'error unmatched-glob']);
  });

  it('exits 0 on warnings alone, printing none of them', () => {
    const run = runCli(['check', '--quiet'], makeGitRepo(WARNING_ONLY));
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('no-paid-calls-in-free-tests');
  });

  it('still counts the hidden warnings for --max-warnings, as ESLint does', () => {
    const run = runCli(['check', '--quiet', '--max-warnings', '0'], makeGitRepo(WARNING_ONLY));
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('no-paid-calls-in-free-tests');
  });
});

describe('check --color and --no-color', () => {
  it('--no-color prints no escape codes even when FORCE_COLOR asks for them', () => {
    const run = runWithForcedColor(['check', '--no-color'], makeGitRepo(ERROR_ONLY));
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('FORCE_COLOR alone colors the report, so --no-color is what turned it off', () => {
    const run = runWithForcedColor(['check'], makeGitRepo(ERROR_ONLY));
    expect(run.stdout).toContain('\u001b[');
  });

  it('--color colors the report when standard output is not a terminal', () => {
    const run = runCli(['check', '--color'], makeGitRepo(ERROR_ONLY));
    expect(run.stdout).toContain('\u001b[');
  });
});

describe('explain', () => {
  it('suggests the nearest rule id for a typo', () => {
    const run = runCli(['explain', 'no-paid-call-in-free-tests'], makeGitRepo(ERROR_ONLY));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown rule 'no-paid-call-in-free-tests' (did you mean 'no-paid-calls-in-free-tests'?)");
  });

  it('suggests nothing for an id near no rule', () => {
    const run = runCli(['explain', 'semicolons'], makeGitRepo(ERROR_ONLY));
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('did you mean');
  });
});

describe('stylish paths', () => {
  it('are relative to where the user stands, not to --cwd, so a terminal can open them', () => {
    const dir = makeGitRepo({
      'packages/app/tripwire.config.json': ERROR_ONLY['tripwire.config.json'],
      'packages/app/test/judge.test.ts': JUDGE_TEST,
      'packages/app/test/helpers/judge.ts': JUDGE_HELPER,
    });
    const run = runCli(['check', '--cwd', 'packages/app'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')).toContain('packages/app/test/judge.test.ts');
    expect(run.stdout).toContain('↳ packages/app/test/helpers/judge.ts:2:');
  });

  it('are as before when the user stands in the root', () => {
    const run = runCli(['check'], makeGitRepo(ERROR_ONLY));
    expect(run.stdout.split('\n')).toContain('test/judge.test.ts');
  });
});
