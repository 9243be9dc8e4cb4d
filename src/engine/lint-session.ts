import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { mapRefs } from '../config/refs.js';
import { ConfigError } from '../config/errors.js';
import { findRoot } from '../config/root.js';
import type { FactCache } from '../facts/cache.js';
import type { CachedFacts } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import type { TripwireRule } from '../rule.js';
import type { Finding } from '../types.js';
import { toPosix } from '../util/path.js';
import { applyBaseline } from './baseline.js';
import { evaluate } from './evaluate.js';
import { buildModelSync } from './project.js';
import { selectRules } from './rule-set.js';

// The engine for a linter that asks file by file (the ESLint surface): one
// model per repository root and process, evaluated rule by rule, with the
// linted buffer overlaid on the files on disk. Nothing here knows ESLint.

export { ConfigError } from '../config/errors.js';

/** One lint of one file by one rule, as the surface received it. */
export interface LintRequest {
  /** The linter's working directory. */
  cwd: string;
  /** The absolute path of the linted file. */
  filename: string;
  /** Its text as the linter has it (an unsaved buffer can differ from the disk). */
  text: string;
  settings: AdapterSettings;
  /** The rule's options as the linter's configuration gives them (they replace tripwire.config.json's). */
  options?: unknown;
}

/**
 * How long a validated model is trusted before its inputs are looked at again
 * (an editor session goes on for hours): 2 s, or twenty times what the last
 * look cost, so that looking never takes more than a twentieth of a lint run.
 */
const REVALIDATE_AFTER_MS = 2000;
const REVALIDATE_COST_FACTOR = 20;

interface Entry {
  /** The size and mtime of the config, the baseline, every listed file and every directory holding one, when the model was built. */
  stamps: Map<string, string>;
  validatedAt: number;
  /** What the last look at the stamps cost. */
  validationMs: number;
  model: RepoModel;
  /** The fact cache the model reads, written back after each evaluation that parsed something. */
  cache: FactCache<CachedFacts>;
  configPath: string | null;
  /** The rules tripwire.config.json leaves on: a rule it switches off reports nothing here either. */
  enabled: ReadonlySet<string>;
  /** Results per rule and options, for the files as they are on disk. */
  results: Map<string, Map<string, Finding[]>>;
  /** The last buffer that differed from the disk, and its results (an editor lints one buffer at a time). */
  overlay: { file: string; text: string; results: Map<string, Map<string, Finding[]>>; model: RepoModel } | null;
}

/**
 * One model per repository root and process, kept while its inputs keep their
 * stamps: the config file, every listed file, and every directory holding one
 * (adding, removing or renaming a file changes its directory's mtime, so the
 * file list is only asked of git again when one does). Each ESLint worker
 * (`--concurrency`) holds its own; nothing is shared across processes, and
 * nothing is inferred from how the process was started.
 */
const entries = new Map<string, Entry>();
const cacheWarnings = new Set<string>();

export interface AdapterSettings {
  /** The root holding tripwire.config.json, relative to ESLint's cwd (default: found from the linted file, see findRoot). */
  root?: string;
  /** The configuration file, relative to `root` (or ESLint's cwd); its directory is the root. */
  configFile?: string;
}

/** How to build the model a linted file belongs to, and the key its entry is kept under. */
interface Target {
  key: string;
  cwd: string;
  configFile?: string;
  search: false;
}

/** The root found for each directory ESLint lints in (and ESLint's cwd), looked at again after REVALIDATE_AFTER_MS. */
const roots = new Map<string, { root: string; at: number }>();

/**
 * The root a linted file belongs to: `settings.tripwire` when it says, else
 * the nearest directory above the file that configures tripwire, no higher
 * than the git top level (outside git, no higher than ESLint's cwd), as the
 * CLI finds it above its working directory. ESLint 10 looks up
 * eslint.config.js per file, so one run can lint several packages, each with
 * its own tripwire.config.json.
 */
function targetFor(request: LintRequest): Target {
  const { settings } = request;
  const base = settings.root === undefined ? request.cwd : resolve(request.cwd, settings.root);
  if (settings.configFile !== undefined) return { key: `${base}\0${settings.configFile}`, cwd: base, configFile: settings.configFile, search: false };
  if (settings.root !== undefined) return { key: base, cwd: base, search: false };
  const dir = dirname(request.filename);
  const lookup = `${dir}\0${request.cwd}`;
  const known = roots.get(lookup);
  if (known && Date.now() - known.at < REVALIDATE_AFTER_MS) return { key: known.root, cwd: known.root, search: false };
  const root = findRoot(dir, request.cwd);
  roots.set(lookup, { root, at: Date.now() });
  return { key: root, cwd: root, search: false };
}

/** A configuration that failed to load, kept like a model: a build is not retried for every linted file. */
const failures = new Map<string, { error: ConfigError; at: number }>();

function entryFor(target: Target): Entry {
  const failed = failures.get(target.key);
  if (failed && Date.now() - failed.at < REVALIDATE_AFTER_MS) throw failed.error;
  try {
    const entry = buildEntry(target);
    failures.delete(target.key);
    return entry;
  } catch (error) {
    if (error instanceof ConfigError) {
      entries.delete(target.key);
      failures.set(target.key, { error, at: Date.now() });
    }
    throw error;
  }
}

