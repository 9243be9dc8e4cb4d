import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import { isWorkTreeTop } from '../repo/top-level.js';
import { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY } from './names.js';

/**
 * The directory tripwire checks for `start` (the CLI's working directory, or
 * the directory of the file ESLint lints): the nearest directory at or above
 * it that holds one of CONFIG_FILE_NAMES or a package.json with a `"tripwire"`
 * key, searching no higher than the git top level. When nothing there
 * configures tripwire, the git top level itself. Outside a git work tree the
 * search stops at `ceiling` (default: `start` alone), which is then also the
 * root when nothing is found.
 */
export function findRoot(start: string, ceiling: string = start): string {
  const from = resolve(start);
  // Inside a git directory (`.git` of a work tree) there is no work tree to search up to: it is checked as given, and refused there.
  if (from.split(/[\\/]/).includes('.git')) return from;
  const top = resolve(ceiling);
  const rel = relative(top, from);
  let underCeiling = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  let nearest: string | null = null;
  let nearestUnderCeiling: string | null = null;
  for (let dir = from; ; dir = dirname(dir)) {
    if (nearest === null && configures(dir)) {
      nearest = dir;
      if (underCeiling) nearestUnderCeiling = dir;
    }
    if (isWorkTreeTop(dir)) return nearest ?? dir;
    if (dir === top) underCeiling = false;
    if (dirname(dir) === dir) return nearestUnderCeiling ?? top;
  }
}

/** Whether `dir` holds a configuration: one of CONFIG_FILE_NAMES, or a package.json with the `"tripwire"` key. */
export function configures(dir: string): boolean {
  if (CONFIG_FILE_NAMES.some((name) => existsSync(join(dir, name)))) return true;
  const text = readText(join(dir, 'package.json'));
  if (text === undefined || !text.includes(`"${PACKAGE_JSON_KEY}"`)) return false;
  const errors: ParseError[] = [];
  const manifest: unknown = parse(text, errors, { allowTrailingComma: true });
  // A package.json that names the key but does not parse is taken as the configuration, so that loading it reports why.
  return errors.length > 0 || (typeof manifest === 'object' && manifest !== null && PACKAGE_JSON_KEY in manifest);
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The workspace root a root sits in: the nearest directory at or above `root`,
 * no higher than the git top level, whose package.json declares `workspaces`
 * or that holds pnpm-workspace.yaml. A package of a monorepo imports its
 * siblings by name from there; the root itself when nothing above declares a
 * workspace, or outside a git work tree.
 */
export function findWorkspaceRoot(root: string): string {
  const from = resolve(root);
  let nearest: string | null = null;
  for (let dir = from; ; dir = dirname(dir)) {
    if (nearest === null && declaresWorkspaces(dir)) nearest = dir;
    if (isWorkTreeTop(dir)) return nearest ?? from;
    if (dirname(dir) === dir) return from;
  }
}

/** Whether `dir` is the root of an npm, yarn, bun or pnpm workspace. */
export function declaresWorkspaces(dir: string): boolean {
  if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return true;
  const text = readText(join(dir, 'package.json'));
  if (text === undefined || !text.includes('"workspaces"')) return false;
  const manifest: unknown = parse(text, [], { allowTrailingComma: true });
  return typeof manifest === 'object' && manifest !== null && 'workspaces' in manifest;
}
