// A check at the root of a monorepo: each workspace package that has its own
// configuration is checked against it, and the root's configuration checks the
// rest. Every run keeps its package as its root (so a package's globs, maps and
// manifests mean what they mean when the check runs inside it), lists the whole
// workspace (so an import of a sibling is followed), and shares one fact cache;
// the findings are then named from the workspace root and merged.
import { readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { parse } from 'jsonc-parser';
import { configures, declaresWorkspaces, findRoot, findWorkspaceRoot } from '../config/root.js';
import { UsageError } from '../errors.js';
import { cacheDirectory, type FactCache } from '../facts/cache.js';
import type { CachedFacts } from '../facts/types.js';
import { saveFactCache } from '../model/model.js';
import { cacheRefusal } from '../repo/cache-guard.js';
import { discoverFiles } from '../repo/files.js';
import { memberDirs, packageDirs, workspaceGlobs } from '../repo/workspaces.js';
import type { CheckResult, Finding, MapCoverage } from '../types.js';
import { isRecord } from '../util/guards.js';
import { compareFindings } from '../util/order.js';
import { toPosix } from '../util/path.js';
import { run } from './run.js';
import type { CheckOptions, RunResult } from './types.js';

export interface WorkspaceOptions extends CheckOptions {
  /** `--workspace`: check only these packages (package.json `name`), each against its own configuration. */
  workspaces?: readonly string[];
}

/** A workspace package: its directory (POSIX, relative to the workspace root) and package.json `name`. */
export interface WorkspacePackage {
  dir: string;
  name: string | null;
  /** It holds its own configuration. */
  configured: boolean;
}

/** The programmatic check (api.ts): what `tripwire check` computes, without its result cache. */
export async function check(options: WorkspaceOptions): Promise<CheckResult> {
  const { findings, summary, coverage } = await runChecks(options);
  return { findings, summary, ...(coverage && { coverage }) };
}

/**
 * The pipeline for the CLI's check and the programmatic one: `run` once, unless the root is a
 * workspace root with packages that hold their own configuration (or
 * `--workspace` names some), then once per package and once for the root.
 */
export async function runChecks(options: WorkspaceOptions): Promise<RunResult> {
  const asked = options.workspaces ?? [];
  if (options.configFile !== undefined) {
    if (asked.length > 0) throw new UsageError('--workspace and --config cannot be combined: each package is checked against its own configuration');
    return run(options);
  }
  const root = findRoot(options.cwd);
  if (!declaresWorkspaces(root)) {
    if (asked.length > 0) throw new UsageError(`--workspace needs a workspace root, and ${root} declares no workspaces (package.json "workspaces" or pnpm-workspace.yaml)`);
    return run(options);
  }
  const listing = options.listing ?? (await discoverFiles(root, { blobIds: options.cache !== false }));
  const packages = workspacePackages(root, listing.files);
  const configured = packages.filter((pkg) => pkg.configured);
  const chosen = asked.length === 0 ? configured : choose(packages, asked);
  if (chosen.length === 0) return run({ ...options, listing });

  const cacheLocation = cacheDirectory(root, options.cacheLocation);
  const cacheRefused = options.cache === false ? null : (options.cacheRefused ?? (await cacheRefusal(cacheLocation, root)));
  const factCaches = new Map<string, FactCache<CachedFacts>>();
  const shared = { ...options, listing, cacheLocation, cacheRefused, factCaches };
  const runs: { dir: string; result: RunResult }[] = [];
  const claimed = configured.map((pkg) => pkg.dir);
  const unclaimedPaths = new Set(options.paths ?? []);
  if (asked.length === 0) {
    const paths = pathsFor(options, root, root, claimed);
    for (const path of paths ?? []) unclaimedPaths.delete(path);
    if (paths !== undefined) runs.push({ dir: '', result: await run({ ...shared, paths, claimed }) });
  }
  for (const pkg of chosen) {
    const dir = join(root, pkg.dir);
    const paths = pathsFor(options, root, dir, claimed.flatMap((other) => (other.startsWith(`${pkg.dir}/`) ? [other] : [])));
    for (const path of paths ?? []) unclaimedPaths.delete(path);
    if (paths === undefined) continue;
    // A package that declares a workspace of its own is listed from there, not from this root.
    const own = findWorkspaceRoot(dir) === root ? shared : { ...shared, listing: undefined };
    // A package nested in this one that has its own configuration is its own.
    const nested = claimed.flatMap((other) => (other.startsWith(`${pkg.dir}/`) ? [other.slice(pkg.dir.length + 1)] : []));
    runs.push({ dir: pkg.dir, result: await run({ ...own, paths, root: dir, ...(nested.length > 0 && { claimed: nested }) }) });
  }
  if (options.staged !== true) {
    for (const path of unclaimedPaths) {
      if (!covers(resolve(options.cwd, path), runs.map((r) => join(root, r.dir)))) throw new UsageError(`path '${path}' names no file tripwire checks: it lies in no package checked${asked.length > 0 ? ` (--workspace ${asked.join(',')})` : ''}`);
    }
  }
  for (const cache of factCaches.values()) saveFactCache(cache, (id) => runs.some((r) => r.result.model.liveContent(id)));
  return merge(root, runs);
}

/** The members of the workspace `root` declares, from its listing. */
export function workspacePackages(root: string, files: readonly string[]): WorkspacePackage[] {
  const manifest = readJson(join(root, 'package.json'));
  const pnpm = readText(join(root, 'pnpm-workspace.yaml'));
  return memberDirs(workspaceGlobs(manifest, pnpm), packageDirs(files)).map((dir) => {
    const own = readJson(join(root, dir, 'package.json'));
    const name = isRecord(own) && typeof own.name === 'string' && own.name !== '' ? own.name : null;
    return { dir, name, configured: configures(join(root, dir)) };
  });
}

/** The packages `--workspace` names; a name that is no package's, or a package without a configuration, is a usage error. */
function choose(packages: readonly WorkspacePackage[], asked: readonly string[]): WorkspacePackage[] {
  const known = packages.filter((pkg) => pkg.configured && pkg.name !== null).map((pkg) => pkg.name ?? '');
  const knownText = known.length === 0 ? 'no workspace package has its own configuration' : `packages with a configuration: ${known.join(', ')}`;
  const chosen: WorkspacePackage[] = [];
  for (const name of new Set(asked)) {
    const pkg = packages.find((candidate) => candidate.name === name);
    if (pkg === undefined) throw new UsageError(`--workspace ${name}: no workspace package is named so (${knownText})`);
    if (!pkg.configured) throw new UsageError(`--workspace ${name}: ${pkg.dir} has no configuration of its own (${knownText}); its files are checked by the root's`);
    chosen.push(pkg);
  }
  return chosen.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/**
 * The paths of `options` that the run rooted at `dir` reports on: [] when a
 * path holds the whole root (or none was given), those inside it (and in no
 * `claimed` directory) otherwise, undefined when none concerns it.
 */
function pathsFor(options: CheckOptions, workspaceRoot: string, dir: string, claimed: readonly string[]): string[] | undefined {
  const paths = options.paths ?? [];
  if (paths.length === 0 || options.staged === true) return [];
  const kept: string[] = [];
  for (const path of paths) {
    const target = resolve(options.cwd, path);
    if (covers(dir, [target])) return [];
    if (!covers(target, [dir])) continue;
    const rel = toPosix(relative(workspaceRoot, target));
    if (claimed.some((claim) => rel === claim || rel.startsWith(`${claim}/`))) continue;
    kept.push(path);
  }
  return kept.length === 0 ? undefined : kept;
}

/** Whether `target` is one of `dirs` or inside one. */
function covers(target: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => {
    const rel = relative(dir, target);
    return rel === '' || (!rel.startsWith('..') && !posix.isAbsolute(toPosix(rel)));
  });
}

/** The runs' findings named from the workspace root, in one order, with one summary. */
function merge(root: string, runs: readonly { dir: string; result: RunResult }[]): RunResult {
  const first = runs[0]?.result;
  if (first === undefined) throw new Error('a workspace check ran nothing');
  const findings = runs.flatMap(({ dir, result }) => result.findings.map((finding) => rebaseFinding(finding, dir))).sort(compareFindings);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const sum = (pick: (result: RunResult) => number | undefined): number => runs.reduce((total, { result }) => total + (pick(result) ?? 0), 0);
  const optional = (key: 'suppressed' | 'baselined' | 'baselineFixed', value: number) => (value > 0 ? { [key]: value } : {});
  const written = runs.some(({ result }) => result.summary.baselineWritten !== undefined) ? { baselineWritten: sum((r) => r.summary.baselineWritten) } : {};
  const coverages = runs.flatMap(({ dir, result }) => (result.coverage ? [{ dir, coverage: result.coverage }] : []));
  const outsideInputs = new Map<string, string | null>();
  for (const { dir, result } of runs) for (const [file, id] of result.outsideInputs) outsideInputs.set(rebase(file, dir), id);
  return {
    findings,
    summary: {
      errors,
      warnings: findings.length - errors,
      files: sum((r) => r.summary.files),
      rules: Math.max(...runs.map(({ result }) => result.summary.rules)),
      ms: sum((r) => r.summary.ms),
      ...optional('suppressed', sum((r) => r.summary.suppressed)),
      ...optional('baselined', sum((r) => r.summary.baselined)),
      ...optional('baselineFixed', sum((r) => r.summary.baselineFixed)),
      ...written,
    },
    ...(coverages.length > 0 && { coverage: mergeCoverage(coverages) }),
    root,
    model: first.model,
    rulesRun: [...new Map(runs.flatMap(({ result }) => result.rulesRun.map((rule) => [rule.id, rule] as const))).values()],
    outsideInputs,
    cacheRefused: first.cacheRefused,
    stats: {
      phases: runs.flatMap(({ dir, result }) => result.stats.phases.map((phase) => ({ ...phase, name: dir === '' ? phase.name : `${dir}: ${phase.name}` }))),
      rules: runs.flatMap(({ result }) => result.stats.rules),
      facts: { parsed: sum((r) => r.stats.facts.parsed), cached: sum((r) => r.stats.facts.cached), read: sum((r) => r.stats.facts.read) },
    },
  };
}

function mergeCoverage(coverages: readonly { dir: string; coverage: MapCoverage }[]): MapCoverage {
  return {
    touchfileMaps: [...new Set(coverages.flatMap(({ coverage }) => coverage.touchfileMaps))],
    tierMap: coverages.find(({ coverage }) => coverage.tierMap !== null)?.coverage.tierMap ?? null,
    ids: coverages.flatMap(({ dir, coverage }) => coverage.ids.map((row) => ({ ...row, file: rebase(row.file, dir) }))),
  };
}

/** A finding of the run rooted at `dir`, its paths named from the workspace root. */
function rebaseFinding(finding: Finding, dir: string): Finding {
  if (dir === '') return finding;
  return {
    ...finding,
    file: rebase(finding.file, dir),
    ...(finding.related && { related: finding.related.map((related) => ({ ...related, file: rebase(related.file, dir) })) }),
    ...(finding.chain && { chain: finding.chain.map((link) => ({ ...link, file: rebase(link.file, dir) })) }),
    ...(finding.fix && { fix: { ...finding.fix, edits: finding.fix.edits.map((edit) => ({ ...edit, file: rebase(edit.file, dir) })) } }),
  };
}

function rebase(file: string, dir: string): string {
  return dir === '' ? file : posix.normalize(posix.join(dir, file));
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function readJson(file: string): unknown {
  const text = readText(file);
  return text === null ? undefined : parse(text, [], { allowTrailingComma: true });
}
