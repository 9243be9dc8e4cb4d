import { readFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { RULE_IDS } from './rule-ids.js';
import { rules as allRules } from '../rules/index.js';
import { applyBaseline, writeBaseline, type AddedEntry, type BaselineScope } from './baseline.js';
import { ConfigError, issuesFromZod } from './config/errors.js';
import { loadConfig, loadConfigSync, type LoadedConfig } from './config/load.js';
import { CONFIG_FILE_NAMES, DEFAULT_MAX_FILE_BYTES, PACKAGE_JSON_KEY, type Config, type PresetName, type RuleSetting } from './config/schema.js';
import { cacheDirectory, openFactCache, type FactCache } from './facts/cache.js';
import type { CachedFacts } from './facts/types.js';
import { FACTS_VERSION, RepoModel, type DiffInput } from './model/model.js';
import { lineIndex, rangeLoc } from './model/positions.js';
import { paidListRefFiles } from './model/paid-list.js';
import { mapCoverage } from './model/coverage.js';
import { mapRefs } from './model/selection.js';
import { diffChanges, readStagedState, readTextsAt, resolveBase, type FileChange } from './repo/diff.js';
import { fileBlobId } from './repo/blob-id.js';
import { cacheRefusal, cacheRefusalSync } from './repo/cache-guard.js';
import { discoverFiles } from './repo/files.js';
import { discoverFilesSync } from './repo/files-sync.js';
import { findGitRoot } from './repo/git.js';
import { compileGlobs, excludesDirectory, globTooComplex, reachesInto } from './repo/glob.js';
import type { MessageKind, TripwireRule } from './rule.js';
import type { CheckResult, Finding, Loc, Severity, SeveritySetting } from './types.js';
import { VERSION } from './version.js';
import { UsageError } from './errors.js';
import type { Progress } from './util/progress.js';
import { roundMs, stopwatch, type RuleTime, type RunStats } from './util/timing.js';
import { toPosix } from './util/path.js';
import { compareFindings } from './util/order.js';

/** Findings tripwire raises about its own inputs rather than a contract, each with its message ids. */
export const CORE_RULES = {
  'parse-error': {
    description: 'A file tripwire needs could not be parsed; nothing it contains was checked.',
    messages: { parseError: { description: 'The file could not be parsed; the position of the syntax error is given.' } },
  },
  'read-error': {
    description: 'A file tripwire needs could not be read; nothing it contains was checked.',
    messages: {
      readError: { description: 'The file could not be read.' },
      notText: { description: 'A shipped or test file of no text format holds mostly binary content (NUL, control or invalid UTF-8 bytes), so it was not scanned.' },
      fileTooLarge: { description: 'The file is larger than limits.maxFileBytes (default 2 MiB), so it was not read or parsed.' },
    },
  },
  'unfollowed-symlink': {
    description: 'A file tripwire needs is a symbolic link that points outside the repository, to nothing, or round a loop; tripwire does not follow it, so nothing it points to was checked.',
    messages: { unfollowedSymlink: { description: 'The link points outside the repository, to nothing, or round a loop back to itself, and was not followed.' } },
  },
  'unchecked-submodule': {
    description: 'A configured glob reaches into a git submodule, whose files tripwire does not list: nothing in it was checked.',
    messages: { uncheckedSubmodule: { description: 'A submodule (gitlink) lies where tests.include, tests.paid or shipped.include reaches; its files were not checked.' } },
  },
  'glob-too-complex': {
    description: 'A glob has more wildcards than tripwire matches in bounded time; it is refused, and matches nothing until it is simplified.',
    messages: {
      globTooComplex: { description: 'A glob of the configuration or of a map has more than 3 unbounded wildcards in one path segment once runs such as `?*?*` are collapsed (or more than 3 in all when a brace holds a `/`).' },
    },
  },
  'unmatched-glob': {
    description: 'A glob in the configuration matches no file, so the check it feeds sees nothing.',
    messages: { unmatchedGlob: { description: 'A glob of tests.include, tests.paid (or of a list it references) or shipped.include matches no file.' } },
  },
  'unresolved-paid-list': {
    description: "A reference in tests.paid to the repository's own list of paid globs cannot be read statically; until it is fixed it marks no test paid, so the tests it lists are checked as free.",
    messages: {
      missingPaidListFile: { description: 'The file a tests.paid reference names does not exist.' },
      missingPaidListExport: { description: 'The export (TS/JS) or dot path (JSON/YAML) a tests.paid reference names does not exist.' },
      unevaluablePaidList: { description: 'The referenced list cannot be evaluated statically (a call, a mutable binding, a name it cannot follow): the node is named.' },
      malformedPaidList: { description: 'The referenced value is not a list of string literals.' },
    },
  },
  'baseline-growth': {
    description: 'With --base: the change adds an entry to the baseline (or raises its count). A change cannot accept its own finding: the added entry suppresses nothing, and the baseline only shrinks in a change.',
    messages: { baselineEntryAdded: { description: 'A baseline entry that the baseline at the merge base did not hold; reported at the entry, and the finding it would hide is reported too.' } },
  },
  'invalid-suppression': {
    description: 'A tripwire-disable comment without a reason, or naming an unknown rule.',
    messages: {
      unknownRule: { description: 'A tripwire-disable comment names a rule tripwire does not know.' },
      suppressionWithoutReason: { description: 'A tripwire-disable comment has no ` -- <reason>`, so it suppresses nothing.' },
    },
  },
} as const satisfies Record<string, { description: string; messages: Record<string, MessageKind> }>;

/** A reason-less tripwire-disable is reported under the rule it names too: every rule surface can report this id. */
export const SUPPRESSION_WITHOUT_REASON = 'suppressionWithoutReason';

export { UsageError } from './errors.js';

export interface CheckOptions {
  cwd: string;
  configFile?: string;
  /** Read and write the fact cache (default true). */
  cache?: boolean;
  cacheLocation?: string;
  /** Run only these rules. */
  rules?: string[];
  /** Report only findings in these files or directories (relative to cwd). */
  paths?: string[];
  /** Compare with the merge base of this ref: rules that look at the diff (removals, self-approval) see it. */
  base?: string;
  /** Check the index (the next commit), not the work tree, and report only findings the staged change can affect. */
  staged?: boolean;
  /** Read the baseline (default true): findings it records are known and not reported. */
  baseline?: boolean;
  /** Write every current finding into the baseline instead of filtering by it. */
  updateBaseline?: boolean;
  /** Also compute the paid ids' coverage by the selection maps (`CheckResult.coverage`), for the reports that show it. */
  coverage?: boolean;
  /** The file listing of the root, when the caller already has it (the result cache lists first). */
  listing?: { files: string[]; blobIds: Map<string, string>; unfollowed: Map<string, string>; gitlinks: string[] };
  /** Why the cache directory must not be used (null: it may), when the caller already asked (cacheRefusal). */
  cacheRefused?: string | null;
  /** Told of each phase and each file's facts (a terminal's progress line). */
  progress?: Progress;
}

export interface RunResult extends CheckResult {
  root: string;
  model: RepoModel;
  rulesRun: readonly TripwireRule[];
  /**
   * What the run read from outside its file listing, each with the blob id of
   * the content then (null: absent): a stored verdict is stale once one changes.
   */
  outsideInputs: ReadonlyMap<string, string | null>;
  /** Why the caches were not used although enabled (see BuiltModel), for the surface to say once. */
  cacheRefused: string | null;
  /** Where the time went (`TIMING=1`, `--stats`). */
  stats: RunStats;
}

export async function check(options: CheckOptions): Promise<CheckResult> {
  const { findings, summary, coverage } = await run(options);
  return { findings, summary, ...(coverage && { coverage }) };
}

export interface BuiltModel {
  model: RepoModel;
  root: string;
  /** The absolute path of the configuration file, or null when no file configures tripwire. */
  configPath: string | null;
  cache: FactCache<CachedFacts>;
  /** Why the cache was not used although it was enabled (git tracks a file in its directory): the surface says so once. */
  cacheRefused: string | null;
}

/** The configuration and the file list; facts are parsed on demand, so this is cheap. */
export async function buildModel(options: CheckOptions): Promise<BuiltModel> {
  const loaded = await loadConfig({ cwd: options.cwd, ...(options.configFile !== undefined && { configFile: options.configFile }) });
  if (options.staged === true) {
    if (options.base !== undefined) throw new UsageError('--staged and --base cannot be combined: --staged compares the index with HEAD');
    const gitRoot = await findGitRoot(loaded.root);
    if (gitRoot === null) throw new UsageError(`--staged needs a git repository, and ${loaded.root} is not inside one`);
    const [state, cacheRefused] = await Promise.all([readStagedState(gitRoot, loaded.root, loaded.config.limits.maxFileBytes), refusalOf(loaded.root, options)]);
    const diff: DiffInput = { base: state.base, changes: state.changes, oldTexts: state.oldTexts, oldOversized: state.oldOversized };
    return assembleModel(loaded, state.files, { ...options, overlays: state.indexTexts, oversized: state.indexOversized, blobIds: state.blobIds, unfollowed: state.unfollowed, gitlinks: state.gitlinks, cacheRefused }, diff);
  }
  const [{ files, blobIds, unfollowed, gitlinks }, cacheRefused] = await Promise.all([options.listing ?? discoverFiles(loaded.root, { blobIds: options.cache !== false }), refusalOf(loaded.root, options)]);
  const diff = options.base === undefined ? undefined : await readDiff(loaded.root, options.base, loaded.config.limits.maxFileBytes);
  return assembleModel(loaded, files, { ...options, blobIds, unfollowed, gitlinks, cacheRefused }, diff);
}

/** Whether the cache this run would use is one the checked change could have written (see cacheRefusal). */
async function refusalOf(root: string, options: CheckOptions): Promise<string | null> {
  if (options.cache === false) return null;
  return options.cacheRefused !== undefined ? options.cacheRefused : cacheRefusal(cacheDirectory(root, options.cacheLocation), root);
}

/** `buildModel` without `--base`, synchronously, for the ESLint surface; `search: false` takes `cwd` as the root. */
export function buildModelSync(options: CheckOptions & { overlays?: ReadonlyMap<string, string>; search?: boolean }): BuiltModel {
  const loaded = loadConfigSync({ cwd: options.cwd, ...(options.configFile !== undefined && { configFile: options.configFile }), ...(options.search === false && { search: false }) });
  const { files, blobIds, unfollowed, gitlinks } = discoverFilesSync(loaded.root, { blobIds: options.cache !== false });
  const cacheRefused = options.cache === false ? null : cacheRefusalSync(cacheDirectory(loaded.root, options.cacheLocation), loaded.root);
  return assembleModel(loaded, files, { ...options, blobIds, unfollowed, gitlinks, cacheRefused }, undefined);
}

function assembleModel(
  loaded: LoadedConfig,
  files: readonly string[],
  options: CheckOptions & { overlays?: ReadonlyMap<string, string>; oversized?: ReadonlyMap<string, number>; blobIds?: ReadonlyMap<string, string>; unfollowed?: ReadonlyMap<string, string>; gitlinks?: readonly string[] },
  diff: DiffInput | undefined,
): BuiltModel {
  const { config, root } = loaded;
  const cacheRefused = options.cache === false ? null : (options.cacheRefused ?? null);
  const cache = openFactCache<CachedFacts>({
    root,
    // The configuration the facts depend on (recorded callee names) is part of each entry's key.
    // Facts are only ever taken from files within the size limit: another limit, another cache.
    version: `${VERSION}-f${FACTS_VERSION}${config.limits.maxFileBytes === DEFAULT_MAX_FILE_BYTES ? '' : `-l${config.limits.maxFileBytes}`}`,
    enabled: options.cache !== false && cacheRefused === null,
    ...(options.cacheLocation !== undefined && { location: options.cacheLocation }),
  });
  const configFile = loaded.file === null ? null : toPosix(relative(root, loaded.file));
  const progress = options.progress;
  const onFacts = progress && (() => progress.facts(model.stats.parsed + model.stats.cached));
  const model: RepoModel = new RepoModel({ root, config, configFile, files, cache, ...(onFacts && { onFacts }), ...(diff && { diff }), ...(options.overlays && { overlays: options.overlays }), ...(options.oversized && { oversized: options.oversized }), ...(options.blobIds && { blobIds: options.blobIds }), ...(options.unfollowed && { unfollowed: options.unfollowed }), ...(options.gitlinks && { gitlinks: options.gitlinks }) });
  return { model, root, configPath: loaded.file, cache, cacheRefused };
}

/** The changes since the merge base, and the old text of every changed file, read in one batch. */
async function readDiff(root: string, ref: string, maxBytes: number): Promise<DiffInput> {
  const gitRoot = await findGitRoot(root);
  if (gitRoot === null) throw new UsageError(`--base needs a git repository, and ${root} is not inside one`);
  const base = await resolveBase(gitRoot, ref);
  const changes = await diffChanges(gitRoot, root, base);
  const oldPaths = changes.flatMap((change) => (change.status === 'added' ? [] : [change.oldPath ?? change.path]));
  const old = await readTextsAt(gitRoot, root, base, oldPaths, maxBytes);
  return { base, changes, oldTexts: old.texts, oldOversized: old.oversized };
}

export async function run(options: CheckOptions): Promise<RunResult> {
  const started = performance.now();
  const watch = stopwatch();
  const { model, root, configPath, cache, cacheRefused } = await buildModel(options);
  watch.lap('configuration and file listing');
  assertSomethingToCheck(model, configPath);
  // With --staged the paths are not used (below): a hook tool's file list is never a reason to fail.
  if (options.staged !== true) assertPathsListed(model, options.paths, options.cwd);
  const selected = selectRules(model.config, options.rules, configPath);
  const rules: RuleTime[] = [];
  const factsBefore = model.stats.factsMs;
  const { findings, suppressed } = evaluate(model, selected, configPath, { rules, ...(options.progress && { progress: options.progress }) });
  const factsMs = model.stats.factsMs - factsBefore;
  const rulesMs = rules.reduce((sum, rule) => sum + rule.ms, 0);
  watch.phases.push({ name: 'facts (read, parse, cache)', ms: roundMs(factsMs) }, { name: 'rules', ms: roundMs(rulesMs) });
  watch.lap('core checks and suppressions', factsMs + rulesMs);
  options.progress?.phase('saving the fact cache');
  cache.save();
  watch.lap('fact cache save');

  const baselineFile = model.config.baseline;
  // A run narrowed by --rule or paths speaks for its part of the baseline only.
  const scopePaths = options.staged === true ? undefined : options.paths;
  const scopeRules = options.rules === undefined || options.rules.length === 0 ? null : new Set([...selected.map((s) => s.rule.id), ...Object.keys(CORE_RULES)]);
  const withinPaths = pathFilter(scopePaths, options.cwd, root);
  const scope: BaselineScope | undefined =
    scopeRules === null && (scopePaths === undefined || scopePaths.length === 0) ? undefined : (entry) => (scopeRules === null || scopeRules.has(entry.ruleId)) && withinPaths(entry.file);
  let known = { kept: findings, baselined: 0, fixed: 0 };
  let baselineWritten: number | undefined;
  if (options.updateBaseline === true) baselineWritten = writeBaseline(model, scope === undefined ? findings : findings.filter((finding) => scope(finding)), baselineFile, scope);
  else if (options.baseline !== false) {
    // With --base the change is compared with its merge base: only what the baseline held there is known.
    const atBase = options.base !== undefined && model.diff ? textAtBase(model, baselineFile) : undefined;
    const applied = applyBaseline(model, findings, baselineFile, atBase, scope);
    const ruleIds = new Set([...selected.map((s) => s.rule.id), ...Object.keys(CORE_RULES)]);
    const grown = applied.added.filter((added) => ruleIds.has(added.entry.ruleId)).map((added) => grownFinding(baselineFile, added));
    known = { ...applied, kept: [...applied.kept, ...grown] };
  }
  const affected = options.staged === true && model.diff ? known.kept.filter(affectedBy(model, model.diff.changes)) : known.kept;
  // With --staged the staged change already narrows what is reported; the file list a hook
  // tool passes (lint-staged) would hide a test that a staged helper broke.
  const paths = options.staged === true ? undefined : options.paths;
  const reported = filterPaths(options.updateBaseline === true ? [] : affected, paths, options.cwd, root).sort(compareFindings);
  watch.lap('baseline and narrowing');
  const errors = reported.filter((f) => f.severity === 'error').length;
  return {
    findings: reported,
    summary: {
      errors,
      warnings: reported.length - errors,
      files: model.files.length,
      rules: selected.length,
      ms: Math.round(performance.now() - started),
      ...(suppressed > 0 && { suppressed }),
      ...(known.baselined > 0 && { baselined: known.baselined }),
      ...(known.fixed > 0 && { baselineFixed: known.fixed }),
      ...(baselineWritten !== undefined && { baselineWritten }),
    },
    ...(options.coverage === true && { coverage: mapCoverage(model) }),
    root,
    model,
    rulesRun: selected.map((s) => s.rule),
    outsideInputs: outsideInputs(model),
    cacheRefused,
    stats: { phases: watch.phases, rules, facts: { parsed: model.stats.parsed, cached: model.stats.cached, read: model.stats.read } },
  };
}

/**
 * The text `file` (as named now) had at the merge base of `--base`; null
 * where it did not exist. A file git does not list (ignored) and the diff does
 * not name was never committed there: tracked at the base and ignored now, it
 * would be a deletion.
 */
function textAtBase(model: RepoModel, file: string): string | null {
  const change = model.diff?.changes.find((c) => c.path === file);
  if (change) return change.status === 'added' ? null : model.oldText(change.oldPath ?? change.path);
  return model.fileSet.has(file) ? model.text(file) : null;
}

function grownFinding(file: string, added: AddedEntry): Finding {
  const { entry } = added;
  const kind = 'messageId' in entry ? `${entry.ruleId}/${entry.messageId}` : entry.ruleId;
  const what = added.added === entry.count ? 'adds a baseline entry' : `raises by ${added.added} the count of the baseline entry`;
  const message = `this change ${what} for ${kind} in ${entry.file}: a change cannot accept its own finding, so the entry suppresses nothing. Fix the finding and drop the entry; the baseline only shrinks in a change.`;
  const related = added.unsuppressed.map((finding) => ({ file: finding.file, line: finding.line, column: finding.column, message: 'the finding the entry would hide' }));
  return toFinding('baseline-growth', 'baselineEntryAdded', 'error', file, added.loc, message, related);
}

/**
 * With no configuration only the default `tests.include` is checked; when it
 * matches nothing (an empty directory, a repository with no commits, the wrong
 * `--cwd`), a green run would say nothing was wrong with what was not looked at.
 */
function assertSomethingToCheck(model: RepoModel, configPath: string | null): void {
  if (configPath !== null || model.testFiles().length > 0) return;
  throw new UsageError(
    `nothing to check in ${model.root}: no configuration (${CONFIG_FILE_NAMES.join(', ')} or a "${PACKAGE_JSON_KEY}" key in package.json) and no file matches the default tests.include (${model.config.tests.include.join(', ')}); run 'tripwire init' there, or point --cwd at the repository`,
  );
}

/** Each path a user passes must name a listed file or a directory holding one: a typo must not narrow the report to nothing. */
function assertPathsListed(model: RepoModel, paths: readonly string[] | undefined, cwd: string): void {
  for (const path of paths ?? []) {
    const rel = toPosix(relative(model.root, resolve(cwd, path)));
    if (rel === '') continue;
    if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) throw new UsageError(`path '${path}' is outside the repository checked (${model.root})`);
    const prefix = `${rel}/`;
    if (model.fileSet.has(rel) || model.files.some((file) => file.startsWith(prefix))) continue;
    throw new UsageError(`path '${path}' names no file tripwire checks: it does not exist, or git ignores it, or the configuration's ignore does`);
  }
}

