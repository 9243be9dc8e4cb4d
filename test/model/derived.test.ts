import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/index.js';
import { makeGitRepo } from '../support/repo.js';

describe('RepoModel.derived', () => {
  const files = { 'tripwire.config.json': '{}', 'docs/a.txt': 'one STIPULATE two\n' };
  const count = (token: string) => (text: string): number => text.split(token).length - 1;

  it('computes once per purpose and content, then serves an unchanged file without reading it', async () => {
    const cwd = makeGitRepo(files);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-derived-'));
    const first = await buildModel({ cwd, cacheLocation });
    expect(first.model.derived('docs/a.txt', 'count STIPULATE', count('STIPULATE'))).toBe(1);
    first.cache.save();

    const second = await buildModel({ cwd, cacheLocation });
    const never = (): number => {
      throw new Error('computed again');
    };
    expect(second.model.derived('docs/a.txt', 'count STIPULATE', never)).toBe(1);
    expect(second.model.stats.read).toBe(0);
    // Another purpose is another value.
    expect(second.model.derived('docs/a.txt', 'count two', count('two'))).toBe(1);
    second.cache.save();

    // An edit changes the key: the value is computed from the new text.
    writeFileSync(join(cwd, 'docs/a.txt'), 'STIPULATE STIPULATE\n');
    const third = await buildModel({ cwd, cacheLocation });
    expect(third.model.derived('docs/a.txt', 'count STIPULATE', count('STIPULATE'))).toBe(2);
    expect(third.model.derived('docs/missing.txt', 'count STIPULATE', count('STIPULATE'))).toBeNull();
  });
});

describe('RepoModel.factPart', () => {
  const files = {
    'tripwire.config.json': '{}',
    'test/env.test.ts': 'process.env.FORGE_FAKE = "1";\n// tripwire-disable-next-line no-paid-calls-in-free-tests\nconst broken = (;\n',
  };
  const names = (facts: { envWrites: { name: string }[] }): string[] => facts.envWrites.map((write) => write.name);

  it('keeps a projection of the facts, so the next run answers it without loading them, with their parse errors and suppressions', async () => {
    const cwd = makeGitRepo(files);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-part-'));
    const first = await buildModel({ cwd, cacheLocation });
    expect(first.model.factPart('test/env.test.ts', 'env names', names)).toEqual(['FORGE_FAKE']);
    expect(first.model.stats).toMatchObject({ parsed: 1 });
    first.model.saveCache();

    const second = await buildModel({ cwd, cacheLocation });
    const never = (): string[] => {
      throw new Error('projected again');
    };
    expect(second.model.factPart('test/env.test.ts', 'env names', never)).toEqual(['FORGE_FAKE']);
    expect(second.model.stats).toMatchObject({ parsed: 0, cached: 0, read: 0 });
    expect(second.model.problems.map((problem) => `${problem.kind} ${problem.file}:${problem.loc.line}`)).toEqual(['parse-error test/env.test.ts:3']);
    // Read through a part, the file counts as loaded: its suppression comments are checked as if its facts were.
    expect(second.model.loadedFiles()).toEqual(['test/env.test.ts']);
    expect(second.model.suppressions('test/env.test.ts')).toMatchObject([{ rules: ['no-paid-calls-in-free-tests'], reason: null }]);
    // Another name is another projection, computed from the facts.
    expect(second.model.factPart('test/env.test.ts', 'env count', (facts) => facts.envWrites.length)).toBe(1);
    expect(second.model.stats).toMatchObject({ cached: 1 });
  });

  it('projects an edited file from its new facts', async () => {
    const cwd = makeGitRepo(files);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-part-'));
    const first = await buildModel({ cwd, cacheLocation });
    first.model.factPart('test/env.test.ts', 'env names', names);
    first.model.saveCache();
    writeFileSync(join(cwd, 'test/env.test.ts'), 'process.env.OTHER = "1";\n');
    const second = await buildModel({ cwd, cacheLocation });
    expect(second.model.factPart('test/env.test.ts', 'env names', names)).toEqual(['OTHER']);
    expect(second.model.factPart('test/missing.test.ts', 'env names', names)).toBeNull();
  });
});

describe('RepoModel.markdownPart', () => {
  it('keeps a projection of a Markdown file\'s facts, answered the next run without loading them, and again after an edit', async () => {
    const cwd = makeGitRepo({ 'tripwire.config.json': '{}', 'docs/setup.md': '# Setup\n\n```sh\nexport FORGE_FAKE=1\n```\n' });
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-md-part-'));
    const fences = (facts: { fences: { env: { name: string }[] }[] }): string[] => facts.fences.flatMap((fence) => fence.env.map((ref) => ref.name));
    const first = await buildModel({ cwd, cacheLocation });
    expect(first.model.markdownPart('docs/setup.md', 'fence env', fences)).toEqual(['FORGE_FAKE']);
    first.model.saveCache();

    const second = await buildModel({ cwd, cacheLocation });
    const never = (): string[] => {
      throw new Error('projected again');
    };
    expect(second.model.markdownPart('docs/setup.md', 'fence env', never)).toEqual(['FORGE_FAKE']);
    expect(second.model.stats).toMatchObject({ parsed: 0, cached: 0, read: 0 });

    writeFileSync(join(cwd, 'docs/setup.md'), '# Setup\n\n```sh\nexport OTHER=1\n```\n');
    const third = await buildModel({ cwd, cacheLocation });
    expect(third.model.markdownPart('docs/setup.md', 'fence env', fences)).toEqual(['OTHER']);
    expect(third.model.markdownPart('docs/missing.md', 'fence env', fences)).toBeNull();
  });
});
