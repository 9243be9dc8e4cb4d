import picomatch from 'picomatch';

/** The text of one `.gitignore` and the directory that holds it ('' for the root). */
export interface GitignoreSource {
  dir: string;
  text: string;
}

interface Rule {
  base: string;
  negate: boolean;
  dirOnly: boolean;
  /** Unanchored patterns (no inner slash) match the last path segment only. */
  anchored: boolean;
  matches: (relPath: string) => boolean;
}

// gitignore has no brace expansion or extglobs: `{a,b}` and `+(x)` are literal there.
// `flags: 's'`: a wildcard matches a newline in a name too, as in git (see glob.ts).
const OPTIONS: picomatch.PicomatchOptions = { dot: true, windows: false, nobrace: true, noextglob: true, flags: 's' };

function parseLine(raw: string, base: string): Rule | undefined {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line === '' || line.startsWith('#')) return undefined;
  // Trailing spaces are dropped unless escaped with a backslash.
  while (line.endsWith(' ') && !line.endsWith('\\ ')) line = line.slice(0, -1);
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  }
  let dirOnly = false;
  while (line.endsWith('/')) {
    dirOnly = true;
    line = line.slice(0, -1);
  }
  if (line === '') return undefined;
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  // `dir/**` matches what is inside dir, not dir itself (picomatch would match both),
  // which keeps `!dir/keep` able to re-include a file.
  if (line.endsWith('/**')) line = `${line}/*`;
  return { base, negate, dirOnly, anchored, matches: picomatch(line, OPTIONS) };
}

function parseGitignore(source: GitignoreSource): Rule[] {
  const rules: Rule[] = [];
  for (const line of source.text.split('\n')) {
    const rule = parseLine(line, source.dir);
    if (rule) rules.push(rule);
  }
  return rules;
}

function depth(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}

/**
 * A predicate telling whether a repo-relative file is ignored by the given
 * `.gitignore` files, with git's semantics: the last matching rule wins, a
 * deeper file overrides a shallower one, and a file inside an ignored
 * directory cannot be re-included.
 */
export function createIgnoreFilter(sources: readonly GitignoreSource[]): (relPath: string) => boolean {
  const ordered = [...sources].sort((a, b) => depth(a.dir) - depth(b.dir) || (a.dir < b.dir ? -1 : 1));
  const rules = ordered.flatMap(parseGitignore);
  const dirVerdicts = new Map<string, boolean>();

  function verdict(relPath: string, isDir: boolean): boolean {
    let ignored = false;
    for (const rule of rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.base !== '' && !relPath.startsWith(`${rule.base}/`)) continue;
      const local = rule.base === '' ? relPath : relPath.slice(rule.base.length + 1);
      const subject = rule.anchored ? local : local.slice(local.lastIndexOf('/') + 1);
      if (rule.matches(subject)) ignored = !rule.negate;
    }
    return ignored;
  }

  function dirIgnored(dir: string): boolean {
    let known = dirVerdicts.get(dir);
    if (known === undefined) {
      const slash = dir.lastIndexOf('/');
      known = (slash !== -1 && dirIgnored(dir.slice(0, slash))) || verdict(dir, true);
      dirVerdicts.set(dir, known);
    }
    return known;
  }

  return (relPath) => {
    if (rules.length === 0) return false;
    const slash = relPath.lastIndexOf('/');
    return (slash !== -1 && dirIgnored(relPath.slice(0, slash))) || verdict(relPath, false);
  };
}
