import { simpleGit } from '../repo/git.js';
import { Evaluator, type Value } from '../analysis/evaluate.js';
import type { RepoModel } from '../model/model.js';
import { isScriptFile } from '../util/file-kinds.js';
import { compileGlobs, globBase, isDynamicGlob } from '../util/glob.js';
import { inFixture } from './globs.js';
import { compareText } from '../util/compare.js';

/** Words harnesses use for tiers, for a tier map found without a touchfile map to compare its keys with. */
const TIER_WORDS = new Set(['gate', 'periodic', 'nightly', 'weekly', 'daily', 'smoke', 'release', 'pr', 'manual', 'slow', 'fast', 'full', 'quick', 'core', 'extended', 'blocking', 'nonblocking', 'non-blocking', 'scheduled', 'merge', 'presubmit', 'postsubmit']);
const DATA_FILE = /\.(?:json|jsonc|ya?ml)$/;
/** Other tools' configuration: their glob lists select files for that tool, not paid tests. */
const NOT_MAPS = /(?:^|\/)(?:tripwire\.config\.jsonc?|package(?:-lock)?\.json|[jt]sconfig[\w.-]*\.json|jest\.config[\w.-]*\.json|\.mocharc\.[\w]+|\.?eslintrc[\w.]*|\.prettierrc[\w.]*|biome\.jsonc?|deno\.jsonc?|turbo\.json|nx\.json|project\.json|lerna\.json|vercel\.json|renovate\.json5?|\.lintstagedrc[\w.]*|\.?lefthook(?:-local)?\.ya?ml|\.pre-commit-[\w-]+\.yaml|pnpm-(?:lock|workspace)\.yaml|\.yarnrc\.yml|\.github\/.*|\.vscode\/.*|\.devcontainer\/.*|\.tripwire\/.*)$/;

export interface MapRefOut {
  file: string;
  export?: string;
  path?: string;
}

export interface TouchfileMap {
  ref: MapRefOut;
  label: string;
  keys: string[];
  /** Every file the evaluation read (re-exports, spreads from other modules). */
  files: string[];
  globs: string[];
  unevaluable: number;
}

export interface TierMap {
  ref: MapRefOut;
  label: string;
  values: string[];
  covers: string[] | null;
  overlap: number;
  keys: number;
}

export interface GlobalsList {
  ref: MapRefOut;
  label: string;
  require: string[];
  namesMapFile: boolean;
}

export interface MapsInference {
  touchfiles: TouchfileMap[];
  tiers: TierMap | null;
  globals: GlobalsList | null;
  generated: string[];
  /** Test files a touchfile map names, with the map that names them: the user's own list of paid tests. */
  namedTests: Map<string, string>;
  keys: Set<string>;
  tierWords: string[];
  skipped: string[];
}

interface Candidate {
  ref: MapRefOut;
  label: string;
  value: Value;
  files: string[];
  name: string;
}

/**
 * Finds the selection maps by what their values are, evaluated statically
 * exactly as `check` will evaluate them: objects of glob lists (touchfiles),
 * objects of tier words (tiers) and glob lists (globals).
 */
