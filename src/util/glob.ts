import picomatch from 'picomatch';
import { collapseWildcardRuns, globComplexity, splitSegments, unboundedWildcards } from './glob-shape.js';

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
/** globTooComplex's answers: every rule and the core checks ask it for every glob of every map. */
const complexity = new Map<string, string | null>();

function normalizePattern(pattern: string): string {
  // picomatch drops every leading `./`.
  return pattern.replace(/^(?:\.\/)+/, '');
}

/*
 * picomatch compiles a list as "any of its patterns", so a list's matcher is
 * built from per-pattern matchers, each compiled once per process: the
 * per-test touchfile lists share most of their patterns.
 */
function compilePattern(pattern: string): PathMatcher {
  let matcher = compiledPatterns.get(pattern);
  if (!matcher) {
    matcher = globComplexity(pattern) === null ? boundedMatcher(pattern) : () => false;
    compiledPatterns.set(pattern, matcher);
  }
  return matcher;
}

/**
 * What picomatch matches, in time bounded by the path's length. Runs of
 * wildcards are collapsed. A globstar can take any number of parts, and a
 * segment with two or more `*` can split its part in many ways; with two such
 * parts in a glob, a backtracking regular expression retries every way of one
 * for every way of the other. picomatch's regular expression, the faster,
 * serves a path on which those ways are few (every real path); a path on
 * which they are many is matched one segment at a time, where a segment
 * either matches its part of the path or not.
 */
function boundedMatcher(pattern: string): PathMatcher {
  const collapsed = collapseWildcardRuns(pattern);
  // What picomatch's own matcher tests (picomatch.test with these options),
  // without the result object it allocates per call: coverage checks run
  // tens of thousands of times on a big harness.
  const regex = picomatch.makeRe(collapsed, OPTIONS);
  const byRegex: PathMatcher = (relPath) => relPath !== '' && (relPath === pattern || regex.test(relPath));
  const segments = splitSegments(collapsed);
  if (segments === null) return byRegex;
  const globstars = segments.filter((segment) => segment === '**').length;
  const splits = segments.filter((segment) => segment !== '**' && unboundedWildcards(segment) > 1);
  if (globstars + splits.length < 2) return byRegex;
  const powers = splits.reduce((sum, segment) => sum + unboundedWildcards(segment) - 1, 0);
  const bySegment = segmentMatcher(segments, splitSegments(pattern) ?? segments);
  return (relPath) => {
    let depth = 1;
    let longest = 0;
    let length = 0;
    for (let i = 0; i < relPath.length; i++) {
      if (relPath.charCodeAt(i) === 47) {
        depth++;
        length = 0;
      } else if (++length > longest) longest = length;
    }
    return (depth + 1) ** globstars * (longest + 1) ** powers <= MAX_WAYS ? byRegex(relPath) : bySegment(relPath);
  };
}

/** Ways a backtracking match may retry, beyond which a path is matched segment by segment: about a millisecond. */
const MAX_WAYS = 100_000;

/** The segment-by-segment matcher of a glob, whatever the path; null when the glob cannot be cut into segments. For tests. */
export function segmentGlobMatcher(pattern: string): PathMatcher | null {
  const collapsed = collapseWildcardRuns(normalizePattern(pattern));
  const segments = splitSegments(collapsed);
  return segments === null ? null : segmentMatcher(segments, splitSegments(normalizePattern(pattern)) ?? segments);
}

/**
 * Segment by segment: `reach[j]` says the segments so far can end after the
 * path's first j parts. A globstar takes any number of parts but `.` and
 * `..`, as picomatch's does with `dot: true`; another segment takes one part
 * its own pattern matches. Two of picomatch's rules are kept: a trailing
 * globstar after a segment that ends in `*` as written (`written`, before
 * runs were collapsed) takes at least one part (`*\/**` does not match `a`,
 * while `a/**` does); and a globstar between segments may also end the path
 * when what follows it matches nothing (`a/**\/*(b)` matches `a`).
 */
function segmentMatcher(all: readonly string[], written: readonly string[]): PathMatcher {
  // `**/**` is one globstar, in picomatch as in meaning.
  const kept = (_: string, index: number): boolean => !(all[index] === '**' && all[index - 1] === '**');
  const segments = all.filter(kept);
  const original = written.filter(kept);
  const last = segments.length - 1;
  const atLeastOne = segments[last] === '**' && last > 0 && /(?<!\\)\*$/.test(original[last - 1] ?? '') && original[last - 1] !== '**';
  const tests = segments.map((segment) => {
    if (segment === '**') return null;
    if (!picomatch.scan(segment).isGlob) return (part: string) => part === segment;
    const regex = picomatch.makeRe(segment, OPTIONS);
    return (part: string) => regex.test(part);
  });
  // Whether a segment matches nothing where a segment starts (alone, picomatch refuses an empty match).
  const empty = segments.map((segment) => segment !== '**' && picomatch.makeRe(`x/${segment}`, OPTIONS).test('x/'));
  /** After a globstar between segments took the path's end: whether what follows it matches nothing. */
  const endsAfter = (k: number): boolean => {
    if (!empty[k + 1]) return false;
    if (k + 1 === last) return true;
    if (segments[k + 2] !== '**') return false;
    return k + 2 === last ? !atLeastOne : endsAfter(k + 2);
  };
  const canEnd = segments.map((segment, k) => segment === '**' && k > 0 && k < last && endsAfter(k));
  // Most paths fail on their last part: try that first when the glob must end in a segment that takes it.
  const lastPart = canEnd.includes(true) ? null : tests[last];
  return (relPath) => {
    if (relPath === '') return false;
    if (lastPart && !lastPart(relPath.slice(relPath.lastIndexOf('/') + 1))) return false;
    const parts = relPath.split('/');
    const end = parts.length;
    let reach = new Uint8Array(end + 1);
    reach[0] = 1;
    for (const [index, test] of tests.entries()) {
      // The segments before a globstar took the whole path, and what follows it matches nothing.
      if (canEnd[index] === true && reach[end] === 1) return true;
      const next = new Uint8Array(end + 1);
      const none = index === last && atLeastOne ? 0 : 1;
      let any = false;
      for (let j = 0; j <= end; j++) {
        const part = parts[j - 1] ?? '';
        const more = j > 0 && (next[j - 1] === 1 || (none === 0 && reach[j - 1] === 1)) && part !== '.' && part !== '..';
        if (test === null) next[j] = (none === 1 && reach[j] === 1) || more ? 1 : 0;
        else next[j] = j > 0 && reach[j - 1] === 1 && test(part) ? 1 : 0;
        any ||= next[j] === 1;
      }
      if (!any) return false;
      reach = next;
    }
    return reach[end] === 1;
  };
}

/** Why a glob is refused as too complex to match in bounded time (a finding at its place), or null. */
export function globTooComplex(pattern: string): string | null {
  // A literal path has no wildcard to count.
  if (LITERAL.test(pattern)) return null;
  let reason = complexity.get(pattern);
  if (reason === undefined) {
    const source = pattern.startsWith('!') ? pattern.slice(1) : pattern;
    reason = globComplexity(normalizePattern(source));
    complexity.set(pattern, reason);
  }
  return reason;
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
