import { compileGlobs } from '../util/glob.js';

/** The name part of a test file's glob: `*.test.ts` for `review.test.ts`, the extension for a file without a marker. */
export function testNamePattern(file: string): string {
  return testNamePatterns(file)[0] ?? file;
}

/**
 * The name patterns of a test file, shortest first: `*.test.ts` then
 * `*.int.test.ts` for `chat.int.test.ts`; `*.evals.ts` for `summarize.evals.ts`;
 * the extension for a file without a marker.
 */
export function testNamePatterns(file: string): string[] {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const marker = /((?:\.[a-z0-9]+)*?)([._-](?:test|spec|evals?|e2e)s?\.[cm]?[jt]sx?)$/i.exec(name);
  if (marker?.[2] !== undefined) {
    const out = [`*${marker[2]}`];
    // Dotted words are a suffix convention (`.int.test.ts`); words joined by `-` or `_` are the test's own name (`-review.test.ts`).
    const extra = (marker[1] ?? '').split(/(?=\.)/).filter((part) => part !== '');
    // `*.int.test.ts`, then `*.standard.int.test.ts`: one more word of the name each time, never the whole name.
    for (let i = extra.length - 1; i >= 0; i--) {
      const pattern = `*${extra.slice(i).join('')}${marker[2]}`;
      if (pattern.length - 1 < name.length) out.push(pattern);
    }
    return out;
  }
  const dot = name.lastIndexOf('.');
  return [dot === -1 ? name : `*${name.slice(dot)}`];
}

function ancestors(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return ['', ...parts.map((_, index) => parts.slice(0, index + 1).join('/'))];
}

/**
 * The fewest readable globs that match every target and none of `avoid`:
 * for each target the shallowest `dir/**\/<name pattern>` (from its top-level directory) that stays clear of
 * `avoid`, else a name prefix in its own directory (`test/e2e-*.test.ts`),
 * else the path itself. Globs that differ only by extension are merged.
 */
export function coverFiles(targets: readonly string[], avoid: readonly string[], namePatterns: (file: string) => string[] = testNamePatterns): string[] {
  const clear = new Map<string, boolean>();
  const isClear = (glob: string): boolean => {
    let known = clear.get(glob);
    if (known === undefined) {
      const matches = compileGlobs([glob]);
      known = !avoid.some((file) => matches(file));
      clear.set(glob, known);
    }
    return known;
  };

  const reach = new Map<string, number>();
  const reachOf = (glob: string): number => {
    let known = reach.get(glob);
    if (known === undefined) {
      const matches = compileGlobs([glob]);
      known = targets.filter((file) => matches(file)).length;
      reach.set(glob, known);
    }
    return known;
  };

  const chosen = new Set<string>();
  for (const target of targets) {
    const patterns = namePatterns(target);
    const pattern = patterns[0] ?? target;
    // A file in a directory is named from its top-level directory down (`test/**/…`), never from `**/`: the roots are worth seeing.
    // Of the clear globs, the one that names the most targets; on a tie the plain name pattern, then the shallowest directory.
    const dirs = target.includes('/') ? ancestors(target).slice(1) : [''];
    const recursive = patterns.flatMap((name) => dirs.map((dir) => (dir === '' ? `**/${name}` : `${dir}/**/${name}`))).filter(isClear);
    let best: string | undefined;
    for (const glob of recursive) if (best === undefined || reachOf(glob) > reachOf(best)) best = glob;
    const prefixed = prefixGlob(target, pattern);
    const glob = best ?? (prefixed !== null && isClear(prefixed) ? prefixed : target);
    chosen.add(glob);
  }
  return mergeExtensions([...chosen]).sort();
}

/** `test/e2e-*.test.ts` for `test/e2e-review.test.ts`: the name up to its first separator. */
function prefixGlob(file: string, pattern: string): string | null {
  const slash = file.lastIndexOf('/');
  const dir = file.slice(0, slash + 1);
  const name = file.slice(slash + 1);
  const separator = /^[^._-]+[._-]/.exec(name);
  if (!separator || !pattern.startsWith('*')) return null;
  const head = separator[0];
  const tail = pattern.slice(1);
  if (head.length + tail.length >= name.length + 1) return null;
  return `${dir}${head}*${tail}`;
}

/** `a/**\/*.test.ts` + `a/**\/*.test.tsx` → `a/**\/*.test.{ts,tsx}`. */
function mergeExtensions(globs: string[]): string[] {
  const groups = new Map<string, string[]>();
  const out: string[] = [];
  for (const glob of globs) {
    const match = /^(.*\*[^/*]*\.)([a-z]+)$/.exec(glob);
    if (!match?.[1] || !match[2]) {
      out.push(glob);
      continue;
    }
    const list = groups.get(match[1]);
    if (list) list.push(match[2]);
    else groups.set(match[1], [match[2]]);
  }
  for (const [head, extensions] of groups) {
    out.push(extensions.length === 1 ? `${head}${extensions[0] ?? ''}` : `${head}{${extensions.sort().join(',')}}`);
  }
  return out;
}

/** The top-level directories (or `.`) that hold the files: the test roots shown to the user. */
export function rootsOf(files: readonly string[]): string[] {
  return [...new Set(files.map((file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.')))].sort();
}

/** A file under one of these directories is a fixture (data for a test), not part of this repository's harness. */
const FIXTURE_SEGMENT = /^(?:fixtures?|__fixtures__|testdata|test-data)$/i;

export function inFixture(file: string): boolean {
  return file.split('/').slice(0, -1).some((segment) => FIXTURE_SEGMENT.test(segment));
}
