import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheRefusal, cacheRefusalSync, mayBeInWorkTree } from '../../src/repo/cache-guard.js';
import { git, makeGitRepo, writeFiles } from '../support/repo.js';

const CACHE = 'node_modules/.cache/tripwire';

/** Both forms, which must agree: the CLI asks asynchronously, the ESLint surface synchronously. */
async function refusal(dir: string, root: string): Promise<string | null> {
  const [async, sync] = [await cacheRefusal(dir, root), cacheRefusalSync(dir, root)];
  expect(sync).toBe(async);
  return async;
}

function repo(files: Record<string, string>): string {
  return realpathSync(makeGitRepo({ '.gitignore': 'node_modules\n', ...files }));
}

describe('cacheRefusal', () => {
  it('refuses a cache directory holding a file git tracks (force-added past .gitignore)', async () => {
    const dir = repo({ [`${CACHE}/facts-1.json`]: '{}' });
    expect(await refusal(join(dir, CACHE), dir)).toBeNull();
    git(dir, 'add', '-f', `${CACHE}/facts-1.json`);
    expect(await refusal(join(dir, CACHE), dir)).toBe(
      `git tracks ${join(dir, CACHE, 'facts-1.json')} in the cache directory ${join(dir, CACHE)}, so the change being checked chose what it holds: checking without the cache. Remove the cache from git (git rm -r --cached ${join(dir, CACHE)}).`,
    );
  });

  it('accepts a repository that vendors other packages in node_modules but not the cache', async () => {
    const dir = repo({ 'node_modules/left-pad/index.js': 'module.exports = 1;\n', [`${CACHE}/facts-1.json`]: '{}' });
    git(dir, 'add', '-f', 'node_modules/left-pad/index.js');
    expect(await refusal(join(dir, CACHE), dir)).toBeNull();
  });

  it('accepts a cache directory that does not exist yet, and one outside every work tree', async () => {
    const dir = repo({ 'a.ts': '' });
    expect(await refusal(join(dir, CACHE), dir)).toBeNull();
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'tripwire-guard-')));
    expect(await refusal(join(outside, 'tripwire', 'abc'), dir)).toBeNull();
  });

  it('refuses a cache directory that is a tracked link to a tracked directory, or a tracked dangling link', async () => {
    const dir = repo({ 'forged/facts-1.json': '{}' });
    mkdirSync(join(dir, 'node_modules/.cache'), { recursive: true });
    symlinkSync('../../forged', join(dir, CACHE));
    git(dir, 'add', '-f', CACHE);
    expect(await refusal(join(dir, CACHE), dir)).toContain(`git tracks ${join(dir, 'forged/facts-1.json')}`);

    const dangling = repo({ 'a.ts': '' });
    mkdirSync(join(dangling, 'node_modules/.cache'), { recursive: true });
    symlinkSync('../../nowhere', join(dangling, CACHE));
    git(dangling, 'add', '-f', CACHE);
    expect(await refusal(join(dangling, CACHE), dangling)).toContain(`git tracks ${join(dangling, CACHE)}`);
  });

  it('refuses a cache directory inside the repository that leads out of it through a link', async () => {
    const dir = repo({ 'a.ts': '' });
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'tripwire-guard-')));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(outside, join(dir, 'node_modules/.cache'));
    expect(await refusal(join(dir, CACHE), dir)).toBe(`the cache directory ${join(dir, CACHE)} leads out of the repository through a symbolic link: checking without the cache.`);
  });

  it('names the path literally: a cache directory with glob characters matches only itself', async () => {
    const dir = repo({ 'cache[1]/x.json': '{}', 'cache1/y.json': '{}' });
    writeFiles(dir, { 'cache[1]/.keep': '' });
    expect(await refusal(join(dir, 'cache[1]'), dir)).toContain(`git tracks ${join(dir, 'cache[1]/x.json')}`);
    git(dir, 'rm', '-q', '--cached', 'cache[1]/x.json');
    expect(await refusal(join(dir, 'cache[1]'), dir)).toBeNull();
  });

  it('asks git only where it may find a work tree: below a .git directory or file, or with one named by the environment', () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'tripwire-guard-')));
    try {
      const deep = join(outside, 'a', 'b');
      mkdirSync(deep, { recursive: true });
      expect(mayBeInWorkTree(deep, {})).toBe(false);
      expect(mayBeInWorkTree(deep, { GIT_DIR: join(outside, 'repo.git') })).toBe(true);
      expect(mayBeInWorkTree(deep, { GIT_WORK_TREE: outside })).toBe(true);
      // A linked worktree's or a submodule's .git is a file.
      writeFileSync(join(outside, 'a', '.git'), 'gitdir: /elsewhere\n');
      expect(mayBeInWorkTree(deep, {})).toBe(true);
      rmSync(join(outside, 'a', '.git'));
      mkdirSync(join(outside, '.git'));
      expect(mayBeInWorkTree(deep, {})).toBe(true);
      expect(mayBeInWorkTree(repo({ 'a.ts': '' }), {})).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
