import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlobs, excludesDirectory, globBase, globTooComplex, isDynamicGlob, matchesAny, reachesInto, segmentGlobMatcher } from '../../src/util/glob.js';
import { collapseWildcardRuns } from '../../src/util/glob-shape.js';
import { PACKAGE_ROOT } from '../../src/version.js';

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

// Globs built from what harness globs are made of, many wildcards in a row included, and short
// repository paths over a few characters (no '.' or '..' segment, no empty one: git lists none).
const ATOMS = ['a', 'b', 'x', '.', '-', '*', '?', '**', '?*', '*?', '?*?*', '*?*?*', '[ab]', '[!a]', '{a,b}', '{a,?*?*}', '*(a)', '?(b)', '+(a|b)', '@(x|a)', '{a/b,x}', '@(a/b|x)', '\\*'];
const segment = fc.oneof({ weight: 1, arbitrary: fc.constant('**') }, { weight: 5, arbitrary: fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 5 }).map((atoms) => atoms.join('')) });
const glob = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
const part = fc
  .array(fc.constantFrom('a', 'b', 'x', '.', '-'), { minLength: 1, maxLength: 6 })
  .map((chars) => chars.join(''))
  .filter((name) => name !== '.' && name !== '..');
const path = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const OPTIONS = { dot: true, windows: false };

/**
 * The built glob matcher applied in a child process: these globs made the old matcher run for
 * minutes, and the kill is only a safety net for that code. What is asserted is the answers.
 */
function matchInChild(pattern: string, paths: readonly string[]): boolean[] | null {
  const script = `import { compileGlobs } from ${JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist/src/util/glob.js')).href)};
const matches = compileGlobs([process.argv[1]]);
process.stdout.write(JSON.stringify(JSON.parse(process.argv[2]).map((path) => matches(path))));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, pattern, JSON.stringify(paths)], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  return child.stdout === '' ? null : JSON.parse(child.stdout);
}

describe('globs with many wildcards', () => {
  it('match exactly what picomatch matches, runs collapsed and segments matched one at a time', () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (pattern, paths) => {
        fc.pre(globTooComplex(pattern) === null);
        const ours = compileGlobs([pattern]);
        // Short paths take picomatch's expression on the collapsed glob; the segment matcher serves long ones.
        const bySegment = segmentGlobMatcher(pattern) ?? ours;
        const theirs = picomatch(pattern, OPTIONS);
        for (const candidate of paths) {
          expect([pattern, candidate, ours(candidate), bySegment(candidate)]).toEqual([pattern, candidate, theirs(candidate), theirs(candidate)]);
        }
      }),
      { seed: 16, numRuns: 4000 },
    );
  });

  it('collapse a run of * and ? to its ? and one *, keeping its first character', () => {
    expect(collapseWildcardRuns('test/?*?*?*?*?*?*?*?*?*?*?*?*x')).toBe('test/????????????*x');
    expect(collapseWildcardRuns('a/*?*?/b')).toBe('a/*??/b');
    expect(collapseWildcardRuns('a/**/b**c')).toBe('a/**/b*c');
    // Left alone: a globstar, an extglob, a bracket, an escape.
    expect(collapseWildcardRuns('**/?**(a)/[*?*?]/\\**')).toBe('**/?**(a)/[*?*?]/\\**');
  });

  it('match the 29-character glob of ?* pairs against a 40-character name, and tell a match from a miss', () => {
    // It ran past a minute: picomatch's regular expression backtracks through every split of 12 stars.
    expect(
      matchInChild('test/?*?*?*?*?*?*?*?*?*?*?*?*x', [`test/${'a'.repeat(40)}`, `test/${'a'.repeat(39)}x`, `test/${'a'.repeat(10)}x`]),
    ).toEqual([false, true, false]);
  });

  it('match several starred segments and globstars one segment at a time', () => {
    // Three segments of *a*a*a against 40-character names ran past 90 s; eight globstars against a
    // path 60 deep past two minutes.
    const long = 'a'.repeat(40);
    expect(matchInChild('*a*a*a/*a*a*a/*a*a*a/b', [`${long}/${long}/${long}/c`, 'xaxaxa/aaa/aaa/b'])).toEqual([false, true]);
    const deep = `${Array.from({ length: 60 }, () => 'a').join('/')}/c`;
    expect(matchInChild('**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b', [deep, deep.replace(/c$/, 'b')])).toEqual([false, true]);
  });

  it('refuse a segment with more than 3 unbounded wildcards once runs are collapsed, and then match nothing', () => {
    expect(globTooComplex('test/*a*a*a*a*b')).toBe("5 unbounded wildcards in the path segment '*a*a*a*a*b' (at most 3)");
    expect(compileGlobs(['test/*a*a*a*a*b'])('test/aaaab')).toBe(false);
    expect(globTooComplex('!test/*a*a*a*a*b')).not.toBeNull();
    expect(globTooComplex('{src/**,test/**}/*.*.ts')).toBe("4 unbounded wildcards in a glob whose braces or groups hold a '/' (at most 3 there): split it into one glob per alternative");
  });

  it('accept what real harness globs hold', () => {
    for (const pattern of ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'packages/*/src/**/*.test.*', '*.*.*', 'test/?*?*?*?*?*?*?*?*?*?*?*?*x', '**/*Browserbase*.test.ts', '{src/**,test/**}/*.ts']) {
      expect([pattern, globTooComplex(pattern)]).toEqual([pattern, null]);
    }
  });
});
