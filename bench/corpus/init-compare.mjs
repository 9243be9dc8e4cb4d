// Compares the config `tripwire init` inferred for a corpus repository with the
// hand-corrected one, by meaning rather than text, on the four keys init is
// judged on. Both configs go through the runtime schema first, so an absent key
// means what check would make of it (tests.include's default globs, no paid
// globs, no maps, no ids, `arg` 0, the default tier values).

import path from 'node:path';
import { parse, printParseErrorCode } from 'jsonc-parser';
import { configSchema } from '../../dist/src/config/schema.js';
import { openFactCache } from '../../dist/src/facts/cache.js';
import { RepoModel } from '../../dist/src/model/model.js';
import { compileGlobs } from '../../dist/src/util/glob.js';

export const INIT_KEYS = ['include', 'paid', 'maps', 'ids'];
const EXAMPLES = 5;

/** The JSON config that `init --dry-run` prints after its report, or throws. */
export function configFromInitOutput(stdout) {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith('tripwire.config.json (not written: --dry-run)'));
  if (at === -1) throw new Error('init printed no "tripwire.config.json (not written: --dry-run)" line');
  return parseJsonc(lines.slice(at + 1).join('\n'), 'the config init printed');
}

export function parseJsonc(text, what) {
  const errors = [];
  const value = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) throw new Error(`${what}: ${errors.map((e) => `${printParseErrorCode(e.error)} at offset ${e.offset}`).join(', ')}`);
  return value;
}

function withDefaults(config, what) {
  const result = configSchema.safeParse(config);
  if (!result.success) throw new Error(`${what} does not match the schema: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return result.data;
}

const sorted = (values) => [...new Set(values)].sort();

/** What two sets disagree on, or null; `show` turns a member into what the diff records. */
function setDiff(inferred, corrected, show = (x) => x) {
  const a = new Set(inferred);
  const b = new Set(corrected);
  const onlyInferred = [...a].filter((x) => !b.has(x)).sort();
  const onlyCorrected = [...b].filter((x) => !a.has(x)).sort();
  if (onlyInferred.length === 0 && onlyCorrected.length === 0) return null;
  return {
    inferred: a.size,
    corrected: b.size,
    onlyInferred: { count: onlyInferred.length, examples: onlyInferred.slice(0, EXAMPLES).map(show) },
    onlyCorrected: { count: onlyCorrected.length, examples: onlyCorrected.slice(0, EXAMPLES).map(show) },
  };
}

// Map files are relative to the config file, which sits at the root in both.
const mapFile = (file) => path.posix.normalize(file.replace(/^\.\//, ''));
const refKey = (ref) => (ref.export !== undefined ? `${mapFile(ref.file)}#export:${ref.export}` : `${mapFile(ref.file)}#path:${ref.path ?? ''}`);

function normalizeMaps(maps) {
  if (maps === undefined) return { touchfiles: [], tiers: null, globals: null, generated: [] };
  const touchfiles = maps.touchfiles === undefined ? [] : Array.isArray(maps.touchfiles) ? maps.touchfiles : [maps.touchfiles];
  return {
    touchfiles: sorted(touchfiles.map(refKey)),
    tiers: maps.tiers === undefined ? null : { ref: refKey(maps.tiers), values: sorted(maps.tiers.values), covers: maps.tiers.covers === undefined ? null : sorted(maps.tiers.covers) },
    globals: maps.globals === undefined ? null : { ref: refKey(maps.globals), require: sorted(maps.globals.require.map(mapFile)) },
    generated: sorted(maps.generated),
  };
}

function mapsDiff(inferred, corrected) {
  const a = normalizeMaps(inferred);
  const b = normalizeMaps(corrected);
  const diff = {};
  for (const key of Object.keys(a)) {
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) diff[key] = { inferred: a[key], corrected: b[key] };
  }
  return Object.keys(diff).length === 0 ? null : diff;
}

const idKey = (shape) => JSON.stringify({ call: shape.call, arg: shape.arg, property: shape.property ?? null });

/**
 * `files` are the repository's tracked files. `tests.include` and `tests.paid`
 * are compared as the sets of files check would treat as test files and as paid
 * test files (include ∩ paid: a paid glob such as `tests/e2e/**` also matches
 * the helpers beside the tests, which are not paid tests).
 */
export function compareInit({ inferred, corrected, files, root }) {
  const a = withDefaults(inferred, 'the config init printed');
  const b = withDefaults(corrected, 'the corrected config');
  const testsOf = (config) => {
    const include = compileGlobs(config.tests.include);
    const paid = compileGlobs(paidGlobs(config, files, root));
    const tests = files.filter((file) => include(file));
    return { tests, paid: tests.filter((file) => paid(file)) };
  };
  const ta = testsOf(a);
  const tb = testsOf(b);
  const diff = {};
  const include = setDiff(ta.tests, tb.tests);
  if (include) diff.include = include;
  const paid = setDiff(ta.paid, tb.paid);
  if (paid) diff.paid = paid;
  const maps = mapsDiff(a.maps, b.maps);
  if (maps) diff.maps = maps;
  const ids = setDiff(a.tests.ids.map(idKey), b.tests.ids.map(idKey), (key) => JSON.parse(key));
  if (ids) diff.ids = ids;
  const correct = Object.fromEntries(INIT_KEYS.map((key) => [key, diff[key] === undefined]));
  correct.all = INIT_KEYS.every((key) => correct[key]);
  return { correct, diff };
}

/**
 * The globs of `tests.paid`: the literal ones, and those of the repository's own list when it is a
 * reference (`{ "file", "export" }`), read by check's own model (statically, never run).
 */
function paidGlobs(config, files, root) {
  const entries = Array.isArray(config.tests.paid) ? config.tests.paid : [config.tests.paid];
  if (entries.every((entry) => typeof entry === 'string')) return entries;
  const model = new RepoModel({ root, config, configFile: null, files, cache: openFactCache({ root, version: 'corpus', enabled: false }) });
  const list = model.paidList();
  if (list.problems.length > 0) throw new Error(`tests.paid cannot be read: ${list.problems.map((problem) => problem.message).join('; ')}`);
  return list.globs;
}

/** "yes", or "no (include, paid)": the keys that differ. */
export function verdictText(correct) {
  if (correct.all) return 'yes';
  return `no (${INIT_KEYS.filter((key) => !correct[key]).join(', ')})`;
}