function outsideInputs(model: RepoModel): Map<string, string | null> {
  const inputs = new Map(model.outsideInputs());
  // The manifests are read whether or not git lists them (a baseline may be ignored).
  for (const manifest of [model.config.frozen, model.config.locks, model.config.baseline]) {
    if (!model.fileSet.has(manifest)) inputs.set(manifest, fileBlobId(join(model.root, manifest)));
  }
  return inputs;
}

/**
 * Runs the selected rules over a model and applies what every surface applies:
 * tripwire's own findings about its inputs, then `tripwire-disable` comments.
 */
export function evaluate(model: RepoModel, selected: readonly SelectedRule[], configPath: string | null, observe?: { rules: RuleTime[]; progress?: Progress }): { findings: Finding[]; suppressed: number } {
  const findings: Finding[] = [];
  for (const { rule, severity, options: ruleOptions, preset } of selected) {
    observe?.progress?.phase(`checking ${rule.id}`);
    const started = performance.now();
    const factsBefore = model.stats.factsMs;
    const produced = rule.check(model, ruleOptions);
    // The facts a rule is the first to ask for are the facts phase's time, not the rule's.
    observe?.rules.push({ id: rule.id, ms: roundMs(performance.now() - started - (model.stats.factsMs - factsBefore)) });
    for (const finding of produced) {
      const heuristic = rule.meta.messages[finding.messageId]?.heuristic;
      // What rests on a name, a mention or a run-time guess is a warning, or silent, unless the strict preset asks for more.
      if (heuristic === 'off' && preset === 'recommended') continue;
      const kindSeverity = heuristic === true && preset === 'recommended' ? 'warn' : severity;
      const converted = toFinding(rule.id, finding.messageId, kindSeverity, finding.file, finding.loc, finding.message, finding.related);
      if (finding.fix) converted.fix = finding.fix;
      if (finding.chain && finding.chain.length > 0) converted.chain = finding.chain;
      findings.push(converted);
    }
  }
  observe?.progress?.phase('core checks');
  findings.push(...unmatchedGlobs(model, configPath), ...complexGlobs(model, configPath));
  findings.push(...uncheckedSubmodules(model));
  for (const problem of model.paidList().problems) {
    findings.push(toFinding('unresolved-paid-list', problem.messageId, 'error', problem.file, problem.loc, problem.message));
  }
  const problemIds = { 'read-error': 'readError', 'parse-error': 'parseError', 'unfollowed-symlink': 'unfollowedSymlink' } as const;
  for (const problem of model.reportedProblems()) {
    findings.push(toFinding(problem.kind, problem.messageId ?? problemIds[problem.kind], 'error', problem.file, problem.loc, problem.message));
  }
  const { kept, suppressed } = applySuppressions(model, onePerDefect(findings), new Set(selected.map((s) => s.rule.id)));
  return { findings: kept, suppressed };
}

