import { compileGlobs } from '../repo/glob.js';

/** The name part of a test file's glob: `*.test.ts` for `review.test.ts`, the extension for a file without a marker. */
export function testNamePattern(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const marker = /[._-](?:test|spec)s?\.[cm]?[jt]sx?$/.exec(name);
  if (marker) return `*${marker[0]}`;
  const dot = name.lastIndexOf('.');
  return dot === -1 ? name : `*${name.slice(dot)}`;
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
export function coverFiles(targets: readonly string[], avoid: readonly string[], namePattern: (file: string) => string = testNamePattern): string[] {
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

  const chosen = new Set<string>();
  for (const target of targets) {
    const pattern = namePattern(target);
    // A file in a directory is named from its top-level directory down (`test/**/…`), never from `**/`: the roots are worth seeing.
    const dirs = target.includes('/') ? ancestors(target).slice(1) : [''];
    const recursive = dirs.map((dir) => (dir === '' ? `**/${pattern}` : `${dir}/**/${pattern}`));
    const prefixed = prefixGlob(target, pattern);
    const glob = recursive.find(isClear) ?? (prefixed !== null && isClear(prefixed) ? prefixed : target);
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
