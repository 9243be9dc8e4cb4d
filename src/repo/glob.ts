import picomatch from 'picomatch';

export type PathMatcher = (relPath: string) => boolean;

/*
 * `dot: true`: harness files live in dot directories (`.github/`, `.tripwire/`,
 * `.config/`), and git lists them like any other file. Without it `**` would
 * silently skip them, and a touchfile glob that misses a file deselects a paid
 * test without a word. `windows: false`: every path we match is repo-relative
 * POSIX, so a backslash in a pattern stays an escape on every platform.
 * `flags: 's'`: picomatch builds `**` from `.`, which does not match a newline,
 * and git allows one in a file name; like git's own wildmatch, a wildcard
 * matches every character but `/`.
 */
const OPTIONS: picomatch.PicomatchOptions = { dot: true, windows: false, flags: 's' };

/**
 * Patterns made only of these characters have no glob syntax (`@` is one only
 * before a parenthesis): each names one path, and picomatch would compile it
 * to an exact match, at a cost. A touchfile map names thousands of files.
 */
const LITERAL = /^[\w./@-]+$/;

const compiledLists = new Map<string, PathMatcher>();
const compiledPatterns = new Map<string, PathMatcher>();

function normalizePattern(pattern: string): string {
  return pattern.startsWith('./') ? pattern.slice(2) : pattern;
}

/*
 * picomatch compiles a list as "any of its patterns", so a list's matcher is
 * built from per-pattern matchers, each compiled once per process: the
 * per-test touchfile lists share most of their patterns.
 */
function compilePattern(pattern: string): PathMatcher {
  let matcher = compiledPatterns.get(pattern);
  if (!matcher) {
    // What picomatch's own matcher tests (picomatch.test with these options),
    // without the result object it allocates per call: coverage checks run
    // tens of thousands of times on a big harness.
    const regex = picomatch.makeRe(pattern, OPTIONS);
    matcher = (relPath) => relPath !== '' && (relPath === pattern || regex.test(relPath));
    compiledPatterns.set(pattern, matcher);
  }
  return matcher;
}

function anyOf(patterns: readonly string[]): PathMatcher {
  const literals = new Set(patterns.filter((pattern) => LITERAL.test(pattern)));
  const globs = patterns.filter((pattern) => !literals.has(pattern)).map(compilePattern);
  if (globs.length === 0) return (relPath) => literals.has(relPath);
  if (literals.size === 0 && globs.length === 1 && globs[0]) return globs[0];
  return (relPath) => literals.has(relPath) || globs.some((matches) => matches(relPath));
}

/**
 * One matcher for a list of globs: a path matches when it matches at least
 * one positive pattern and no negated (`!pattern`) one. A list of only
 * negations matches nothing. Compiled matchers are shared per pattern list.
 */
export function compileGlobs(patterns: readonly string[]): PathMatcher {
  const key = patterns.join('\0');
  const cached = compiledLists.get(key);
  if (cached) return cached;

  const include: string[] = [];
  const exclude: string[] = [];
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) exclude.push(normalizePattern(pattern.slice(1)));
    else include.push(normalizePattern(pattern));
  }

  let matcher: PathMatcher;
  if (include.length === 0) {
    matcher = () => false;
  } else {
    const isIncluded = anyOf(include);
    const isExcluded = exclude.length > 0 ? anyOf(exclude) : undefined;
    matcher = isExcluded ? (relPath) => isIncluded(relPath) && !isExcluded(relPath) : isIncluded;
  }
  compiledLists.set(key, matcher);
  return matcher;
}

export function matchesAny(relPath: string, patterns: readonly string[]): boolean {
  return compileGlobs(patterns)(relPath);
}

/**
 * Whether a glob can match a path inside directory `dir`, or `dir` itself:
 * `test/**` and `test/*\/fixtures/**` reach into `test/vendor`,
 * `test/*.test.ts` does not. Segment by segment against the directory's
 * names; a brace group spanning a `/` is judged by the glob's static base.
 */
export function reachesInto(pattern: string, dir: string): boolean {
  const source = normalizePattern(pattern);
  if (!isDynamicGlob(source)) return source === dir || source.startsWith(`${dir}/`);
  if (/\{[^}]*\/[^}]*\}/.test(source)) {
    const base = globBase(source);
    return base === '' || base === dir || dir.startsWith(`${base}/`) || base.startsWith(`${dir}/`);
  }
  const segments = source.split('/');
  const names = dir.split('/');
  for (const [index, name] of names.entries()) {
    const segment = segments[index];
    if (segment === undefined) return false;
    if (segment === '**') return true;
    if (!picomatch.isMatch(name, segment, OPTIONS)) return false;
  }
  return true;
}

/** Whether a glob matches everything inside directory `dir`: `dir/**`, or `**` under one of its ancestors (or a glob matching it). */
export function excludesDirectory(pattern: string, dir: string): boolean {
  const source = normalizePattern(pattern);
  const base = source.replace(/\/\*\*(?:\/\*)?$/, '');
  if (base === source) return compilePattern(source)(dir);
  if (base === '**') return true;
  const names = dir.split('/');
  const matches = compilePattern(base);
  return names.some((_, index) => matches(names.slice(0, index + 1).join('/')));
}

/** The static directory prefix of a glob (`test/e2e` for `test/e2e/**\/*.ts`), '' for none. */
export function globBase(pattern: string): string {
  const source = normalizePattern(pattern.startsWith('!') ? pattern.slice(1) : pattern);
  return picomatch.scan(source).base;
}

/** Whether the pattern holds any glob syntax, or names one path literally. */
export function isDynamicGlob(pattern: string): boolean {
  return picomatch.scan(normalizePattern(pattern)).isGlob;
}
