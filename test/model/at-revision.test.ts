import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/project.js';
import { git, makeGitRepo } from '../support/repo.js';

describe('the model at the merge base', () => {
  it('under --staged, reads a path the change left alone as the index has it, not as the work tree does', async () => {
    const dir = makeGitRepo({ 'tripwire.config.json': '{}', 'a.txt': 'a at HEAD\n', 'b.txt': 'b at HEAD\n' });
    writeFileSync(join(dir, 'a.txt'), 'a staged\n');
    git(dir, 'add', 'a.txt');
    // Not staged: the commit will hold b as HEAD has it.
    writeFileSync(join(dir, 'b.txt'), 'b edited, not staged\n');
    const { model } = await buildModel({ cwd: dir, staged: true, cache: false });
    expect(model.text('b.txt')).toBe('b at HEAD\n');
    const base = model.atBase();
    expect(base?.text('a.txt')).toBe('a at HEAD\n');
    expect(base?.text('b.txt')).toBe('b at HEAD\n');
  });
});
