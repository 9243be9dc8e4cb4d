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
