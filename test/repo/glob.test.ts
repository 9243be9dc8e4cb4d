import { describe, expect, it } from 'vitest';
import { compileGlobs, excludesDirectory, globBase, isDynamicGlob, matchesAny, reachesInto } from '../../src/repo/glob.js';

describe('compileGlobs', () => {
  it('matches dotfiles and dot directories', () => {
    const matches = compileGlobs(['**/*.yml']);
    expect(matches('.github/workflows/ci.yml')).toBe(true);
    expect(matches('.tripwire.yml')).toBe(true);
    expect(matches('config/app.yml')).toBe(true);
    expect(matches('config/app.yaml')).toBe(false);
  });

  it('lets a negated pattern exclude what a positive one matched', () => {
    const matches = compileGlobs(['test/**/*.ts', '!test/fixtures/**']);
    expect(matches('test/unit/a.test.ts')).toBe(true);
    expect(matches('test/fixtures/bad/a.test.ts')).toBe(false);
    expect(matches('src/a.ts')).toBe(false);
  });

  it('matches nothing with negations only', () => {
    const matches = compileGlobs(['!test/**']);
    expect(matches('src/a.ts')).toBe(false);
    expect(matches('test/a.ts')).toBe(false);
  });

  it('matches nothing with an empty list', () => {
    expect(compileGlobs([])('a.ts')).toBe(false);
  });

  it('accepts a leading ./ in patterns', () => {
    expect(compileGlobs(['./test/*.ts'])('test/a.ts')).toBe(true);
    expect(compileGlobs(['test/*.ts', '!./test/b.ts'])('test/b.ts')).toBe(false);
  });

  it('does not let * cross a directory boundary', () => {
    const matches = compileGlobs(['test/*.ts']);
    expect(matches('test/a.ts')).toBe(true);
    expect(matches('test/unit/a.ts')).toBe(false);
  });

  it('lets ** and * match a newline in a file or directory name, as git does, but never a slash', () => {
    const matches = compileGlobs(['src/**', 'test/*.ts']);
    expect(matches('src/notes\nmore/a.ts')).toBe(true);
    expect(matches('src/a\nb.ts')).toBe(true);
    expect(matches('test/a\nb.ts')).toBe(true);
    expect(matches('test/a/b.ts')).toBe(false);
    expect(compileGlobs(['test/**/*.test.ts'])('test/new\nunit/judge.test.ts')).toBe(true);
  });

  it('expands braces', () => {
    const matches = compileGlobs(['test/e2e-{llm,api}.test.ts']);
    expect(matches('test/e2e-llm.test.ts')).toBe(true);
    expect(matches('test/e2e-api.test.ts')).toBe(true);
    expect(matches('test/e2e-ui.test.ts')).toBe(false);
  });

  it('matches a pattern without glob syntax as exactly that path', () => {
    const matches = compileGlobs(['test/evals/e2e-llm.test.ts', 'src/']);
    expect(matches('test/evals/e2e-llm.test.ts')).toBe(true);
    expect(matches('test/evals/e2e-llm.test.tsx')).toBe(false);
    expect(matches('test/evals/e2e-llm.test.ts/x')).toBe(false);
    expect(matches('src')).toBe(false);
  });

  it('reads a backslash as an escape, not as part of a literal path', () => {
    expect(compileGlobs(['docs/a\\*b.md'])('docs/a*b.md')).toBe(true);
  });

  it('combines lists that share patterns without changing either', () => {
    const first = compileGlobs(['src/**', 'test/run.ts']);
    const second = compileGlobs(['test/run.ts', '!src/x.ts', 'docs/*.md']);
    expect(first('src/x.ts')).toBe(true);
    expect(second('src/x.ts')).toBe(false);
    expect(second('test/run.ts')).toBe(true);
    expect(second('docs/a.md')).toBe(true);
    expect(first('docs/a.md')).toBe(false);
  });

  it('compiles a pattern list once', () => {
    expect(compileGlobs(['src/**', '!src/x.ts'])).toBe(compileGlobs(['src/**', '!src/x.ts']));
    expect(compileGlobs(['src/**'])).not.toBe(compileGlobs(['src/**', '!src/x.ts']));
  });
});

describe('matchesAny', () => {
  it('is compileGlobs applied to one path', () => {
    expect(matchesAny('.github/ci.yml', ['**/*.yml'])).toBe(true);
    expect(matchesAny('a.ts', ['**/*.yml'])).toBe(false);
  });
});

describe('globBase and isDynamicGlob', () => {
  it('returns the static directory prefix', () => {
    expect(globBase('test/e2e/**/*.ts')).toBe('test/e2e');
    expect(globBase('**/*.ts')).toBe('');
    expect(globBase('!fixtures/**')).toBe('fixtures');
    expect(globBase('./src/*.ts')).toBe('src');
  });

  it('tells a literal path from a glob', () => {
    expect(isDynamicGlob('test/helpers/run.ts')).toBe(false);
    expect(isDynamicGlob('test/helpers/*.ts')).toBe(true);
  });
});

describe('reachesInto and excludesDirectory', () => {
  it('tells whether a glob can match a path inside a directory', () => {
    expect(reachesInto('test/**/*.test.ts', 'test/vendor/evals')).toBe(true);
    expect(reachesInto('test/*/evals/**', 'test/vendor/evals')).toBe(true);
    expect(reachesInto('**/*.ts', 'vendor')).toBe(true);
    expect(reachesInto('test/vendor/evals', 'test/vendor/evals')).toBe(true);
    expect(reachesInto('test/*.test.ts', 'test/vendor')).toBe(false);
    expect(reachesInto('test/unit/**', 'test/vendor')).toBe(false);
    expect(reachesInto('src/**', 'test/vendor')).toBe(false);
    expect(reachesInto('{test/vendor,src}/**', 'test/vendor')).toBe(true);
  });

  it('tells whether a glob matches everything inside a directory', () => {
    expect(excludesDirectory('test/vendor/**', 'test/vendor/evals')).toBe(true);
    expect(excludesDirectory('test/*/evals/**', 'test/vendor/evals')).toBe(true);
    expect(excludesDirectory('test/vendor/evals', 'test/vendor/evals')).toBe(true);
    expect(excludesDirectory('test/vendor/**/*.ts', 'test/vendor/evals')).toBe(false);
    expect(excludesDirectory('test/unit/**', 'test/vendor/evals')).toBe(false);
  });
});