export async function inferMaps(model: RepoModel, root: string, testFiles: readonly string[]): Promise<MapsInference> {
  const candidates = collectCandidates(model, new Set(testFiles));
  const skipped: string[] = [];

  const touchfiles: TouchfileMap[] = [];
  for (const candidate of candidates) {
    const map = asTouchfileMap(candidate);
    if (map === null) continue;
    const named = map.globs.some((glob) => testFiles.some(compileGlobs([glob])));
    if (!named) {
      if (/touch/i.test(candidate.name)) skipped.push(`${candidate.label} (${candidate.ref.file}): its globs name no test file`);
      continue;
    }
    touchfiles.push(map);
  }
  // A map spread into another map is configured through the one that merges it.
  const merged = touchfiles.filter((inner) => !touchfiles.some((outer) => outer !== inner && outer.files.includes(inner.ref.file) && inner.keys.every((key) => outer.keys.includes(key)) && outer.keys.length >= inner.keys.length && outer.label !== inner.label));
  merged.sort((a, b) => b.keys.length - a.keys.length || compareText(a.ref.file, b.ref.file));
  const keys = new Set(merged.flatMap((map) => map.keys));

  const namedTests = new Map<string, string>();
  for (const map of merged) {
    const matches = compileGlobs(map.globs);
    for (const file of testFiles) if (matches(file) && !namedTests.has(file)) namedTests.set(file, map.label);
  }

  let tiers: TierMap | null = null;
  for (const candidate of candidates) {
    const tier = asTierMap(candidate, keys, merged);
    if (tier !== null && (tiers === null || tier.overlap > tiers.overlap)) tiers = tier;
  }

  let globals: GlobalsList | null = null;
  let globalsScore = 0;
  const mapFiles = new Set([...merged.flatMap((map) => map.files), ...(tiers ? [tiers.ref.file] : [])]);
  for (const candidate of candidates) {
    const list = stringItems(candidate.value);
    if (list === null || list.length === 0 || !list.every((item) => /[/*.]/.test(item))) continue;
    const namesMapFile = list.some((item) => [...mapFiles].some(compileGlobs([item])));
    const score = (/global/i.test(candidate.name) ? 2 : 0) + (namesMapFile ? 1 : 0);
    if (score === 0 || score <= globalsScore) continue;
    globalsScore = score;
    const require = list.filter((item) => !isDynamicGlob(item) && model.fileSet.has(item) && !mapFiles.has(item));
    globals = { ref: candidate.ref, label: candidate.label, require, namesMapFile };
  }

  const generated = await generatedGlobs(root, model, merged);
  return { touchfiles: merged, tiers, globals, generated, namedTests, keys, tierWords: tiers?.values ?? [], skipped };
}

function collectCandidates(model: RepoModel, tests: ReadonlySet<string>): Candidate[] {
  const evaluator = new Evaluator(model);
  const out: Candidate[] = [];
  for (const file of model.files) {
    if (tests.has(file) || file.includes('node_modules/') || inFixture(file)) continue;
    if (isScriptFile(file)) {
      const facts = model.facts(file);
      for (const fact of facts?.exports ?? []) {
        if (fact.kind !== 'local') continue;
        const constant = facts?.constants.find((c) => c.name === fact.local && c.kind === 'const');
        if (!constant || !['obj', 'arr', 'ref', 'member'].includes(constant.expr.k)) continue;
        const result = evaluator.evaluateRef(file, { export: fact.name });
        if (result.value === null) continue;
        out.push({ ref: { file, export: fact.name }, label: fact.name, value: result.value, files: result.files, name: fact.name });
      }
    } else if (DATA_FILE.test(file) && !NOT_MAPS.test(file)) {
      const text = model.text(file);
      if (text === null || text.length > 256 * 1024) continue;
      const result = evaluator.evaluateRef(file, {});
      if (result.value === null) continue;
      for (const { path, value } of dataObjects(result.value, [], 0)) {
        const ref: MapRefOut = path.length === 0 ? { file } : { file, path: path.join('.') };
        out.push({ ref, label: `${file}${path.length === 0 ? '' : `#${path.join('.')}`}`, value, files: [file], name: path.at(-1) ?? file });
      }
    }
  }
  return out;
}

/** Every object and array inside a data file, with its dot path (keys with dots cannot be addressed). */
function dataObjects(value: Value, path: string[], depth: number): { path: string[]; value: Value }[] {
  if (depth > 3) return [];
  const out: { path: string[]; value: Value }[] = [];
  if (value.t === 'obj' || value.t === 'arr') out.push({ path, value });
  if (value.t === 'obj') {
    for (const entry of value.entries) if (!entry.key.includes('.')) out.push(...dataObjects(entry.value, [...path, entry.key], depth + 1));
  }
  return out;
}

/**
 * The repository's own list of its paid globs: an exported array of globs
 * (or one in a data file) that names exactly the paid test files, e.g. the
 * list a runner reads to choose its live suites. `tests.paid` then points at
 * it, so that narrowing the list is what check sees.
 */
export function findPaidList(model: RepoModel, testFiles: readonly string[], paidFiles: readonly string[]): { ref: MapRefOut; label: string; globs: string[] } | null {
  if (paidFiles.length === 0) return null;
  const paid = new Set(paidFiles);
  for (const candidate of collectCandidates(model, new Set(testFiles))) {
    const globs = stringItems(candidate.value);
    if (globs === null || globs.length === 0 || !globs.every((glob) => /[*/]/.test(glob))) continue;
    const matches = compileGlobs(globs);
    const named = testFiles.filter((file) => matches(file));
    if (named.length === paid.size && named.every((file) => paid.has(file))) return { ref: candidate.ref, label: candidate.label, globs };
  }
  return null;
}

function stringItems(value: Value): string[] | null {
  if (value.t !== 'arr') return null;
  const out: string[] = [];
  for (const item of value.items) {
    if (item.t !== 'str') return null;
    out.push(item.v);
  }
  return out;
}

function asTouchfileMap(candidate: Candidate): TouchfileMap | null {
  const { value } = candidate;
  if (value.t !== 'obj' || value.entries.length === 0) return null;
  const keys: string[] = [];
  const globs: string[] = [];
  let unevaluable = 0;
  for (const entry of value.entries) {
    if (entry.value.t === 'err') {
      unevaluable++;
      keys.push(entry.key);
      continue;
    }
    const list = stringItems(entry.value);
    if (list === null) return null;
    keys.push(entry.key);
    globs.push(...list);
  }
  if (unevaluable * 2 >= value.entries.length || globs.length === 0) return null;
  return { ref: candidate.ref, label: candidate.label, keys, files: candidate.files, globs: [...new Set(globs)], unevaluable };
}

function asTierMap(candidate: Candidate, keys: ReadonlySet<string>, maps: readonly TouchfileMap[]): TierMap | null {
  const { value } = candidate;
  if (value.t !== 'obj' || value.entries.length === 0) return null;
  const values: string[] = [];
  for (const entry of value.entries) {
    if (entry.value.t === 'err') continue;
    if (entry.value.t !== 'str' || !/^[A-Za-z][\w-]{0,30}$/.test(entry.value.v)) return null;
    if (!values.includes(entry.value.v)) values.push(entry.value.v);
  }
  if (values.length === 0 || values.length > 8) return null;
  const tierKeys = value.entries.map((entry) => entry.key);
  const overlap = tierKeys.filter((key) => keys.has(key)).length;
  if (keys.size > 0 ? overlap * 2 < tierKeys.length : !values.every((word) => TIER_WORDS.has(word.toLowerCase()))) return null;
  const covered = maps.filter((map) => map.keys.some((key) => tierKeys.includes(key))).map((map) => map.label);
  const ordered = values.every((word) => word === 'gate' || word === 'periodic') ? ['gate', 'periodic'] : values;
  return { ref: candidate.ref, label: candidate.label, values: ordered, covers: covered.length === maps.length ? null : covered, overlap, keys: tierKeys.length };
}

/**
 * Touchfile globs that match nothing because the build creates their files
 * (git ignores them): `maps.generated`, so that they are not dead globs.
 */
async function generatedGlobs(root: string, model: RepoModel, maps: readonly TouchfileMap[]): Promise<string[]> {
  const dead = [...new Set(maps.flatMap((map) => map.globs))].filter((glob) => model.matching([glob]).length === 0);
  const target = (glob: string): string => (isDynamicGlob(glob) ? `${globBase(glob)}/` : glob);
  const candidates = dead.filter((glob) => target(glob) !== '/');
  if (candidates.length === 0) return [];
  let ignored: string[];
  try {
    ignored = await simpleGit({ baseDir: root }).checkIgnore(candidates.map(target));
  } catch {
    return [];
  }
  const generated = candidates.filter((glob) => ignored.includes(target(glob)));
  const covers = (outer: string, inner: string): boolean => outer !== inner && isDynamicGlob(outer) && (compileGlobs([outer])(target(inner)) || target(inner).startsWith(target(outer)));
  return generated.filter((glob) => !generated.some((outer) => covers(outer, glob))).sort();
}

/** A path as a glob that matches only itself. */
export function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}
