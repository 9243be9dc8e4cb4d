import { existsSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY } from '../config/names.js';
import type { FileFacts } from '../facts/types.js';
import { RepoModel } from '../model/model.js';
import { createResolver } from '../model/resolve.js';
import { discoverFiles } from '../repo/files.js';
import { findGitRoot } from '../repo/git.js';
import { MAX_INPUT_BYTES, readBounded } from '../repo/read.js';
import { memberDirs, packageDirs, workspaceGlobs } from '../repo/workspaces.js';
import { isScriptFile } from '../util/file-kinds.js';
import { isRecord } from '../util/guards.js';
import { compileGlobs } from '../util/glob.js';
import { toPosix } from '../util/path.js';
import { UsageError } from '../errors.js';
import { buildModel } from './project.js';
import type { CheckOptions } from './types.js';

/** What a check of one root depends on, as absolute paths: what a task runner's cache key must cover. */
export interface CheckInputs {
  /** The check root (the directory of the configuration, else the git top level). */
  root: string;
  /**
   * Every existing file whose content can change the verdict, sorted: the
   * files the check lists under the root, the configuration, the manifests it
   * reads by name, the `.gitignore` files above the root, the workspace
   * declarations, and the files of other packages that its files import
   * (transitively), with the manifests and tsconfigs that resolving them reads.
   */
  files: string[];
  /** The files among `files` that git does not list under the root (or that lie outside it): a runner's default inputs for the root's package miss them. */
  unlisted: string[];
  /** Paths looked for and not found, outside the root's listing: creating one can change the verdict (a config nearer than the root, a file an import would resolve to first). */
  absent: string[];
  /** Glob patterns whose set of matches the verdict depends on: the root's listing (`root/**`, as git sees it) and the workspace members' manifests. */
  globs: string[];
  /** The directory whose workspace declaration resolves bare imports of sibling packages (the git top level when none declares one). */
  workspaceRoot: string;
  /** The git top level (the root itself outside git). */
  repositoryRoot: string;
}

type Options = Pick<CheckOptions, 'cwd' | 'configFile' | 'cache' | 'cacheLocation'>;

/**
 * The inputs of `tripwire check` for the root it would check from `cwd`,
 * computed from the file listing, the configuration and the import graph:
 * no rule runs. A superset of what the check reads (test/cli/print-inputs.test.ts
 * records the reads of real checks against it): the whole listing of the root
 * counts, since any listed file may be read and its name decides what the
 * configured globs match.
 */
export async function checkInputs(options: Options): Promise<CheckInputs> {
  const { model, configPath } = await buildModel({ ...options, paths: [] });
  const root = model.root;
  const files = new Set<string>();
  const absent = new Set<string>();
  const note = (file: string): void => {
    if (existsSync(file)) files.add(file);
    else absent.add(file);
  };
  for (const file of model.files) files.add(path.join(root, file));
  const listed = new Set(files);
  if (configPath !== null) files.add(configPath);
  // Where findRoot looked for a configuration on its way up: one nearer than the root would move the root.
  if (options.configFile === undefined) {
    for (const dir of upwards(path.resolve(options.cwd), root)) for (const name of [...CONFIG_FILE_NAMES, 'package.json']) note(path.join(dir, name));
  }
  // Read by name whether or not git lists them: an ignored manifest is still read.
  const { config } = model;
  for (const name of [config.frozen, config.locks, config.baseline]) note(path.join(root, name));
  for (const locked of lockedFiles(path.join(root, config.locks))) note(path.join(root, locked));
  const top = (await findGitRoot(root)) ?? root;
  // The .gitignore files above the root decide what git lists under it.
  for (const dir of upwards(root, top)) if (dir !== root) note(path.join(dir, '.gitignore'));
  const workspaceRoot = findWorkspaceRoot(root, top, note);
  const globs = [path.join(root, '**'), ...memberManifestGlobs(workspaceRoot)];
  await followImports(model, workspaceRoot, files, absent);
  model.saveCache();
  // A check at a workspace root also checks each member that holds its own configuration against
  // it (issue 19 item 2): what those checks read counts too.
  if (options.configFile === undefined && workspaceRoot === root) {
    for (const dir of configuredMembers(root, model.files)) {
      const member = await checkInputs({ ...options, cwd: path.join(root, dir) });
      for (const file of member.files) files.add(file);
      for (const file of member.absent) absent.add(file);
      for (const glob of member.globs) if (!globs.includes(glob)) globs.push(glob);
    }
  }
  const sorted = [...files].sort();
  return { root, files: sorted, unlisted: sorted.filter((file) => !listed.has(file)), absent: [...absent].filter((file) => !files.has(file)).sort(), globs, workspaceRoot, repositoryRoot: top };
}

