import { parse as parseYaml } from 'yaml';
import { compileGlobs } from '../util/glob.js';
import { isRecord } from '../util/guards.js';
import { inFixture } from './globs.js';
import { readManifest, type RepoScan } from './scan.js';

/** One package of the repository: the root, or a workspace member, with its own scripts and runner configs. */
export interface Package {
  /** Repository-relative directory; '' for the root. */
  dir: string;
  name: string | null;
  /** The package seen from its own directory: paths relative to `dir`. */
  scan: RepoScan;
}

/**
 * The root package and the workspace members it declares (package.json
 * `workspaces`, as an array or `{ packages }`, and pnpm-workspace.yaml
 * `packages`): every directory matching a member glob that holds a
 * package.json. Nested packages a glob does not name are not members.
 */
export function workspacePackages(scan: RepoScan): Package[] {
  const globs = memberGlobs(scan);
  const root: Package = { dir: '', name: nameOf(scan.packageJson), scan };
  if (globs.length === 0) return [root];
  const member = compileGlobs(globs);
  return [root, ...packageDirs(scan).filter((dir) => member(dir)).map((dir) => packageAt(scan, dir))];
}

/** Every directory below the root that holds a package.json, outside node_modules and fixture folders. */
export function packageDirs(scan: RepoScan): string[] {
  return scan.files
    .filter((file) => file.endsWith('/package.json') && !file.includes('node_modules/') && !inFixture(file))
    .map((file) => file.slice(0, -'/package.json'.length))
    .sort();
}

/** The package whose directory is `dir`, read as its own scan. */
export function packageAt(scan: RepoScan, dir: string): Package {
  const sub = subScan(scan, dir);
  return { dir, name: nameOf(sub.packageJson), scan: sub };
}

function memberGlobs(scan: RepoScan): string[] {
  const out: string[] = [];
  const workspaces = scan.packageJson?.workspaces;
  const list = Array.isArray(workspaces) ? workspaces : isRecord(workspaces) && Array.isArray(workspaces.packages) ? workspaces.packages : [];
  for (const entry of list) if (typeof entry === 'string') out.push(entry);
  const pnpm = scan.text('pnpm-workspace.yaml');
  if (pnpm !== null) {
    let data: unknown;
    try {
      data = parseYaml(pnpm);
    } catch {
      data = null;
    }
    if (isRecord(data) && Array.isArray(data.packages)) for (const entry of data.packages) if (typeof entry === 'string') out.push(entry);
  }
  return out.map((glob) => glob.replace(/^\.\//, '').replace(/\/+$/, '')).filter((glob) => glob !== '' && glob !== '.');
}

function nameOf(manifest: Record<string, unknown> | null): string | null {
  return typeof manifest?.name === 'string' ? manifest.name : null;
}

/** `scan` narrowed to one directory, with paths relative to it and that directory's package.json. */
function subScan(scan: RepoScan, dir: string): RepoScan {
  const prefix = `${dir}/`;
  const files = scan.files.filter((file) => file.startsWith(prefix)).map((file) => file.slice(prefix.length));
  const text = (file: string): string | null => scan.text(`${prefix}${file}`);
  const { packageJson, scripts, dependencies } = readManifest(text('package.json'));
  return {
    root: `${scan.root}/${dir}`,
    files,
    fileSet: new Set(files),
    packageJson,
    scripts,
    dependencies,
    text,
    isDirectory: (path) => scan.isDirectory(`${prefix}${path.replace(/^\.\//, '').replace(/\/$/, '')}`),
  };
}