function buildEntry(target: Target): Entry {
  const known = entries.get(target.key);
  if (known) {
    if (Date.now() - known.validatedAt < Math.max(REVALIDATE_AFTER_MS, known.validationMs * REVALIDATE_COST_FACTOR)) return known;
    const started = performance.now();
    const unchanged = [...known.stamps].every(([path, stamp]) => stampOf(path) === stamp);
    known.validationMs = performance.now() - started;
    known.validatedAt = Date.now();
    if (unchanged) return known;
  }
  // The fact cache is the CLI's: a repository a hook has checked is warm here too.
  const built = buildModelSync(target);
  if (built.cacheRefused !== null && !cacheWarnings.has(built.cacheRefused)) {
    // Not a finding of any linted file, and an editor session rebuilds often: said once per process.
    cacheWarnings.add(built.cacheRefused);
    process.stderr.write(`tripwire: warning: ${built.cacheRefused}\n`);
  }
  // Validates every rule's options in the config, and the baseline, as the CLI does (a ConfigError).
  const enabled = new Set(selectRules(built.model.config, undefined, built.configPath).map((selected) => selected.rule.id));
  applyBaseline(built.model, [], built.model.config.baseline);
  const started = performance.now();
  const stamps = stampsOf(built.model, built.configPath);
  const entry: Entry = {
    stamps,
    validatedAt: Date.now(),
    validationMs: performance.now() - started,
    model: built.model,
    cache: built.cache,
    configPath: built.configPath,
    enabled,
    results: new Map(),
    overlay: null,
  };
  entries.set(target.key, entry);
  return entry;
}

function stampsOf(model: RepoModel, configPath: string | null): Map<string, string> {
  const paths = new Set<string>([model.root, join(model.root, model.config.baseline)]);
  if (configPath !== null) paths.add(configPath);
  for (const file of model.files) {
    paths.add(join(model.root, file));
    for (let dir = dirname(file); dir !== '.' && !paths.has(join(model.root, dir)); dir = dirname(dir)) paths.add(join(model.root, dir));
  }
  return new Map([...paths].map((path) => [path, stampOf(path)]));
}

function stampOf(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : 'missing';
}

function resultsOf(model: RepoModel, configPath: string | null, cache: Map<string, Map<string, Finding[]>>, rule: TripwireRule, options: unknown): Map<string, Finding[]> {
  const key = `${rule.id}\0${JSON.stringify(options ?? null)}`;
  const cached = cache.get(key);
  if (cached) return cached;
  // ESLint reports every finding at the rule's own severity; the preset decides only which kinds are reported at all.
  const { findings } = evaluate(model, [{ rule, severity: 'error', options, preset: model.config.preset }], configPath);
  // What the baseline knows is not reported, as in the CLI (its entries are keyed by rule: one rule at a time is the same).
  const { kept } = applyBaseline(model, findings, model.config.baseline);
  const byFile = new Map<string, Finding[]>();
  for (const finding of kept) {
    if (finding.ruleId !== rule.id) continue;
    const list = byFile.get(finding.file);
    if (list) list.push(finding);
    else byFile.set(finding.file, [finding]);
  }
  cache.set(key, byFile);
  return byFile;
}

const LINTED = /\.(?:[cm]?[jt]sx?|md|markdown)$/;

export function findingsInFile(rule: TripwireRule, request: LintRequest): Finding[] {
  const entry = entryFor(targetFor(request));
  const file = toPosix(relative(entry.model.root, request.filename));
  if (file.startsWith('..') || isAbsolute(file) || !entry.enabled.has(rule.id)) return [];
  // Parsed once here (defaults filled in), as the engine parses the configuration's when it selects the rules.
  const options = rule.parseOptions(request.options ?? tripwireOptions(entry.model, rule));
  const text = request.text;

  let model = entry.model;
  let cache = entry.results;
  if (entry.model.diskText(file) !== text) {
    if (entry.overlay?.file !== file || entry.overlay.text !== text) {
      const overlaid = entry.model.withOverlays(new Map([[file, text]]));
      entry.overlay = { file, text, results: new Map(), model: overlaid };
    }
    model = entry.overlay.model;
    cache = entry.overlay.results;
  }
  const byFile = resultsOf(model, entry.configPath, cache, rule, options);
  // What an evaluation of the files on disk parsed serves the next lint run and
  // `tripwire check`. Each process writes the whole file atomically, so concurrent
  // workers only race to write equivalent facts; a no-op when nothing new was
  // parsed. An unsaved buffer's facts are not worth a write per keystroke.
  if (model === entry.model) model.saveCache();
  const own = byFile.get(file) ?? [];
  if (file !== anchorFile(model)) return own;
  const elsewhere = [...byFile].filter(([other]) => !LINTED.test(other)).flatMap(([, list]) => list);
  // A fix of a file ESLint does not lint is not a suggestion here (`tripwire fix` applies it).
  return [...own, ...elsewhere.map((finding) => ({ ...withoutFix(finding), line: 1, column: 1, endLine: 1, endColumn: 1, message: `${finding.file}:${finding.line}:${finding.column}: ${finding.message}` }))];
}

function withoutFix(finding: Finding): Finding {
  const copy = { ...finding };
  delete copy.fix;
  return copy;
}

/** The file that carries project-level findings in ESLint: the first configured map that ESLint lints. */
function anchorFile(model: RepoModel): string | null {
  return mapRefs(model.config).map((ref) => ref.file).find((path) => LINTED.test(path) && !path.endsWith('.md')) ?? null;
}

function tripwireOptions(model: RepoModel, rule: TripwireRule): unknown {
  const setting = model.config.rules[rule.id];
  return Array.isArray(setting) ? setting[1] : undefined;
}

/** For tests: forget every model. */
export function resetModels(): void {
  entries.clear();
  failures.clear();
  roots.clear();
}