/** `from` and each directory above it up to `to` (inclusive); `from` alone when it is not below `to`. */
function upwards(from: string, to: string): string[] {
  const dirs: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    dirs.push(dir);
    if (dir === to || path.dirname(dir) === dir) return dirs;
    const rel = path.relative(to, dir);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return [from];
  }
}

function readJson(file: string): unknown {
  const read = readBounded(file, MAX_INPUT_BYTES);
  return read.ok ? parseJsonc(read.bytes.toString('utf8'), [], { allowTrailingComma: true }) : undefined;
}

function readText(file: string): string | null {
  const read = readBounded(file, MAX_INPUT_BYTES);
  return read.ok ? read.bytes.toString('utf8') : null;
}

/** The files the locks manifest pins: the check hashes each, listed or not. */
function lockedFiles(manifest: string): string[] {
  const data = readJson(manifest);
  return isRecord(data) && isRecord(data.files) ? Object.keys(data.files) : [];
}

/**
 * The nearest directory at or above the root, up to the git top level, that
 * declares workspaces (package.json `workspaces`, pnpm-workspace.yaml): bare
 * imports of its members are followed into their sources. The git top level
 * when none does, so that relative imports leaving the root are followed too.
 */
function findWorkspaceRoot(root: string, top: string, note: (file: string) => void): string {
  for (const dir of upwards(root, top)) {
    const manifest = path.join(dir, 'package.json');
    const pnpm = path.join(dir, 'pnpm-workspace.yaml');
    note(manifest);
    note(pnpm);
    if (workspaceGlobs(readJson(manifest), readText(pnpm)).length > 0) return dir;
  }
  return top;
}

/** The members of the workspace `root` declares (if any) that hold their own configuration, by directory relative to it. */
function configuredMembers(root: string, files: readonly string[]): string[] {
  const globs = workspaceGlobs(readJson(path.join(root, 'package.json')), readText(path.join(root, 'pnpm-workspace.yaml')));
  return memberDirs(globs, packageDirs(files)).filter((dir) => {
    if (CONFIG_FILE_NAMES.some((name) => existsSync(path.join(root, dir, name)))) return true;
    const manifest = readJson(path.join(root, dir, 'package.json'));
    return isRecord(manifest) && Object.hasOwn(manifest, PACKAGE_JSON_KEY);
  });
}

/** `<member glob>/package.json` for each workspace glob: a new member, or a renamed one, changes what a bare import resolves to. */
function memberManifestGlobs(workspaceRoot: string): string[] {
  const globs = workspaceGlobs(readJson(path.join(workspaceRoot, 'package.json')), readText(path.join(workspaceRoot, 'pnpm-workspace.yaml')));
  return globs.map((glob) => (glob.startsWith('!') ? `!${path.join(workspaceRoot, glob.slice(1), 'package.json')}` : path.join(workspaceRoot, glob, 'package.json')));
}

/** A file set that records each path asked about: what a resolution looked for. */
class ProbedSet extends Set<string> {
  readonly probed = new Set<string>();

  override has(value: string): boolean {
    this.probed.add(value);
    return super.has(value);
  }
}

/**
 * Follows the imports, re-exports and mocked modules of every script the
 * root lists, transitively, resolving them from the workspace root (bare
 * imports of members into their sources, relative imports out of the root),
 * and adds what lies outside the root: each file reached, each manifest or
 * tsconfig the resolution read, and each path it looked for in vain.
 */
