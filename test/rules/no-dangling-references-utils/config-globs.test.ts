import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import { deadConfigGlobs } from '../../../rules/no-dangling-references-utils/config-globs.js';
import { makeGitRepo } from '../../support/repo.js';

describe('deadConfigGlobs', () => {
  it('reports a plain file name under shipped.exclude that names no file, and skips a negation and a plain word under shipped.illustrative (an info-string marker)', async () => {
    const { model } = await buildModel({
      cwd: makeGitRepo({
        'tripwire.config.json': JSON.stringify({ shipped: { include: ['docs/**/*.md'], exclude: ['NOTES.md', 'docs/guide.md', '!docs/keep.md'], illustrative: ['example', 'docs/none/*.md'] } }),
        'docs/guide.md': '# Guide\n',
      }),
      cache: false,
    });
    expect(deadConfigGlobs(model).map((f) => `${f.messageId} ${f.file}:${f.loc.line}:${f.loc.column}-${f.loc.endColumn}`)).toEqual([
      'deadGlob tripwire.config.json:1:51-61',
      'deadGlob tripwire.config.json:1:121-137',
    ]);
  });

  it('reports nothing without a configuration file', async () => {
    const { model } = await buildModel({ cwd: makeGitRepo({ 'docs/guide.md': '# Guide\n' }), cache: false });
    expect(deadConfigGlobs(model)).toEqual([]);
  });
});
