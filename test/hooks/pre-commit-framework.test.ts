import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo, installBin } from '../support/fixture-repo.js';
import { CLI_BIN, git, writeFiles } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

/*
 * The pre-commit framework is a Python package (PyPI); this project's registry
 * is npm, so the framework itself cannot run here. What it would do can:
 * its manifest schema (pre-commit/clientlib.py, MANIFEST_HOOK_DICT) is checked
 * key by key, and the hook's entry runs as pre-commit runs it for
 * `pass_filenames: false` (split into words, no file arguments, from the top
 * of the work tree).
 */
const REQUIRED = ['id', 'name', 'entry', 'language'];
const OPTIONAL = ['minimum_pre_commit_version', 'alias', 'files', 'exclude', 'types', 'types_or', 'exclude_types', 'additional_dependencies', 'args', 'always_run', 'fail_fast', 'pass_filenames', 'description', 'language_version', 'log_file', 'require_serial', 'stages', 'verbose'];
const BOOLEANS = ['always_run', 'fail_fast', 'pass_filenames', 'require_serial', 'verbose'];

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function manifest(): Record<string, unknown>[] {
  const data: unknown = parse(readFileSync(join(PACKAGE_ROOT, '.pre-commit-hooks.yaml'), 'utf8'));
  if (!Array.isArray(data)) throw new Error('.pre-commit-hooks.yaml must be a list of hooks (a mapping means pre-commit 5)');
  return data;
}

describe('.pre-commit-hooks.yaml', () => {
  it('is a list of hooks with the keys pre-commit requires, and no key it does not know', () => {
    const hooks = manifest();
    expect(hooks.map((hook) => hook.id)).toEqual(['tripwire']);
    for (const hook of hooks) {
      for (const key of REQUIRED) expect(typeof hook[key], key).toBe('string');
      expect(Object.keys(hook).filter((key) => !REQUIRED.includes(key) && !OPTIONAL.includes(key))).toEqual([]);
      for (const key of BOOLEANS) if (key in hook) expect(typeof hook[key], key).toBe('boolean');
      // `minimum_pre_commit_version` is checked as a string: an unquoted 4.4 would be a number.
      expect(typeof hook.minimum_pre_commit_version).toBe('string');
    }
  });

  it('runs `tripwire check --staged` once per commit, on the whole staged change', () => {
    const [hook] = manifest();
    expect(hook).toMatchObject({ language: 'unsupported', minimum_pre_commit_version: '4.4.0', pass_filenames: false, always_run: true, require_serial: true });
    expect(hook?.entry).toBe('npx --no -- tripwire check --staged');
    expect(hook).not.toHaveProperty('files');
    expect(hook).not.toHaveProperty('types');
  });

  it('the README\'s .pre-commit-config.yaml names the hook and pins a release', () => {
    const config: unknown = parse(readFileSync(join(PACKAGE_ROOT, 'examples/hooks/pre-commit-config.yaml'), 'utf8'));
    expect(config).toEqual({ repos: [{ repo: 'https://github.com/tripwire-lint/tripwire', rev: expect.stringMatching(/^v\d+\.\d+\.\d+$/), hooks: [{ id: 'tripwire' }] }] });
    expect(readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8')).toContain(readFileSync(join(PACKAGE_ROOT, 'examples/hooks/pre-commit-config.yaml'), 'utf8'));
  });

  it('its entry, run as pre-commit runs it, fails on a staged violation and passes a clean index', () => {
    const [hook] = manifest();
    // pre-commit splits the entry with shlex; this one has no quotes, so words are whitespace-separated.
    const [program, ...args] = String(hook?.entry).split(/\s+/);
    const dir = fixtureRepo('hooks/harness');
    temps.push(dir);
    installBin(dir, 'tripwire', CLI_BIN);
    const runEntry = (): number | null => spawnSync(program ?? 'false', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }).status;

    expect(runEntry()).toBe(0);
    writeFiles(dir, { 'test/unit/summary.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\n\ntest('summarizes', async () => {\n  await new OpenAI().responses.create({ model: 'gpt-4o-mini', input: 'hi' });\n});\n` });
    git(dir, 'add', '-A');
    expect(runEntry()).toBe(1);
  });
});
