import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo, installBin } from '../support/fixture-repo.js';
import { CLI_BIN, git, writeFiles } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const EXAMPLES = join(PACKAGE_ROOT, 'examples/hooks');

/**
 * The hooks fixture set up the way the README says: husky (real, run through
 * `husky init`), `.husky/pre-commit` and the lint-staged configuration copied
 * from examples/hooks/, tripwire and lint-staged on node_modules/.bin.
 */
function huskyRepo(lintStagedConfig: 'lint-staged.config.mjs' | '.lintstagedrc.json'): string {
  const dir = fixtureRepo('hooks/harness');
  temps.push(dir);
  installBin(dir, 'tripwire', CLI_BIN);
  installBin(dir, 'lint-staged', 'node_modules/lint-staged/bin/lint-staged.js');
  const init = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'node_modules/husky/bin.js'), 'init'], { cwd: dir, encoding: 'utf8' });
  expect(init.status).toBe(0);
  copyFileSync(join(EXAMPLES, 'husky/pre-commit'), join(dir, '.husky/pre-commit'));
  copyFileSync(join(EXAMPLES, lintStagedConfig), join(dir, lintStagedConfig));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'husky and lint-staged');
  return dir;
}

const VIOLATION = {
  'test/unit/summary.test.ts': `import Anthropic from '@anthropic-ai/sdk';\nimport { test } from 'vitest';\n\ntest('summarizes', async () => {\n  await new Anthropic().messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: [] });\n});\n`,
};
const CLEAN = {
  'test/unit/format-blank.test.ts': `import { expect, test } from 'vitest';\nimport { formatAnswer } from '../../src/format.js';\n\ntest('trims', () => {\n  expect(formatAnswer('  a ')).toBe('a');\n});\n`,
};
const HELPER_REACHES_MODEL = {
  'test/helpers/prompt.ts': `import { ask } from '../../src/llm.js';\n\nexport async function buildPrompt(question: string): Promise<string> {\n  return \`Answer in two sentences.\\n\\n\${await ask(question)}\`;\n}\n`,
};

function commitStaged(dir: string, files: Record<string, string>): { code: number | null; output: string; committed: boolean } {
  const before = git(dir, 'rev-parse', 'HEAD').trim();
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  const result = spawnSync('git', ['-c', 'user.name=tripwire test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'change'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}`, committed: git(dir, 'rev-parse', 'HEAD').trim() !== before };
}

describe('husky + lint-staged, as the README sets them up', () => {
  it('husky init points git at .husky/_, whose pre-commit runs lint-staged', () => {
    const dir = huskyRepo('lint-staged.config.mjs');
    expect(git(dir, 'config', 'core.hooksPath').trim()).toBe('.husky/_');
    expect(readFileSync(join(dir, '.husky/pre-commit'), 'utf8')).toBe('lint-staged\n');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.prepare).toBe('husky');
  });

  describe('lint-staged.config.mjs: tripwire once, on the whole staged change', () => {
    it('refuses a commit that adds a free test calling the model', () => {
      const result = commitStaged(huskyRepo('lint-staged.config.mjs'), VIOLATION);
      expect(result.code).not.toBe(0);
      expect(result.committed).toBe(false);
      expect(result.output).toContain('no-paid-calls-in-free-tests');
      expect(result.output).toContain('test/unit/summary.test.ts');
    });

    it('refuses a helper edit that makes an unchanged free test reach the model', () => {
      const result = commitStaged(huskyRepo('lint-staged.config.mjs'), HELPER_REACHES_MODEL);
      expect(result.code).not.toBe(0);
      expect(result.committed).toBe(false);
      expect(result.output).toContain('test/unit/prompt.test.ts');
    });

    it('lets a clean commit through', () => {
      const result = commitStaged(huskyRepo('lint-staged.config.mjs'), CLEAN);
      expect(result.code).toBe(0);
      expect(result.committed).toBe(true);
    });
  });

  describe('.lintstagedrc.json: tripwire receives the staged file list', () => {
    it('accepts the list and refuses the commit with the violation', () => {
      const result = commitStaged(huskyRepo('.lintstagedrc.json'), VIOLATION);
      expect(result.code).not.toBe(0);
      expect(result.committed).toBe(false);
      expect(result.output).toContain('no-paid-calls-in-free-tests');
    });

    it('lets a clean commit through', () => {
      const result = commitStaged(huskyRepo('.lintstagedrc.json'), CLEAN);
      expect(result.code).toBe(0);
      expect(result.committed).toBe(true);
    });
  });

  describe('commits that only delete files', () => {
    function deleteRequiredHelper(dir: string): { committed: boolean; output: string } {
      const before = git(dir, 'rev-parse', 'HEAD').trim();
      git(dir, 'rm', '-q', 'test/evals/harness.ts');
      const result = spawnSync('git', ['-c', 'user.name=tripwire test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'drop the harness'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      return { committed: git(dir, 'rev-parse', 'HEAD').trim() !== before, output: `${result.stdout}${result.stderr}` };
    }

    it('lint-staged runs no task for them, as the README warns', () => {
      const result = deleteRequiredHelper(huskyRepo('lint-staged.config.mjs'));
      expect(result.output).toContain('could not find any staged files');
      expect(result.committed).toBe(true);
    });

    it('tripwire called from .husky/pre-commit itself refuses one that breaks a contract', () => {
      const dir = huskyRepo('lint-staged.config.mjs');
      writeFiles(dir, { '.husky/pre-commit': 'tripwire check --staged\n' });
      git(dir, 'commit', '-q', '--no-verify', '-am', 'tripwire without lint-staged');
      const result = deleteRequiredHelper(dir);
      expect(result.committed).toBe(false);
      expect(result.output).toContain('maps.globals.require names test/evals/harness.ts, which does not exist');
    });
  });

  it('has the recipes the README shows', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(join(EXAMPLES, 'lint-staged.config.mjs'), 'utf8'));
    expect(readme).toContain(readFileSync(join(EXAMPLES, '.lintstagedrc.json'), 'utf8'));
    expect(readme).toContain(readFileSync(join(EXAMPLES, 'husky/pre-commit'), 'utf8'));
    expect(readme).toContain('echo "tripwire check --staged" > .husky/pre-commit');
  });
});
