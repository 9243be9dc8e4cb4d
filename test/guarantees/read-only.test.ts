import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, runCli } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

// Issue 16, "proofs as tests": tripwire writes nothing into the repository it checks (the fact cache aside, which lives where
// --cache-location says), not even the git index that porcelain `git diff` refreshes when stat data is stale; and it never runs
// the code it checks.

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The SHA-256 of every file and link under `dir`, `.git` included, keyed by path. */
function snapshot(dir: string, skip: (path: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      const rel = relative(dir, full);
      if (skip(rel)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) out.set(rel, `link:${readlinkSync(full)}`);
      else out.set(rel, createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** Every tracked file's mtime moved a minute ahead: the index's stat data is stale, which `git diff` would refresh by rewriting it. */
function staleStat(dir: string): void {
  const later = new Date(Date.now() + 60_000);
  for (const file of git(dir, 'ls-files').split('\n').filter((line) => line !== '')) {
    const full = join(dir, file);
    if (!lstatSync(full).isSymbolicLink()) utimesSync(full, later, later);
  }
}

function demo(): string {
  const dir = fixtureRepo('demo');
  temps.push(dir);
  return dir;
}

const CACHE = '.cache-outside-the-check';
const outsideCache = (rel: string): boolean => rel === CACHE || rel.startsWith(`${CACHE}/`);

describe('tripwire writes nothing into the repository it checks', () => {
  const commands: [string, string[]][] = [
    ['check', ['check', '--cache-location', CACHE]],
    ['check --base', ['check', '--base', 'HEAD', '--cache-location', CACHE]],
    ['check --staged', ['check', '--staged', '--cache-location', CACHE]],
    ['check --no-cache --format sarif', ['check', '--no-cache', '--format', 'sarif']],
    ['select --base', ['select', '--base', 'HEAD']],
    ['select --staged', ['select', '--staged']],
    ['explain', ['explain', 'no-paid-calls-in-free-tests']],
    ['print-config', ['print-config']],
    ['print-inputs --format json', ['print-inputs', '--format', 'json', '--cache-location', CACHE]],
    ['print-inputs --no-cache', ['print-inputs', '--no-cache']],
    ['freeze list', ['freeze', 'list']],
    ['freeze verify', ['freeze', 'verify', '--cache-location', CACHE]],
    ['lock --verify', ['lock', '--verify']],
    ['fix --base (a dry run)', ['fix', '--base', 'HEAD', '--cache-location', CACHE]],
  ];
  for (const [name, args] of commands) {
    it(`${name}: every byte of the work tree and of .git is unchanged, though the index's stat data is stale`, () => {
      const dir = demo();
      // An unstaged edit and an untracked file, so that the diff has work-tree content to compare.
      writeFileSync(join(dir, 'README.md'), `${readFileSync(join(dir, 'README.md'), 'utf8')}\nOne more line.\n`);
      writeFileSync(join(dir, 'NOTES.md'), 'untracked\n');
      staleStat(dir);
      const before = snapshot(dir, outsideCache);
      const run = runCli(args, dir);
      expect(run.stderr).not.toMatch(/internal error/i);
      expect(run.code === 0 || run.code === 1).toBe(true);
      expect(snapshot(dir, outsideCache)).toEqual(before);
    });
  }

  it('fix without --write, with fixes to offer: it prints them and exits 1, and every byte is unchanged', () => {
    const dir = demo();
    staleStat(dir);
    const before = snapshot(dir, outsideCache);
    const run = runCli(['fix', '--cache-location', CACHE], dir);
    expect(run.stdout).toContain('+++ b/test/helpers/touchfiles.ts\n');
    expect(run.stdout).toMatch(/nothing written \(dry run\)/);
    expect(run.code).toBe(1);
    expect(snapshot(dir, outsideCache)).toEqual(before);
  });

  it('an ESLint run with the plugin leaves the repository byte-identical (its cache aside)', async () => {
    const dir = demo();
    staleStat(dir);
    const before = snapshot(dir, (rel) => rel === 'node_modules' || rel.startsWith('node_modules/'));
    resetModels();
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: tripwire.configs.recommended });
    const results = await eslint.lintFiles(['**/*.ts']);
    expect(results.length).toBeGreaterThan(0);
    expect(snapshot(dir, (rel) => rel === 'node_modules' || rel.startsWith('node_modules/'))).toEqual(before);
  });
});

describe('tripwire never runs the code it checks', () => {
  // Each file would leave a marker if it were imported or run: a test, a helper it imports, the map file, a config, a script.
  const MARKER = 'TRIPWIRE_RAN_ME';
  const planted = (name: string): string =>
    `import { writeFileSync } from 'node:fs';\nimport { execSync } from 'node:child_process';\nwriteFileSync(new URL('./${MARKER}-${name}', import.meta.url), 'ran');\nexecSync('touch ${MARKER}-${name}-spawned');\n`;

  function plantedRepo(): string {
    const dir = demo();
    const files: Record<string, string> = {
      'test/helpers/planted-helper.ts': `${planted('helper')}export const helper = 1;\n`,
      'test/planted.test.ts': `${planted('test')}import { helper } from './helpers/planted-helper.js';\nimport { test } from 'vitest';\ntest('x', () => { void helper; });\n`,
      'vitest.config.ts': `${planted('config')}export default { test: {} };\n`,
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    // The map file: its top level would run if it were imported to read the maps.
    const maps = 'test/helpers/touchfiles.ts';
    if (existsSync(join(dir, maps))) writeFileSync(join(dir, maps), `${planted('maps')}${readFileSync(join(dir, maps), 'utf8')}`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'planted');
    return dir;
  }

  const markers = (dir: string): string[] =>
    [...snapshot(dir, (rel) => rel === '.git' || rel.startsWith('.git/') || rel === 'node_modules' || rel.startsWith('node_modules/'))].map(([path]) => path).filter((path) => path.includes(MARKER));

  for (const args of [['check', '--no-cache'], ['select', '--base', 'HEAD~1', '--no-cache'], ['fix', '--no-cache'], ['init', '--dry-run', '--no-cache', '--force']]) {
    it(`${args[0]} imports and spawns nothing of the repository`, () => {
      const dir = plantedRepo();
      const run = runCli(args, dir);
      expect(run.stderr).not.toMatch(/internal error/i);
      expect(markers(dir)).toEqual([]);
    });
  }

  it('ESLint with the plugin imports and spawns nothing of the repository', async () => {
    const dir = plantedRepo();
    resetModels();
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: tripwire.configs.recommended });
    await eslint.lintFiles(['**/*.ts']);
    expect(markers(dir)).toEqual([]);
  });
});
