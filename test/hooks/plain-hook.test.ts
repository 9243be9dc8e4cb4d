import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_MARKER } from '../../src/init/hook.js';
import { fixtureRepo, installBin } from '../support/fixture-repo.js';
import { CLI_BIN, git, runCli, writeFiles } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The hooks fixture, committed, with tripwire installed as a project dependency would be. */
function harness(): string {
  const dir = fixtureRepo('hooks/harness');
  temps.push(dir);
  installBin(dir, 'tripwire', CLI_BIN);
  return dir;
}

const VIOLATION = {
  'test/unit/summary.test.ts': `import Anthropic from '@anthropic-ai/sdk';\nimport { test } from 'vitest';\n\ntest('summarizes', async () => {\n  await new Anthropic().messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: [] });\n});\n`,
};
const CLEAN = {
  'test/unit/format-blank.test.ts': `import { expect, test } from 'vitest';\nimport { formatAnswer } from '../../src/format.js';\n\ntest('trims', () => {\n  expect(formatAnswer('  a ')).toBe('a');\n});\n`,
};
/** A helper edit that makes the unchanged free test `test/unit/prompt.test.ts` reach the model. */
const HELPER_REACHES_MODEL = {
  'test/helpers/prompt.ts': `import { ask } from '../../src/llm.js';\n\nexport async function buildPrompt(question: string): Promise<string> {\n  return \`Answer in two sentences.\\n\\n\${await ask(question)}\`;\n}\n`,
};

/** A real `git commit`: hooks run as they would for a person. */
function commit(dir: string, ...args: string[]): { code: number | null; output: string } {
  const result = spawnSync('git', ['-c', 'user.name=tripwire test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function head(dir: string): string {
  return git(dir, 'rev-parse', 'HEAD').trim();
}

function stageAndCommit(dir: string, files: Record<string, string>, message: string): { code: number | null; output: string; before: string } {
  const before = head(dir);
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  return { ...commit(dir, '-m', message), before };
}

describe('tripwire init --hook: the plain pre-commit hook', () => {
  it('installs an executable .git/hooks/pre-commit that runs `tripwire check --staged`, and keeps the existing configuration', () => {
    const dir = harness();
    const config = readFileSync(join(dir, 'tripwire.config.json'), 'utf8');
    const run = runCli(['init', '--hook'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('tripwire.config.json already configures tripwire: kept\ninstalled the pre-commit hook .git/hooks/pre-commit: it runs `tripwire check --staged`\n');
    const hook = join(dir, '.git/hooks/pre-commit');
    expect(statSync(hook).mode & 0o111).toBe(0o111);
    const text = readFileSync(hook, 'utf8');
    expect(text.startsWith(`#!/bin/sh\n${HOOK_MARKER}\n`)).toBe(true);
    expect(text).toContain('exec node_modules/.bin/tripwire check --staged');
    expect(readFileSync(join(dir, 'tripwire.config.json'), 'utf8')).toBe(config);
  });

  it('refuses a commit whose staged change breaks a contract, and says which', () => {
    const dir = harness();
    expect(runCli(['init', '--hook'], dir).code).toBe(0);
    const result = stageAndCommit(dir, VIOLATION, 'add a summary test');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('test/unit/summary.test.ts');
    expect(result.output).toContain('no-paid-calls-in-free-tests');
    expect(head(dir)).toBe(result.before);
  });

  it('lets a clean commit through', () => {
    const dir = harness();
    expect(runCli(['init', '--hook'], dir).code).toBe(0);
    const result = stageAndCommit(dir, CLEAN, 'add a format test');
    expect(result.output).toMatch(/^✔ no problems/);
    expect(result.code).toBe(0);
    expect(head(dir)).not.toBe(result.before);
  });

  it('refuses a helper edit that makes an unchanged free test reach the model', () => {
    const dir = harness();
    expect(runCli(['init', '--hook'], dir).code).toBe(0);
    const result = stageAndCommit(dir, HELPER_REACHES_MODEL, 'the prompt asks the model');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('test/unit/prompt.test.ts');
    expect(head(dir)).toBe(result.before);
  });

  it('checks what `git commit -a` commits (git hands the hook a temporary index)', () => {
    const dir = harness();
    expect(runCli(['init', '--hook'], dir).code).toBe(0);
    const before = head(dir);
    writeFiles(dir, HELPER_REACHES_MODEL);
    const result = commit(dir, '-a', '-m', 'the prompt asks the model');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-paid-calls-in-free-tests');
    expect(head(dir)).toBe(before);
  });

  it('installs where core.hooksPath points, and git runs it from there', () => {
    const dir = harness();
    git(dir, 'config', 'core.hooksPath', '.githooks');
    const run = runCli(['init', '--hook'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('installed the pre-commit hook .githooks/pre-commit');
    expect(existsSync(join(dir, '.git/hooks/pre-commit'))).toBe(false);
    expect(stageAndCommit(dir, VIOLATION, 'add a summary test').code).not.toBe(0);
  });

  it('from a linked worktree, installs in the hooks every worktree shares, and guards commits made there', () => {
    const dir = harness();
    const worktree = join(realpathSync(dir), '..', `${realpathSync(dir).split('/').pop() ?? 'repo'}-worktree`);
    temps.push(worktree);
    git(dir, 'worktree', 'add', '-q', '-b', 'feature', worktree);
    installBin(worktree, 'tripwire', CLI_BIN);
    const run = runCli(['init', '--hook'], worktree);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`installed the pre-commit hook ${join(realpathSync(dir), '.git/hooks/pre-commit')}`);
    expect(stageAndCommit(worktree, VIOLATION, 'add a summary test').code).not.toBe(0);
    expect(stageAndCommit(worktree, { 'test/unit/summary.test.ts': CLEAN['test/unit/format-blank.test.ts'] }, 'add a clean test').code).toBe(0);
  });

  it('keeps a pre-commit hook that is not its own unless --force, and updates its own', () => {
    const dir = harness();
    const hook = join(dir, '.git/hooks/pre-commit');
    mkdirSync(join(dir, '.git/hooks'), { recursive: true });
    writeFileSync(hook, '#!/bin/sh\nnpm run lint\n', { mode: 0o755 });
    const refused = runCli(['init', '--hook'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(".git/hooks/pre-commit exists and is not tripwire's: add `npx --no -- tripwire check --staged` to it, or run again with --force");
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nnpm run lint\n');

    expect(runCli(['init', '--hook', '--force'], dir).stdout).toContain('installed the pre-commit hook');
    expect(readFileSync(hook, 'utf8')).toContain(HOOK_MARKER);
    expect(runCli(['init', '--hook'], dir).stdout).toContain('updated the pre-commit hook .git/hooks/pre-commit');
  });

  it('leaves a hooks directory that husky manages to husky', () => {
    const dir = harness();
    git(dir, 'config', 'core.hooksPath', '.husky/_');
    const run = runCli(['init', '--hook'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('git runs the hooks in .husky/_, which husky manages: add `tripwire check --staged` to .husky/pre-commit instead');
    expect(existsSync(join(dir, '.husky/_/pre-commit'))).toBe(false);
  });
});
