import { isAbsolute, relative, resolve } from 'node:path';
import { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY } from '../config/schema.js';
import type { RepoModel } from '../model/model.js';
import { paidListRefFiles } from '../config/refs.js';
import { mapRefs } from '../config/refs.js';
import { type FileChange } from '../repo/diff.js';
import { compileGlobs } from '../util/glob.js';
import type { Finding } from '../types.js';
import { UsageError } from '../errors.js';
import { toPosix } from '../util/path.js';
import { compareFindings } from '../util/order.js';
import type { CheckOptions } from './types.js';
import { selectionOf } from '../analysis/selection.js';
import { isPaidTest, paidList } from '../analysis/paid-list.js';

/**
 * With no configuration only the default `tests.include` is checked; when it
 * matches nothing (an empty directory, a repository with no commits, the wrong
 * `--cwd`), a green run would say nothing was wrong with what was not looked at.
 */
export function assertSomethingToCheck(model: RepoModel, configPath: string | null): void {
  if (configPath !== null || model.testFiles().length > 0) return;
  throw new UsageError(
    `nothing to check in ${model.root}: no configuration (${CONFIG_FILE_NAMES.join(', ')} or a "${PACKAGE_JSON_KEY}" key in package.json) and no file matches the default tests.include (${model.config.tests.include.join(', ')}); run 'tripwire init' there, or point --cwd at the repository`,
  );
}

/** Each path a user passes must name a listed file or a directory holding one: a typo must not narrow the report to nothing. */
export function assertPathsListed(model: RepoModel, paths: readonly string[] | undefined, cwd: string): void {
  for (const path of paths ?? []) {
    const rel = toPosix(relative(model.root, resolve(cwd, path)));
    if (rel === '') continue;
    if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) throw new UsageError(`path '${path}' is outside the repository checked (${model.root})`);
    const prefix = `${rel}/`;
    if (model.fileSet.has(rel) || model.files.some((file) => file.startsWith(prefix))) continue;
    throw new UsageError(`path '${path}' names no file tripwire checks: it does not exist, or git ignores it, or the configuration's ignore does`);
  }
}

/**
 * Whether a staged change can have caused a finding: it is in a changed file,
 * points at one (related locations, the chain in its message), or sits in the
 * config or a map while the set of files or a map changed. The model is still
 * the whole repository; only what is reported narrows.
 */
export function affectedBy(model: RepoModel, changes: readonly FileChange[]): (finding: Finding) => boolean {
  const changed = new Set(changes.flatMap((change) => (change.oldPath ? [change.path, change.oldPath] : [change.path])));
  const mapFiles = new Set([...mapRefs(model.config).map((ref) => ref.file), ...paidListRefFiles(model.config), ...(model.configFile === null ? [] : [model.configFile])]);
  // The maps' globs only when the set of files changed: a change that only modifies files needs no selection.
  const listingChanges = changes.filter((change) => change.status !== 'modified');
  const mattersToMaps = listingChanges.length === 0 ? () => false : fileSetMatters(model, mapFiles);
  const fileSetChanged = listingChanges.some((change) => [change.path, ...(change.oldPath ? [change.oldPath] : [])].some(mattersToMaps));
  const mapsChanged = [...mapFiles].some((file) => changed.has(file));
  // The repository's own list of paid globs decides which tests every rule treats as paid.
  const paidListChanged = paidList(model).files.some((file) => changed.has(file));
  return (finding) =>
    paidListChanged ||
    changed.has(finding.file) ||
    (finding.related ?? []).some((related) => changed.has(related.file)) ||
    [...changed].some((path) => finding.message.includes(path)) ||
    (mapFiles.has(finding.file) && (fileSetChanged || mapsChanged));
}

/**
 * Whether adding, deleting or renaming `path` can change what the maps say: it
 * is a map or paid test (its own ids), or a glob of a map matches it. A file
 * no glob reaches (docs/notes.md) cannot revive or kill a glob.
 */
function fileSetMatters(model: RepoModel, mapFiles: ReadonlySet<string>): (path: string) => boolean {
  const { selection, mapFiles: readFrom } = selectionOf(model);
  const mapModules = new Set([...mapFiles, ...[...readFrom.values()].flat()]);
  // An entry or a global whose globs could not be evaluated might match anything.
  if (selection.touchfiles.some((entry) => entry.unevaluated) || selection.globalsComplete === false) return () => true;
  const globs = [...selection.touchfiles.flatMap((entry) => entry.globs), ...(selection.globals ?? [])].map((glob) => glob.value).filter((glob) => !glob.startsWith('!'));
  const matches = compileGlobs([...globs, ...(model.config.maps?.generated ?? [])]);
  return (path) => mapModules.has(path) || isPaidTest(model, path) || matches(path);
}

export function filterPaths(findings: Finding[], paths: string[] | undefined, cwd: string, root: string): Finding[] {
  const within = pathFilter(paths, cwd, root);
  return findings.filter((finding) => within(finding.file));
}

/** Whether a repository path lies in one of the path arguments (all do when there are none). */
export function pathFilter(paths: string[] | undefined, cwd: string, root: string): (file: string) => boolean {
  if (!paths || paths.length === 0) return () => true;
  const wanted = paths.map((path) => toPosix(relative(root, resolve(cwd, path))));
  return (file) => wanted.some((path) => path === '' || file === path || file.startsWith(`${path}/`));
}

/**
 * What of the kept findings this run reports: under `--staged`, what the
 * staged change can have caused (the file list a hook tool passes would hide
 * a test that a staged helper broke); otherwise those in the given paths;
 * nothing when the run only writes the baseline. In the one order.
 */
export function narrow(model: RepoModel, kept: Finding[], options: CheckOptions, root: string): Finding[] {
  if (options.updateBaseline === true) return [];
  const affected = options.staged === true && model.diff ? kept.filter(affectedBy(model, model.diff.changes)) : kept;
  const paths = options.staged === true ? undefined : options.paths;
  return filterPaths(affected, paths, options.cwd, root).sort(compareFindings);
}
