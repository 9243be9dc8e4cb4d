import { memberDirs, packageDirs as repoPackageDirs, workspaceGlobs } from '../repo/workspaces.js';
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
  const root: Package = { dir: '', name: nameOf(scan.packageJson), scan };
  return [root, ...memberDirs(memberGlobs(scan), packageDirs(scan)).map((dir) => packageAt(scan, dir))];
}

/** Every directory below the root that holds a package.json, outside node_modules and fixture folders. */
export function packageDirs(scan: RepoScan): string[] {
  return repoPackageDirs(scan.files).filter((dir) => !inFixture(`${dir}/package.json`));
}

/** The package whose directory is `dir`, read as its own scan. */
export function packageAt(scan: RepoScan, dir: string): Package {
  const sub = subScan(scan, dir);
  return { dir, name: nameOf(sub.packageJson), scan: sub };
}

function memberGlobs(scan: RepoScan): string[] {
  return workspaceGlobs(scan.packageJson, scan.text('pnpm-workspace.yaml'));
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
