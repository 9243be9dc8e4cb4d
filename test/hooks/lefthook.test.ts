import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo, installBin } from '../support/fixture-repo.js';
import { CLI_BIN, git, writeFiles } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const RECIPE = join(PACKAGE_ROOT, 'examples/hooks/lefthook.yml');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the lefthook recipe', () => {
  it('is a pre-commit command that runs `tripwire check --staged` on the whole staged change', () => {
    const config: unknown = parse(readFileSync(RECIPE, 'utf8'));
    expect(config).toEqual({ 'pre-commit': { commands: { tripwire: { run: 'npx --no -- tripwire check --staged' } } } });
    expect(readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8')).toContain(readFileSync(RECIPE, 'utf8'));
  });

  /*
   * The npm package `lefthook` carries its binary inside the registry tarball
   * (the optional dependency lefthook-<os>-<arch>); nothing is downloaded. But its
   * postinstall runs `lefthook install` in the installing project, which would
   * write lefthook.yml and git hooks into this repository on every `npm ci`, so
   * it is not a devDependency here. Point TRIPWIRE_LEFTHOOK_BIN at a lefthook
   * binary (`npm install --ignore-scripts lefthook` in a scratch directory) to
   * run the recipe with the real tool.
   */
  const lefthook = process.env.TRIPWIRE_LEFTHOOK_BIN;
  it.runIf(lefthook !== undefined)('with the real lefthook, refuses a commit with a violation and lets a clean one through', () => {
    const dir = fixtureRepo('hooks/harness');
    temps.push(dir);
    installBin(dir, 'tripwire', CLI_BIN);
    copyFileSync(RECIPE, join(dir, 'lefthook.yml'));
    const install = spawnSync(lefthook ?? 'lefthook', ['install'], { cwd: dir, encoding: 'utf8' });
    expect(install.status).toBe(0);
    const commit = (files: Record<string, string>): { committed: boolean; output: string } => {
      const before = git(dir, 'rev-parse', 'HEAD');
      writeFiles(dir, files);
      git(dir, 'add', '-A');
      const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'change'], { cwd: dir, encoding: 'utf8', env: { ...process.env, LEFTHOOK_BIN: lefthook ?? '', NO_COLOR: '1' } });
      return { committed: git(dir, 'rev-parse', 'HEAD') !== before, output: `${run.stdout}${run.stderr}` };
    };
    const refused = commit({ 'test/unit/summary.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\n\ntest('x', () => new OpenAI());\n` });
    expect(refused.committed).toBe(false);
    expect(refused.output).toContain('no-paid-calls-in-free-tests');
    git(dir, 'rm', '-q', '--cached', 'test/unit/summary.test.ts');
    rmSync(join(dir, 'test/unit/summary.test.ts'));
    expect(commit({ 'src/version.ts': `export const VERSION = '1.0.1';\n` }).committed).toBe(true);
  });
});
