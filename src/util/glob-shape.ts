/**
 * The shape of a glob, read without compiling it: its path segments, its
 * runs of `*` and `?`, and how many unbounded wildcards each segment holds.
 * A backtracking regular expression (picomatch's) costs about n^k to fail on
 * a name of n characters with k unbounded wildcards, and multiplies across
 * segments: `test/?*?*?*?*?*?*?*?*?*?*?*?*x` against one 40-character name
 * ran past a minute, and three segments of `*a*a*a` past 90 s. So runs are
 * collapsed, a glob whose parts multiply is matched one segment at a time
 * where they would (glob.ts), and a segment with more wildcards than any
 * real glob has is refused.
 */

/** More `*` than this in one path segment (after runs are collapsed) is too complex: about 1 ms per 255-character name at 3. */
export const MAX_STARS_PER_SEGMENT = 3;

/** A glob that cannot be cut into segments is matched whole, where wildcards in different segments multiply. */
const MAX_WHOLE = 3;

/** Characters after which picomatch reads `**` as a globstar. */
const GLOBSTAR_START = new Set(['/', '{', ',', '(', ')', '|']);

/**
 * A run of `*` and `?` in one segment means "at least as many characters as
 * it has `?`": `?*?*?*x` is `???*x`. The run keeps its last character (a
 * segment that ends in `*` changes what a globstar after it may match in
 * picomatch): `*?*?` → `*??`, `?*?*` → `??*`. A run that starts with a
 * globstar (`**` where a segment, alternative or group starts), that follows
 * a group or that opens an extglob (`*(…)`, `?(…)`) is left alone, as is
 * anything inside brackets or after `\`.
 */
export function collapseWildcardRuns(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? '';
    if (char === '\\') {
      out += pattern.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === '[') {
      const end = bracketEnd(pattern, i);
      out += pattern.slice(i, end);
      i = end;
      continue;
    }
    if (char !== '*' && char !== '?') {
      out += char;
      i++;
      continue;
    }
    let end = i;
    while (pattern[end] === '*' || pattern[end] === '?') end++;
    const run = pattern.slice(i, end);
    const stars = run.length - run.replaceAll('*', '').length;
    // picomatch reads `**` as a globstar (it crosses `/`) where a segment, a brace alternative or a group starts, and after a group.
    const globstar = run.startsWith('**') && GLOBSTAR_START.has(pattern[i - 1] ?? '/');
    // Right after a group, picomatch reads a `?` as making the group optional: not a wildcard to collapse.
    if (stars < 2 || pattern[end] === '(' || pattern[i - 1] === ')' || globstar) out += run;
    else {
      const marks = '?'.repeat(run.length - stars);
      out += run.endsWith('*') ? `${marks}*` : `*${marks}`;
    }
    i = end;
  }
  return out;
}

/** The index after the `]` that closes the bracket expression opened at `start`, or start + 1 when none does (a literal `[`). */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i + 1;
    else if (pattern[i] === '/') break;
  }
  return start + 1;
}

/**
 * The pattern's path segments, or null when a brace, group or bracket holds
 * a `/` (`{src/**,test}/*.ts`), or a globstar is part of a segment (`**x`
 * crosses `/` in picomatch): such a glob can only be matched whole.
 */
export function splitSegments(pattern: string): string[] | null {
  const segments: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') i++;
    else if (char === '[') i = bracketEnd(pattern, i) - 1;
    else if (char === '{' || char === '(') depth++;
    else if ((char === '}' || char === ')') && depth > 0) depth--;
    else if (char === '/') {
      if (depth > 0) return null;
      segments.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  segments.push(pattern.slice(start));
  const whole = segments.every((segment) => segment !== '' && (segment === '**' || !/(?:^|[{,()|])\*\*/.test(segment)));
  return depth === 0 && whole ? segments : null;
}

/**
 * Unbounded wildcards in collapsed text: each run of `*` (a globstar is one),
 * and each `+(`/`!(` group (`*(` is counted by its `*`); brackets and escapes
 * skipped.
 */
export function unboundedWildcards(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '[') i = bracketEnd(text, i) - 1;
    else if (char === '*') {
      count++;
      while (text[i + 1] === '*') i++;
    } else if ((char === '+' || char === '!') && text[i + 1] === '(') count++;
  }
  return count;
}

/**
 * Why a glob is too complex to match in bounded time, or null. A segment
 * holds at most MAX_STARS_PER_SEGMENT unbounded wildcards once its runs are
 * collapsed; a glob that cannot be cut into segments (a brace holding a
 * `/`) is matched whole, so it may hold at most MAX_WHOLE in all.
 */
export function globComplexity(pattern: string): string | null {
  const collapsed = collapseWildcardRuns(pattern);
  const segments = splitSegments(collapsed);
  if (segments === null) {
    const total = unboundedWildcards(collapsed);
    return total > MAX_WHOLE ? `${total} unbounded wildcards in a glob whose braces or groups hold a '/' (at most ${MAX_WHOLE} there): split it into one glob per alternative` : null;
  }
  for (const segment of segments) {
    if (segment === '**') continue;
    const stars = unboundedWildcards(segment);
    if (stars > MAX_STARS_PER_SEGMENT) return `${stars} unbounded wildcards in the path segment '${segment}' (at most ${MAX_STARS_PER_SEGMENT})`;
  }
  return null;
}