async function followImports(model: RepoModel, workspaceRoot: string, files: Set<string>, absent: Set<string>): Promise<void> {
  const root = model.root;
  const prefix = toPosix(path.relative(workspaceRoot, root));
  const inRoot = (rel: string): string | null => (prefix === '' ? rel : rel.startsWith(`${prefix}/`) ? rel.slice(prefix.length + 1) : null);
  const listing = prefix === '' ? model.files : (await discoverFiles(workspaceRoot)).files;
  const listed = new Set(listing);
  const known = new ProbedSet(listing);
  const read = new Set<string>();
  const resolver = createResolver(workspaceRoot, known, (rel) => {
    read.add(rel);
    return readText(path.join(workspaceRoot, rel)) ?? undefined;
  });
  let outside: RepoModel | null = null;
  const factsOf = (rel: string): FileFacts | null => {
    const own = inRoot(rel);
    if (own !== null) return model.facts(own);
    read.add(rel);
    outside ??= new RepoModel({ root: workspaceRoot, config: { ...model.config, ignore: [] }, configFile: null, files: listing, cache: null });
    return outside.facts(rel);
  };
  const queue = model.files.filter((file) => isScriptFile(file)).map((file) => (prefix === '' ? file : `${prefix}/${file}`));
  const seen = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i] ?? '';
    const facts = factsOf(current);
    if (!facts) continue;
    const specifiers = [...facts.imports.map((fact) => fact.specifier), ...facts.exports.flatMap((fact) => ('specifier' in fact ? [fact.specifier] : [])), ...facts.mocks.map((fact) => fact.specifier)];
    for (const specifier of specifiers) {
      const target = resolver.resolve(current, specifier);
      if (target.kind !== 'file' || seen.has(target.path)) continue;
      seen.add(target.path);
      if (isScriptFile(target.path)) queue.push(target.path);
      else read.add(target.path);
    }
  }
  for (const rel of read) if (inRoot(rel) === null && listed.has(rel)) files.add(path.join(workspaceRoot, rel));
  for (const rel of known.probed) if (inRoot(rel) === null && !listed.has(rel)) absent.add(path.join(workspaceRoot, rel));
}

/**
 * The `inputs` of a Turborepo task that runs the check in `packageDir`, which
 * must be the check root: `$TURBO_DEFAULT$` (the files git sees in the package:
 * the check's own listing), then every other input, relative to the package
 * when inside it, else from `$TURBO_ROOT$` (the topmost directory with a
 * turbo.json, else the workspace root).
 */
/** How a task runner names a task's inputs: the package's own files, a path from its root, a path in the package. */
interface InputSyntax {
  format: string;
  runner: string;
  /** Every file of the package the runner would hash by default (git's ignores honoured). */
  packageFiles: string;
  fromRoot: (path: string) => string;
  inPackage: (path: string) => string;
  /** The directory the runner's root-relative paths start from. */
  root: (dir: string, inputs: CheckInputs) => string;
}

const TURBO: InputSyntax = {
  format: 'turbo',
  runner: 'the Turborepo root',
  packageFiles: '$TURBO_DEFAULT$',
  fromRoot: (path) => `$TURBO_ROOT$/${path}`,
  inPackage: (path) => path,
  root: (dir, inputs) => findTurboRoot(dir, inputs.repositoryRoot) ?? inputs.workspaceRoot,
};

const NX: InputSyntax = {
  format: 'nx',
  runner: 'the Nx workspace root',
  packageFiles: '{projectRoot}/**/*',
  fromRoot: (path) => `{workspaceRoot}/${path}`,
  inPackage: (path) => `{projectRoot}/${path}`,
  root: (dir, inputs) => findNxRoot(dir, inputs.repositoryRoot) ?? inputs.workspaceRoot,
};

/** The inputs of a Turborepo task that runs the check in `packageDir` (the check root). */
export function turboInputs(inputs: CheckInputs, packageDir: string): string[] {
  return taskInputs(inputs, packageDir, TURBO);
}

/** The inputs of an Nx target that runs the check in `packageDir` (the check root): the same list, in Nx's tokens. */
export function nxInputs(inputs: CheckInputs, packageDir: string): string[] {
  return taskInputs(inputs, packageDir, NX);
}

