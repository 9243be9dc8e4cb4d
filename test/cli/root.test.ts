import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeGitRepo, runCli } from '../support/repo.js';

// Where the root is, seen from where the CLI runs: the nearest directory that
// configures tripwire at or above the working directory, no higher than the
// git top level; the git top level when none does.

const HARNESS = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] } }',
  'src/format.ts': 'export const format = (s: string): string => s.trim();\n',
  'test/format.test.ts': "import { format } from '../src/format.js';\nformat(' a ');\n",
  'test/chat.test.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI();\n",
  'test/evals/judge.test.ts': "import OpenAI from 'openai';\nexport const judge = new OpenAI();\n",
};

/** `rule file:line` of each finding of a `check --format json` run, and its exit code. */
function check(cwd: string, ...args: string[]): { code: number | null; findings: string[] } {
  const run = runCli(['check', '--format', 'json', '--no-cache', ...args], cwd);
  expect(run.stderr).toBe('');
  const report: { findings: { ruleId: string; file: string; line: number }[] } = JSON.parse(run.stdout);
  return { code: run.code, findings: report.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}`) };
}

describe('the root of a check', () => {
  it('run from test/, is the directory above that holds tripwire.config.json: the paid eval stays paid, ../src resolves', () => {
    const dir = makeGitRepo(HARNESS);
    const fromTop = check(dir);
    expect(fromTop.findings).toContain('no-paid-calls-in-free-tests test/chat.test.ts:1');
    expect(fromTop.findings.filter((f) => f.startsWith('no-paid-calls-in-free-tests '))).toEqual(['no-paid-calls-in-free-tests test/chat.test.ts:1']);
    expect(check(join(dir, 'test'))).toEqual(fromTop);
    expect(check(join(dir, 'test/evals'))).toEqual(fromTop);
    expect(check(dir, '--cwd', 'test/evals')).toEqual(fromTop);
  });

  it('in a monorepo, is the package whose package.json has a "tripwire" key, from anywhere inside it; never a package beside it', () => {
    const dir = makeGitRepo({
      'package.json': '{ "private": true, "workspaces": ["packages/*"] }\n',
      'packages/api/package.json': JSON.stringify({ name: 'api', tripwire: { tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'] } } }),
      'packages/api/test/chat.test.ts': HARNESS['test/chat.test.ts'],
      'packages/api/test/evals/judge.test.ts': HARNESS['test/evals/judge.test.ts'],
      'packages/web/test/page.test.ts': "import Anthropic from '@anthropic-ai/sdk';\nexport const client = new Anthropic();\n",
    });
    const fromPackage = check(join(dir, 'packages/api'));
    // Paths are printed as the reporters print them (relative to the root or the top level): what matters is which files.
    expect(fromPackage.findings.filter((f) => f.startsWith('no-paid-calls-in-free-tests '))).toEqual([expect.stringMatching(/ (packages\/api\/)?test\/chat\.test\.ts:1$/)]);
    expect(fromPackage.findings.filter((f) => f.includes('web/'))).toEqual([]);
    expect(check(join(dir, 'packages/api/test/evals'))).toEqual(fromPackage);
  });

  it('with no configuration up to the git top level, is the git top level (the defaults apply there), not the working directory', () => {
    const dir = makeGitRepo({
      'src/format.ts': HARNESS['src/format.ts'],
      'test/format.test.ts': HARNESS['test/format.test.ts'],
      'test/chat.test.ts': HARNESS['test/chat.test.ts'],
    });
    const expected = { code: 1, findings: ['no-paid-calls-in-free-tests test/chat.test.ts:1'] };
    expect(check(dir)).toEqual(expected);
    expect(check(join(dir, 'test'))).toEqual(expected);
  });

  it('stops at the git top level: a configuration above the repository is not its configuration', () => {
    const outer = makeGitRepo({ 'tripwire.config.json': '{ "tests": { "include": ["nothing/**/*.test.ts"] } }' });
    const inner = join(outer, 'vendor/lib');
    makeNestedRepo(inner);
    expect(check(join(inner, 'test'))).toEqual({ code: 1, findings: ['no-paid-calls-in-free-tests test/chat.test.ts:1'] });
  });
});

function makeNestedRepo(at: string): void {
  const made = makeGitRepo({ 'test/chat.test.ts': HARNESS['test/chat.test.ts'] });
  // A repository inside another one's work tree (a vendored checkout), moved into place with its .git.
  mkdirSync(dirname(at), { recursive: true });
  renameSync(made, at);
}