/** One finding per defect: the same kind at the same place, however many paths led there, is reported once. */
function onePerDefect(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.ruleId}\0${finding.messageId}\0${finding.file}:${finding.line}:${finding.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Whether a staged change can have caused a finding: it is in a changed file,
 * points at one (related locations, the chain in its message), or sits in the
 * config or a map while the set of files or a map changed. The model is still
 * the whole repository; only what is reported narrows.
 */
function affectedBy(model: RepoModel, changes: readonly FileChange[]): (finding: Finding) => boolean {
  const changed = new Set(changes.flatMap((change) => (change.oldPath ? [change.path, change.oldPath] : [change.path])));
  const mapFiles = new Set([...mapRefs(model.config).map((ref) => ref.file), ...paidListRefFiles(model.config), ...(model.configFile === null ? [] : [model.configFile])]);
  const mattersToMaps = fileSetMatters(model, mapFiles);
  const fileSetChanged = changes.some((change) => change.status !== 'modified' && [change.path, ...(change.oldPath ? [change.oldPath] : [])].some(mattersToMaps));
  const mapsChanged = [...mapFiles].some((file) => changed.has(file));
  // The repository's own list of paid globs decides which tests every rule treats as paid.
  const paidListChanged = model.paidList().files.some((file) => changed.has(file));
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
  const { selection, mapFiles: readFrom } = model.selection();
  const mapModules = new Set([...mapFiles, ...[...readFrom.values()].flat()]);
  // An entry whose globs could not be evaluated might match anything.
  if (selection.touchfiles.some((entry) => entry.unevaluated)) return () => true;
  const globs = [...selection.touchfiles.flatMap((entry) => entry.globs), ...(selection.globals ?? [])].map((glob) => glob.value).filter((glob) => !glob.startsWith('!'));
  const matches = compileGlobs([...globs, ...(model.config.maps?.generated ?? [])]);
  return (path) => mapModules.has(path) || model.isPaidTest(path) || matches(path);
}

export interface SelectedRule {
  rule: TripwireRule;
  severity: Severity;
  options: unknown;
  /** Under `recommended`, heuristic kinds of finding are capped at warn; under `strict` they keep the rule's severity. */
  preset: PresetName;
}

export function selectRules(config: Config, only: string[] | undefined, configFile: string | null): SelectedRule[] {
  for (const id of only ?? []) {
    if (!RULE_IDS.some((known) => known === id)) throw new UsageError(`unknown rule '${id}' (known: ${RULE_IDS.join(', ')})`);
    if (!allRules.some((rule) => rule.id === id)) throw new UsageError(`rule '${id}' is not implemented in tripwire ${VERSION} yet`);
  }
  const selected: SelectedRule[] = [];
  for (const rule of allRules) {
    if (only && !only.includes(rule.id)) continue;
    const setting = config.rules[rule.id];
    const severity = severityOf(setting);
    const raw = Array.isArray(setting) ? setting[1] : undefined;
    const parsed = rule.options.safeParse(raw ?? {});
    if (!parsed.success) {
      const file = configFile ?? 'tripwire.config.json';
      throw new ConfigError(file, issuesFromZod(parsed.error.issues, rule.options, ['rules', rule.id, 1]), basename(file));
    }
    if (severity !== 'off') selected.push({ rule, severity, options: parsed.data, preset: config.preset });
  }
  return selected;
}

export function severityOf(setting: RuleSetting | undefined): SeveritySetting {
  if (setting === undefined) return 'error';
  return Array.isArray(setting) ? setting[0] : setting;
}

function toFinding(ruleId: string, messageId: string, severity: Severity, file: string, loc: Loc, message: string, related?: Finding['related']): Finding {
  const finding: Finding = { ruleId, messageId, severity, file, line: loc.line, column: loc.column, endLine: loc.endLine, endColumn: loc.endColumn, message };
  if (related && related.length > 0) finding.related = related;
  return finding;
}

/** Each configured file glob must match something: a dead glob silently disables the check it feeds. */
function unmatchedGlobs(model: RepoModel, configPath: string | null): Finding[] {
  if (configPath === null || model.configFile === null) return [];
  const text = readFileSync(configPath, 'utf8');
  const tree = parseTree(text);
  if (!tree) return [];
  const prefix = basename(configPath) === 'package.json' ? ['tripwire'] : [];
  const position = lineIndex(text);
  const findings: Finding[] = [];
  const keys: [string, string][] = [['tests', 'include'], ['tests', 'paid'], ['shipped', 'include']];
  for (const keyPath of keys) {
    const node = findNodeAtLocation(tree, [...prefix, ...keyPath]);
    for (const [index, element] of (node?.children ?? []).entries()) {
      const pattern = element.value;
      if (typeof pattern !== 'string' || pattern.startsWith('!') || globTooComplex(pattern) !== null) continue;
      if (model.matching([pattern]).length > 0) continue;
      findings.push(toFinding('unmatched-glob', 'unmatchedGlob', 'error', model.configFile, rangeLoc(position, element.offset, element.offset + element.length), `${keyPath.join('.')}[${index}] '${pattern}' matches no file`));
    }
  }
  for (const { glob, file, loc, ref } of model.paidList().read) {
    if (glob.startsWith('!') || globTooComplex(glob) !== null || model.matching([glob]).length > 0) continue;
    findings.push(toFinding('unmatched-glob', 'unmatchedGlob', 'error', file, loc, `'${glob}' of ${ref} matches no file`));
  }
  return findings;
}

/** Where the configuration holds globs: key paths, `*` for every index of a list. */
const CONFIG_GLOBS: readonly (readonly string[])[] = [
  ['tests', 'include', '*'],
  ['tests', 'paid', '*'],
  ['tests', 'dynamicIds', '*', 'file'],
  ['maps', 'generated', '*'],
  ['shipped', 'include', '*'],
  ['shipped', 'exclude', '*'],
  ['shipped', 'illustrative', '*'],
  ['shipped', 'allow', '*', 'files', '*'],
  ['removed', '*', 'allow', '*'],
  ['ignore', '*'],
];

/**
 * A glob with more wildcards than can be matched in bounded time is refused
 * (it matches nothing): one finding at each place it is written, in the
 * configuration, a map, the global list or the repository's list of paid globs.
 */
function complexGlobs(model: RepoModel, configPath: string | null): Finding[] {
  const findings: Finding[] = [];
  const report = (glob: string, file: string, loc: Loc, where: string): void => {
    const reason = globTooComplex(glob);
    if (reason !== null) findings.push(toFinding('glob-too-complex', 'globTooComplex', 'error', file, loc, `${where} '${glob}' is too complex to match: ${reason}. It matches nothing until it is simplified.`));
  };
  if (configPath !== null && model.configFile !== null) {
    const text = readFileSync(configPath, 'utf8');
    const tree = parseTree(text);
    const position = lineIndex(text);
    const prefix = basename(configPath) === 'package.json' ? ['tripwire'] : [];
    const walk = (node: JsonNode | undefined, rest: readonly string[], path: string): void => {
      if (!node) return;
      const [head, ...tail] = rest;
      if (head === undefined) {
        if (typeof node.value === 'string') report(node.value, model.configFile ?? '', rangeLoc(position, node.offset, node.offset + node.length), path);
        return;
      }
      if (head !== '*') return walk(findNodeAtLocation(node, [head]), tail, path === '' ? head : `${path}.${head}`);
      if (node.type === 'array') for (const [index, child] of (node.children ?? []).entries()) walk(child, tail, `${path}[${index}]`);
    };
    for (const keyPath of CONFIG_GLOBS) walk(tree && findNodeAtLocation(tree, prefix), keyPath, '');
  }
  for (const { glob, file, loc, ref } of model.paidList().read) report(glob, file, loc, `a glob of ${ref}`);
  if (model.config.maps) {
    const { selection } = model.selection();
    for (const entry of selection.touchfiles) for (const glob of entry.globs) report(glob.value, glob.file, glob.loc, `the touchfile glob of '${entry.key.value}'`);
    for (const glob of selection.globals ?? []) report(glob.value, glob.file, glob.loc, 'the global touchfile glob');
  }
  return findings;
}

/**
 * A submodule's files are in another repository: git lists the gitlink, not
 * them. Where a configured glob reaches into one, its tests or shipped files
 * would be checked if they were here, so leaving them out is said, once per
 * submodule. A submodule excluded by `ignore` or by a glob's own negation is not.
 */
function uncheckedSubmodules(model: RepoModel): Finding[] {
  const { tests, shipped, ignore } = model.config;
  const lists: [string, readonly string[]][] = [
    ['tests.include', tests.include],
    ['tests.paid', model.paidList().globs],
    ['shipped.include', shipped.include],
  ];
  const findings: Finding[] = [];
  for (const gitlink of model.gitlinks) {
    if (ignore.some((pattern) => excludesDirectory(pattern, gitlink))) continue;
    for (const [key, patterns] of lists) {
      if (patterns.some((pattern) => pattern.startsWith('!') && excludesDirectory(pattern.slice(1), gitlink))) continue;
      const glob = patterns.find((pattern) => !pattern.startsWith('!') && reachesInto(pattern, gitlink));
      if (glob === undefined) continue;
      findings.push(
        toFinding('unchecked-submodule', 'uncheckedSubmodule', 'error', gitlink, { line: 1, column: 1, endLine: 1, endColumn: 1 }, `submodule not checked: ${gitlink} is a git submodule, and ${key} '${glob}' reaches into it, but tripwire lists no file of another repository, so nothing in it was checked. Check it in its own repository, or leave it out with ignore`),
      );
      break;
    }
  }
  return findings;
}

/**
 * `// tripwire-disable-next-line <rule> -- <reason>` silences a finding only
 * with a reason; without one the comment is itself a finding and silences nothing.
 */
function applySuppressions(model: RepoModel, findings: Finding[], enabled: ReadonlySet<string>): { kept: Finding[]; suppressed: number } {
  const invalid: Finding[] = [];
  for (const file of model.loadedFiles()) {
    for (const suppression of model.facts(file)?.suppressions ?? []) {
      const unknown = suppression.rules.filter((id) => !RULE_IDS.some((known) => known === id) && !(id in CORE_RULES));
      if (unknown.length > 0) invalid.push(toFinding('invalid-suppression', 'unknownRule', 'error', file, suppression.loc, `tripwire-disable names an unknown rule: ${unknown.join(', ')}`));
      if (suppression.reason !== null) continue;
      const named = suppression.rules.filter((id) => enabled.has(id));
      const ids = suppression.rules.length === 0 ? ['invalid-suppression'] : named;
      for (const id of ids) {
        invalid.push(toFinding(id, SUPPRESSION_WITHOUT_REASON, 'error', file, suppression.loc, 'tripwire-disable without a reason suppresses nothing: add ` -- <why this is safe>`'));
      }
    }
  }
  let suppressed = 0;
  const kept = findings.filter((finding) => {
    const silenced = model.facts(finding.file)?.suppressions.some(
      (s) =>
        s.reason !== null &&
        (s.rules.length === 0 || s.rules.includes(finding.ruleId)) &&
        (s.scope === 'next-line' ? s.loc.endLine + 1 === finding.line : s.loc.line === finding.line),
    );
    if (silenced) suppressed++;
    return !silenced;
  });
  return { kept: [...kept, ...invalid], suppressed };
}

function filterPaths(findings: Finding[], paths: string[] | undefined, cwd: string, root: string): Finding[] {
  const within = pathFilter(paths, cwd, root);
  return findings.filter((finding) => within(finding.file));
}

/** Whether a repository path lies in one of the path arguments (all do when there are none). */
function pathFilter(paths: string[] | undefined, cwd: string, root: string): (file: string) => boolean {
  if (!paths || paths.length === 0) return () => true;
  const wanted = paths.map((path) => toPosix(relative(root, resolve(cwd, path))));
  return (file) => wanted.some((path) => path === '' || file === path || file.startsWith(`${path}/`));
}