function taskInputs(inputs: CheckInputs, packageDir: string, syntax: InputSyntax): string[] {
  const dir = path.resolve(packageDir);
  if (dir !== inputs.root) {
    throw new UsageError(
      `--format ${syntax.format} describes a task that runs in the check root, and ${dir} is not one (its check root is ${inputs.root}): give the package its own configuration, or print the inputs of the root's task from there`,
    );
  }
  const runnerRoot = syntax.root(dir, inputs);
  const entry = (file: string): string => {
    const own = path.relative(dir, file);
    if (own !== '' && !own.startsWith('..') && !path.isAbsolute(own)) return syntax.inPackage(toPosix(own));
    const fromRoot = path.relative(runnerRoot, file);
    if (fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) throw new UsageError(`--format ${syntax.format}: ${file} is outside ${syntax.runner} ${runnerRoot}, which a task's inputs cannot name`);
    return syntax.fromRoot(toPosix(fromRoot));
  };
  const globs = inputs.globs.filter((glob) => glob !== path.join(inputs.root, '**')).map((glob) => (glob.startsWith('!') ? `!${entry(glob.slice(1))}` : entry(glob)));
  return [syntax.packageFiles, ...new Set([...inputs.unlisted, ...inputs.absent].map(entry).concat(globs).sort())];
}

/** The topmost directory from `dir` up to `top` holding an nx.json: the Nx workspace root. */
function findNxRoot(dir: string, top: string): string | null {
  let found: string | null = null;
  for (const current of upwards(dir, top)) if (existsSync(path.join(current, 'nx.json'))) found = current;
  return found;
}

/** The topmost directory from `dir` up to `top` holding a turbo.json (or turbo.jsonc): a package's own turbo.json extends the root one. */
function findTurboRoot(dir: string, top: string): string | null {
  let found: string | null = null;
  for (const current of upwards(dir, top)) if (existsSync(path.join(current, 'turbo.json')) || existsSync(path.join(current, 'turbo.jsonc'))) found = current;
  return found;
}

/** The `inputs` that the turbo.json (or turbo.jsonc) in `packageDir` declares for `task`, with the file; null when it declares none. */
export function declaredTurboInputs(packageDir: string, task: string): { file: string; inputs: string[] } | null {
  for (const name of ['turbo.json', 'turbo.jsonc']) {
    const file = path.join(packageDir, name);
    if (!existsSync(file)) continue;
    const data = readJson(file);
    const tasks = isRecord(data) ? data.tasks : undefined;
    const entry = isRecord(tasks) ? tasks[task] : undefined;
    const inputs = isRecord(entry) ? entry.inputs : undefined;
    if (!Array.isArray(inputs)) return null;
    return { file, inputs: inputs.filter((input): input is string => typeof input === 'string') };
  }
  return null;
}

const TURBO_ROOT = '$TURBO_ROOT$/';

/**
 * The inputs among `needed` (turboInputs) that a task's `declared` inputs do not cover: neither
 * named as they are nor matched by a glob of the same anchoring (`$TURBO_ROOT$/…` or relative to
 * the package), or excluded by a `!` glob. A negated input of `needed` only narrows: never missing.
 */
export function uncoveredTurboInputs(needed: readonly string[], declared: readonly string[]): string[] {
  const named = new Set(declared);
  const matcher = (anchored: boolean, negated: boolean) => {
    const globs = declared
      .filter((input) => input.startsWith('!') === negated)
      .map((input) => (negated ? input.slice(1) : input))
      .filter((input) => input.startsWith(TURBO_ROOT) === anchored && !input.startsWith('$TURBO_DEFAULT$'))
      .map((input) => (anchored ? input.slice(TURBO_ROOT.length) : input));
    return globs.length === 0 ? () => false : compileGlobs(globs);
  };
  const matches = { root: matcher(true, false), own: matcher(false, false) };
  const excluded = { root: matcher(true, true), own: matcher(false, true) };
  return needed.filter((input) => {
    if (input.startsWith('!')) return false;
    const anchored = input.startsWith(TURBO_ROOT);
    const rel = anchored ? input.slice(TURBO_ROOT.length) : input;
    if ((anchored ? excluded.root : excluded.own)(rel)) return true;
    return !named.has(input) && !(anchored ? matches.root : matches.own)(rel);
  });
}
