import { loadYaml } from '../parse/yaml.js';
import { compileGlobs } from '../util/glob.js';
import { isRecord } from '../util/guards.js';

/**
 * The member globs a repository's root declares: package.json `workspaces`
 * (npm, yarn, bun: an array, or yarn's `{ packages }`) and pnpm-workspace.yaml
 * `packages`. `!` globs exclude, as in both tools.
 */
export function workspaceGlobs(packageJson: unknown, pnpmWorkspaceYaml: string | null): string[] {
  const out: string[] = [];
  const workspaces = isRecord(packageJson) ? packageJson.workspaces : undefined;
  const list: unknown[] = Array.isArray(workspaces) ? workspaces : isRecord(workspaces) && Array.isArray(workspaces.packages) ? workspaces.packages : [];
  for (const entry of list) if (typeof entry === 'string') out.push(entry);
  if (pnpmWorkspaceYaml !== null) {
    let data: unknown;
    try {
      // Loaded here, not with the module: every run imports this one, and only a pnpm workspace has the file.
      data = loadYaml().parse(pnpmWorkspaceYaml);
    } catch {
      data = null;
    }
    if (isRecord(data) && Array.isArray(data.packages)) for (const entry of data.packages) if (typeof entry === 'string') out.push(entry);
  }
  return out
    .map((glob) => {
      const negated = glob.startsWith('!');
      const clean = (negated ? glob.slice(1) : glob).replace(/^\.\//, '').replace(/\/+$/, '');
      return clean === '' || clean === '.' ? '' : `${negated ? '!' : ''}${clean}`;
    })
    .filter((glob) => glob !== '');
}

/** Every directory below the root that holds a package.json, outside node_modules, sorted. */
export function packageDirs(files: Iterable<string>): string[] {
  const dirs: string[] = [];
  for (const file of files) if (file.endsWith('/package.json') && !file.includes('node_modules/')) dirs.push(file.slice(0, -'/package.json'.length));
  return dirs.sort();
}

/** The directories among `dirs` that `globs` (workspaceGlobs) make workspace members. */
export function memberDirs(globs: readonly string[], dirs: readonly string[]): string[] {
  if (!globs.some((glob) => !glob.startsWith('!'))) return [];
  const member = compileGlobs(globs);
  return dirs.filter((dir) => member(dir));
}
