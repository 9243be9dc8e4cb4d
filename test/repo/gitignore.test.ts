import { describe, expect, it } from 'vitest';
import { createIgnoreFilter } from '../../src/repo/gitignore.js';

describe('createIgnoreFilter', () => {
  it('matches an unanchored pattern at any depth', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: '*.log\n' }]);
    expect(ignored('a.log')).toBe(true);
    expect(ignored('deep/er/b.log')).toBe(true);
    expect(ignored('a.txt')).toBe(false);
  });

  it('anchors a pattern with a leading or inner slash', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: '/only-root.txt\ndocs/draft.md\n' }]);
    expect(ignored('only-root.txt')).toBe(true);
    expect(ignored('pkg/only-root.txt')).toBe(false);
    expect(ignored('docs/draft.md')).toBe(true);
    expect(ignored('pkg/docs/draft.md')).toBe(false);
  });

  it('applies a directory pattern to everything below that directory only', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: 'build/\n' }]);
    expect(ignored('build/out.js')).toBe(true);
    expect(ignored('pkg/build/deep/out.js')).toBe(true);
    expect(ignored('build')).toBe(false);
  });

  it('re-includes with ! but never below an excluded directory', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: '*.log\n!keep.log\nvendor/\n!vendor/keep.js\n' }]);
    expect(ignored('x.log')).toBe(true);
    expect(ignored('keep.log')).toBe(false);
    expect(ignored('vendor/keep.js')).toBe(true);
  });

  it('lets dir/** be re-included per file, unlike dir/', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: 'docs/**\n!docs/keep.md\n' }]);
    expect(ignored('docs/drop.md')).toBe(true);
    expect(ignored('docs/keep.md')).toBe(false);
  });

  it('scopes a nested .gitignore to its directory and lets it override the root', () => {
    const ignored = createIgnoreFilter([
      { dir: 'pkg', text: '!keep.log\nsecret/\n' },
      { dir: '', text: '*.log\n' },
    ]);
    expect(ignored('pkg/keep.log')).toBe(false);
    expect(ignored('keep.log')).toBe(true);
    expect(ignored('pkg/secret/key.txt')).toBe(true);
    expect(ignored('secret/key.txt')).toBe(false);
  });

  it('skips comments and blank lines, honours escapes and trailing spaces', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: '# comment\n\n\\#hash\n\\!bang\ntrailing   \r\n{a,b}.txt\n' }]);
    expect(ignored('# comment')).toBe(false);
    expect(ignored('#hash')).toBe(true);
    expect(ignored('!bang')).toBe(true);
    expect(ignored('trailing')).toBe(true);
    // gitignore has no brace expansion.
    expect(ignored('a.txt')).toBe(false);
    expect(ignored('{a,b}.txt')).toBe(true);
  });

  it('matches dotfiles with wildcards', () => {
    const ignored = createIgnoreFilter([{ dir: '', text: '*.env\n' }]);
    expect(ignored('.env')).toBe(true);
  });
});
