import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/index.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';

describe('--base: the diff the model carries', () => {
  it('lists changes since the merge base, follows renames, and reads old texts in one batch', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{}',
      'src/keep.ts': 'export const keep = 1;\n',
      'src/edit.ts': 'export const before = 1;\n',
      'src/gone.ts': 'export const gone = 1;\n',
      'src/moved.ts': 'export function moved() {\n  return "a long enough body for rename detection";\n}\n',
    });
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'src/edit.ts'), 'export const after = 2;\n');
    rmSync(join(dir, 'src/gone.ts'));
    renameSync(join(dir, 'src/moved.ts'), join(dir, 'src/renamed.ts'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'change');
    writeFileSync(join(dir, 'src/untracked.ts'), 'export const fresh = 1;\n');

    const { model } = await buildModel({ cwd: dir, cache: false, base: 'main' });
    expect(model.diff?.changes).toEqual([
      { status: 'modified', path: 'src/edit.ts' },
      { status: 'deleted', path: 'src/gone.ts' },
      { status: 'renamed', path: 'src/renamed.ts', oldPath: 'src/moved.ts' },
      { status: 'added', path: 'src/untracked.ts' },
    ]);
    expect(model.oldText('src/edit.ts')).toBe('export const before = 1;\n');
    expect(model.oldText('src/gone.ts')).toBe('export const gone = 1;\n');
    expect(model.oldText('src/keep.ts')).toBeNull();
    expect(model.oldFacts('src/gone.ts')?.exports.map((e) => (e.kind === 'local' ? e.name : e.kind))).toEqual(['gone']);
  });

  it('exits 2 from check with a fetch hint when the base ref is missing', () => {
    const run = runCli(['check', '--base', 'origin/main'], makeGitRepo({ 'tripwire.config.json': '{}' }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("base ref 'origin/main' not found");
    expect(run.stderr).toContain('fetch-depth: 0');
  });
});
