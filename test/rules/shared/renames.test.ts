import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import { renameFix, renamedPath } from '../../../rules/shared/renames.js';
import { git, makeGitRepo } from '../../support/repo.js';

const BODY = 'export function moved() {\n  return "a long enough body for rename detection";\n}\n';

async function renamedRepo() {
  const dir = makeGitRepo({
    'tripwire.config.json': '{}',
    'src/moved.ts': BODY,
    'src/gone.ts': 'export const gone = 1;\n',
    'src/use.ts': "export const a = 'src/moved.ts';\nexport const b = 'src/other.ts';\nexport const c = `src/moved.ts`;\n",
    'docs/guide.md': '# Guide\n\n`src/moved.ts`\n',
  });
  git(dir, 'checkout', '-q', '-b', 'feature');
  renameSync(join(dir, 'src/moved.ts'), join(dir, 'src/renamed.ts'));
  rmSync(join(dir, 'src/gone.ts'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'rename');
  return (await buildModel({ cwd: dir, cache: false, base: 'main' })).model;
}

const at = (line: number, column: number, length: number) => ({ line, column, endLine: line, endColumn: column + length });

describe('rules/shared/renames', () => {
  it('knows the path git renamed a file to, and none for a deletion, a path that still exists, or without a diff', async () => {
    const model = await renamedRepo();
    expect(renamedPath(model, 'src/moved.ts')).toBe('src/renamed.ts');
    expect(renamedPath(model, 'src/gone.ts')).toBeNull();
    expect(renamedPath(model, 'src/use.ts')).toBeNull();
    expect(renamedPath(model, 'src/never.ts')).toBeNull();
    const plain = (await buildModel({ cwd: makeGitRepo({ 'tripwire.config.json': '{}', 'src/a.ts': '' }), cache: false })).model;
    expect(renamedPath(plain, 'src/a.ts')).toBeNull();
  });

  it('replaces the literal of the old path at the place, keeping its quotes, and nothing when the literal there is another or not the old path', async () => {
    const model = await renamedRepo();
    expect(renameFix(model, 'src/use.ts', at(1, 18, 14), 'src/moved.ts')).toEqual({
      fix: { messageId: 'replaceRenamedPath', description: "replace 'src/moved.ts' by 'src/renamed.ts', the name git gives it since the merge base", edits: [{ file: 'src/use.ts', range: [17, 31], text: "'src/renamed.ts'" }] },
    });
    expect(renameFix(model, 'src/use.ts', at(3, 18, 14), 'src/moved.ts').fix?.edits.map((edit) => edit.text)).toEqual(['`src/renamed.ts`']);
    expect(renameFix(model, 'src/use.ts', at(2, 18, 14), 'src/moved.ts')).toEqual({});
    expect(renameFix(model, 'src/use.ts', at(1, 1, 6), 'src/moved.ts')).toEqual({});
    expect(renameFix(model, 'src/use.ts', at(1, 18, 14), 'src/gone.ts')).toEqual({});
    expect(renameFix(model, 'docs/guide.md', at(3, 2, 12), 'src/moved.ts')).toEqual({});
    expect(renameFix(model, 'src/absent.ts', at(1, 18, 14), 'src/moved.ts')).toEqual({});
  });
});
