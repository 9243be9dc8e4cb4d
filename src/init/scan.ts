import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { discoverFiles } from '../repo/files.js';
import { isRecord } from '../util/guards.js';

/** What `init` reads once and every detector shares: the file list (as `check` sees it), package.json, file texts. */
export interface RepoScan {
  root: string;
  files: readonly string[];
  fileSet: ReadonlySet<string>;
  packageJson: Record<string, unknown> | null;
  scripts: Record<string, string>;
  dependencies: Set<string>;
  text(file: string): string | null;
  isDirectory(dir: string): boolean;
}

export async function scanRepository(root: string): Promise<RepoScan> {
  const { files, unfollowed } = await discoverFiles(root);
  const texts = new Map<string, string | null>();
  const text = (file: string): string | null => {
    // A link out of the repository or to nothing is never read through.
    if (!texts.has(file)) texts.set(file, unfollowed.has(file) ? null : readOrNull(join(root, file)));
    return texts.get(file) ?? null;
  };
  const { packageJson, scripts, dependencies } = readManifest(text('package.json'));
  const directories = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) directories.add(parts.slice(0, i).join('/'));
  }
  return {
    root,
    files,
    fileSet: new Set(files),
    packageJson,
    scripts,
    dependencies,
    text,
    isDirectory: (dir) => directories.has(dir.replace(/^\.\//, '').replace(/\/$/, '')),
  };
}

/** A package.json's text as init reads it: the parsed object (null when absent or not an object), its string scripts, every dependency name. */
export function readManifest(manifestText: string | null): { packageJson: Record<string, unknown> | null; scripts: Record<string, string>; dependencies: Set<string> } {
  const manifest: unknown = manifestText === null ? null : parse(manifestText, [], { allowTrailingComma: true });
  const packageJson = isRecord(manifest) ? manifest : null;
  const scripts: Record<string, string> = {};
  if (isRecord(packageJson?.scripts)) for (const [name, value] of Object.entries(packageJson.scripts)) if (typeof value === 'string') scripts[name] = value;
  const dependencies = new Set<string>();
  for (const key of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = packageJson?.[key];
    if (isRecord(deps)) for (const name of Object.keys(deps)) dependencies.add(name);
  }
  return { packageJson, scripts, dependencies };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
