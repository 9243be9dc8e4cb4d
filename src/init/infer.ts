import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleId } from '../rule-ids.js';
import { configSchema, type ConfigInput } from '../config/schema.js';
import { SCHEMA_ID } from '../config/json-schema.js';
import { openFactCache, type FactCache } from '../facts/cache.js';
import type { CachedFacts } from '../facts/types.js';
import { WORKFLOW_FILE } from '../facts/extract-workflow.js';
import { FACTS_VERSION, RepoModel } from '../model/model.js';
import { PAID_ENV } from '../vocab/paid.js';
import { isScriptFile } from '../util/file-kinds.js';
import { compareText } from '../util/compare.js';
import { compileGlobs } from '../util/glob.js';
import { PACKAGE_NAME, VERSION } from '../version.js';
import { coverFiles, inFixture, rootsOf } from './globs.js';
import { inferIds, type ShapeStats } from './ids.js';
import { escapeGlob, findPaidList, inferMaps, type MapRefOut } from './maps.js';
import { inferPaid } from './paid.js';
import { detectWorkspace, type Lane, type WorkspaceLayout } from './layout.js';
import { runnerScriptLanes } from './runner-scripts.js';
import { RUNNER_LABELS } from './runners.js';
import { scanRepository, type RepoScan } from './scan.js';
import { inferShipped } from './shipped.js';

/** A file named as a test or an eval (`x.test.ts`, `x.evals.ts`, `x-e2e.ts`), not a helper that wraps the runner's calls. */
const TEST_LIKE = /[._-](?:test|spec|evals?|e2e)\.[cm]?[jt]sx?$/;

/** One line of what `init` inferred: the config key, its value, and why. */
export interface Inferred {
  key: string;
  value: string;
  why: string[];
  /** Things the user should look at: a free test that reaches a paid call, a guess. */
  warnings: string[];
}

export interface Inference {
  config: ConfigInput;
  items: Inferred[];
}

export interface InferOptions {
  root: string;
  cache?: boolean;
}

/** Reads the repository, never runs it, and proposes a configuration with the reasons for each key. */
export async function inferConfig({ root, cache = true }: InferOptions): Promise<Inference> {
  const scan = await scanRepository(root);
  const items: Inferred[] = [];
  const facts = openFactCache<CachedFacts>({ root, version: `${VERSION}-f${FACTS_VERSION}`, enabled: cache });
  // Which runner a test file uses is what it imports, read from the same facts check reads (not from its text, where an import can sit in a string).
  const base = modelFor(scan, {}, facts);
  const layout = detectWorkspace(scan, (file) => base.facts(file)?.imports.map((fact) => fact.specifier) ?? []);
  items.push(runnerItem(layout));

  // A file that declares tests and that a touchfile map names is a paid test even when no runner configuration picks it up.
  const known = new Set(layout.testFiles);
  const declaring = scan.files.filter((file) => TEST_LIKE.test(file) && isScriptFile(file) && !known.has(file) && !layout.excluded(file) && !file.includes('node_modules/') && !inFixture(file) && (base.facts(file)?.tests.length ?? 0) > 0);
  const candidates = [...layout.testFiles, ...declaring];
  // Every test counted as free: the paid-call rule then reports exactly the test files that reach a paid call.
  let model = modelFor(scan, { tests: { include: candidates.map(escapeGlob), paid: [] } }, facts);
  const maps = await inferMaps(model, root, candidates);
  const outside = declaring.filter((file) => maps.namedTests.has(file));
  if (outside.length > 0) layout.testFiles = [...layout.testFiles, ...outside].sort();
  if (outside.length !== declaring.length) model = modelFor(scan, { tests: { include: layout.testFiles.map(escapeGlob), paid: [] } }, facts);

  const include = proposeInclude(scan, layout);
  const outsideWarning = outside.length === 0 ? [] : [`${outside.length} ${outside.length === 1 ? 'file' : 'files'} that the touchfile map names ${outside.length === 1 ? 'declares' : 'declare'} tests that no runner configuration includes, e.g. ${outside[0] ?? ''}: included, and paid`];
  items.push({ key: 'tests.include', value: include.globs.join(', ') || '(the default)', why: [include.why], warnings: [...include.warnings, ...outsideWarning] });
  // A paid script that runs a program of the repository's own, which picks its suites from a list of globs: a lane too.
  layout.lanes.push(...runnerScriptLanes(model, layout.packages, layout.testFiles));
  const paid = inferPaid(model, layout, maps.namedTests);
  items.push(lanesItem(layout, paid.paidLanes), paidItem(paid));
  const ci = ciLanes(scan, paid.paidLanes, new Set(PAID_ENV));
  if (ci) items.push(ci.item);

  const ids = inferIds(model, paid.files, maps.keys, maps.tierWords);
  const config: ConfigInput = { $schema: schemaLocation(root) };
  const selfGate = [...ids.selfGate.env.map((e) => ({ env: e.name })), ...ids.selfGate.shapes.map((s) => ({ call: s.shape.call, arg: s.shape.arg }))];
  // Where the repository keeps its paid globs in a list of its own, tests.paid points at that list.
  const paidList = findPaidList(model, layout.testFiles, paid.files);
  if (paidList) {
    const at = `${paidList.ref.file}${paidList.ref.export === undefined ? '' : ` ${paidList.ref.export}`}${paidList.ref.path === undefined ? '' : ` ${paidList.ref.path}`}`;
    items.push({ key: 'tests.paid', value: at, why: [`${paidList.label} (${paidList.ref.file}) names exactly the ${paid.files.length} paid test ${paid.files.length === 1 ? 'file' : 'files'}: the repository's own list, so that narrowing it is what check sees`], warnings: [] });
  }
  const testsConfig = {
    // No test file found: the schema's default include stays, rather than an empty list that matches nothing.
    ...(include.globs.length > 0 && { include: include.globs }),
    ...(paidList ? { paid: refOf(paidList.ref) } : paid.globs.length > 0 && { paid: paid.globs }),
    ...(ids.ids.length > 0 && { ids: ids.ids.map((s) => s.shape) }),
    ...(selfGate.length > 0 && { selfGate }),
  };
  if (Object.keys(testsConfig).length > 0) config.tests = testsConfig;

  if (maps.touchfiles.length > 0) {
    const mapsConfig: NonNullable<ConfigInput['maps']> = {
      touchfiles: maps.touchfiles.length === 1 && maps.touchfiles[0] ? refOf(maps.touchfiles[0].ref) : maps.touchfiles.map((map) => refOf(map.ref)),
    };
    if (maps.tiers) mapsConfig.tiers = { ...refOf(maps.tiers.ref), values: maps.tiers.values, ...(maps.tiers.covers && { covers: maps.tiers.covers }) };
    if (maps.globals) mapsConfig.globals = { ...refOf(maps.globals.ref), ...(maps.globals.require.length > 0 && { require: maps.globals.require }) };
    if (maps.generated.length > 0) mapsConfig.generated = maps.generated;
    config.maps = mapsConfig;
  }
  const off = rulesWithoutMaps(maps, paid.files.length);
  const rules: NonNullable<ConfigInput['rules']> = Object.fromEntries(off.map((rule) => [rule.id, 'off']));
  if (ci && ci.secrets.length > 0) rules['paid-ci-lanes'] = ['error', { secrets: ci.secrets }];
  if (Object.keys(rules).length > 0) config.rules = rules;
  items.push(...mapItems(maps));
  if (off.length > 0) items.push({ key: 'rules', value: off.map((rule) => `${rule.id}: off`).join(', '), why: off.map((rule) => `${rule.id}: ${rule.why}`), warnings: [] });
  items.push(idsItem(ids.ids, maps.keys.size, paid.files.length), gateItem(ids.selfGate));

  const shipped = inferShipped(scan, include.globs);
  if (shipped.include.length > 0) config.shipped = { include: shipped.include, ...(shipped.exclude.length > 0 && { exclude: shipped.exclude }) };
  items.push({ key: 'shipped.include', value: shipped.include.join(', ') || '(none found)', why: shipped.why.length > 0 ? shipped.why : ['no SKILL.md, no prompt folder, no package.json files in the repository'], warnings: shipped.skipped });

  facts.save();
  // What the written file will hold must load: a config init wrote and check rejects is init's bug, caught here.
  configSchema.parse(config);
  return { config, items: items.filter((item) => item.value !== '') };
}

/**
 * The map rules report a missing map as an error, and rightly so once a
 * harness selects its paid tests from a diff; a repository that has no such
 * map yet gets those rules switched off in the file, visibly, not a wall of
 * "configure it" errors.
 */
function rulesWithoutMaps(maps: Awaited<ReturnType<typeof inferMaps>>, paidFiles: number): { id: RuleId; why: string }[] {
  if (paidFiles === 0) return [];
  const missing = 'add the map and configure it under maps, then remove this line';
  if (maps.touchfiles.length === 0) {
    return [
      { id: 'touchfiles-cover-paid-tests', why: `no touchfile map found (${missing})` },
      { id: 'tiers-cover-paid-tests', why: 'no touchfile map, so no tier map to compare with it' },
      { id: 'global-touchfiles-present', why: 'no touchfile map, so no global touchfile list' },
    ];
  }
  const off: { id: RuleId; why: string }[] = [];
  if (!maps.tiers) off.push({ id: 'tiers-cover-paid-tests', why: `no tier map found (${missing})` });
  if (!maps.globals) off.push({ id: 'global-touchfiles-present', why: `no global touchfile list found (${missing})` });
  return off;
}

function modelFor(scan: RepoScan, input: ConfigInput, cache: FactCache<CachedFacts>): RepoModel {
  return new RepoModel({ root: scan.root, config: configSchema.parse(input), configFile: null, files: scan.files, cache });
}

/** The installed package's schema when there is one (offline, and the version that validates), else the published one. */
function schemaLocation(root: string): string {
  const local = `./node_modules/${PACKAGE_NAME}/schema.json`;
  return existsSync(join(root, local)) ? local : SCHEMA_ID;
}

function refOf(ref: MapRefOut): { file: string; export?: string; path?: string } {
  return { file: ref.file, ...(ref.export !== undefined && { export: ref.export }), ...(ref.path !== undefined && { path: ref.path }) };
}

function runnerItem(layout: WorkspaceLayout): Inferred {
  if (layout.runners.length === 0) {
    return { key: 'test runner', value: 'none recognized', why: ['no vitest, jest, bun:test, node:test or mocha in package.json, config files or test imports'], warnings: [] };
  }
  const where = (dir: string): string => (dir === '' ? '' : ` (${dir}/)`);
  const why = layout.runners.map((r) => `${RUNNER_LABELS[r.runner]}${where(r.dir)}: ${r.evidence.join('; ')}`);
  return {
    key: 'test runner',
    value: [...new Set(layout.runners.map((r) => RUNNER_LABELS[r.runner]))].join(', '),
    why: why.length <= 6 ? why : [...why.slice(0, 5), `and ${why.length - 5} more packages`],
    warnings: [],
  };
}

/**
 * paid-ci-lanes, on by default, has something to check once the repository
 * has workflows: say which, and which of their jobs are the paid lanes that
 * must carry the trust condition (read from the same workflow facts). A paid
 * lane whose only model keys are names the rule does not know (`EVALS_API_KEY`)
 * teaches the rule those names, so that it judges the lane init judged paid
 * and finds the same key in a free job.
 */
function ciLanes(scan: RepoScan, paidLanes: readonly Lane[], known: ReadonlySet<string>): { item: Inferred; secrets: string[] } | null {
  const workflows = scan.files.filter((file) => WORKFLOW_FILE.test(file));
  if (workflows.length === 0) return null;
  const ciPaid = paidLanes.filter((lane) => workflows.some((file) => lane.label.startsWith(`${file}:`)));
  const why = [`checks ${workflows.join(', ')}: the free suite gets no model key, and on pull requests a paid job or step needs a condition on github.event.pull_request.author_association`];
  why.push(ciPaid.length > 0 ? `the paid lanes it will judge: ${ciPaid.map((lane) => `\`${lane.label}\``).join(', ')}` : 'no CI step runs a paid lane init recognized; a job that receives a model key is one');
  // A lane that also receives a key the rule knows is paid by that key: its other `_API_KEY` names (a coverage or search service's) teach nothing.
  const taught = new Map<string, string>();
  for (const lane of ciPaid) {
    const keys = lane.keys ?? [];
    if (keys.some((key) => known.has(key))) continue;
    for (const key of keys) if (!taught.has(key)) taught.set(key, lane.label);
  }
  const secrets = [...taught.keys()].sort(compareText);
  for (const key of secrets) why.push(`secrets: ${key}, the only model key \`${taught.get(key) ?? ''}\` receives, is not a built-in key variable: the rule learns it`);
  const value = `on (${workflows.length} ${workflows.length === 1 ? 'workflow' : 'workflows'})${secrets.length > 0 ? `, secrets: ${secrets.join(', ')}` : ''}`;
  return { item: { key: 'rules.paid-ci-lanes', value, why, warnings: [] }, secrets };
}

/** The lanes that run tests: which are free, which are paid, and why. */
function lanesItem(layout: WorkspaceLayout, paidLanes: readonly Lane[]): Inferred {
  const paidSet = new Set(paidLanes);
  // A lane named only `integration` that no file shows to be paid is reported with the free ones.
  const lanes = layout.lanes.filter((lane) => lane.files.size > 0).map((lane) => (lane.kind === 'paid' && !paidSet.has(lane) ? { ...lane, kind: 'free' as const, why: `${lane.why}, but none of its files reaches a paid call or skips itself` } : lane));
  const warnings = layout.ciErrors.map((error) => `${error.file}: cannot be read (${error.message}); its jobs are not counted`);
  if (lanes.length === 0) return { key: 'lanes', value: '(none found)', why: ['no script or CI step starts a test runner'], warnings };
  const line = (lane: (typeof lanes)[number]): string => `${lane.kind}: \`${lane.label}\`, ${lane.files.size} ${lane.files.size === 1 ? 'file' : 'files'} (${lane.why}${lane.evaluable ? '' : '; what it runs is built at run time'})`;
  const paid = lanes.filter((lane) => lane.kind === 'paid');
  const free = lanes.filter((lane) => lane.kind === 'free');
  const shown = [...paid.slice(0, 6), ...free.slice(0, 6)].map(line);
  const more = lanes.length - shown.length;
  return { key: 'lanes', value: `${free.length} free, ${paid.length} paid`, why: more > 0 ? [...shown, `and ${more} more`] : shown, warnings };
}

function proposeInclude(scan: RepoScan, layout: WorkspaceLayout): { globs: string[]; why: string; warnings: string[] } {
  const tests = layout.testFiles;
  if (tests.length === 0) return { globs: [], why: 'no test file found: the default applies', warnings: ['no test files found; set tests.include by hand'] };
  const scripts = scan.files.filter(isScriptFile);
  const testSet = new Set(tests);
  const roots = rootsOf(tests).map((root) => (root === '.' ? 'the root' : `${root}/`));
  const summary = `${tests.length} test ${tests.length === 1 ? 'file' : 'files'} under ${roots.join(', ')}`;
  const [only] = layout.sets;
  if (layout.sets.length === 1 && only?.include) {
    const included = compileGlobs(only.include);
    const removing = only.exclude.filter((glob) => scripts.some((file) => included(file) && compileGlobs([glob])(file)));
    const own = [...only.include, ...removing.map((glob) => `!${glob}`)];
    const matches = compileGlobs(own);
    const same = scripts.every((file) => matches(file) === testSet.has(file));
    if (same) return { globs: own, why: `${only.source}: ${summary}`, warnings: [] };
  }
  // The repository's own globs (configs' includes, the globs scripts pass), where they name test files only; names for the rest.
  const sources = [...new Set(layout.sets.map((set) => set.source))].join('; ');
  const own = [...new Set([...layout.sets.filter((set) => set.synthesized !== true).flatMap((set) => set.include ?? []), ...layout.lanes.flatMap((lane) => lane.globs)])];
  const union = compileGlobs(own);
  const removing = [...new Set(layout.sets.flatMap((set) => set.exclude))].filter((glob) => scripts.some((file) => union(file) && !testSet.has(file) && compileGlobs([glob])(file)));
  const withExcludes = compileGlobs([...own, ...removing.map((glob) => `!${glob}`)]);
  if (own.length > 0 && scripts.every((file) => withExcludes(file) === testSet.has(file))) {
    return { globs: [...withoutRedundant(own, scripts), ...removing.map((glob) => `!${glob}`)], why: `${sources}: ${summary}`, warnings: [] };
  }
  const clean = own.filter((glob) => {
    const matches = compileGlobs([glob]);
    const matched = scripts.filter((file) => matches(file));
    return matched.length > 0 && matched.every((file) => testSet.has(file));
  });
  const covered = compileGlobs(clean);
  const rest = tests.filter((file) => !covered(file));
  const globs = withoutRedundant([...clean, ...(rest.length > 0 ? coverFiles(rest, scripts.filter((file) => !testSet.has(file))) : [])], scripts);
  return { globs, why: `${sources || 'common test file names'}: ${summary}`, warnings: [] };
}

/** The globs, sorted, without those that name only files the others name too. */
function withoutRedundant(globs: readonly string[], files: readonly string[]): string[] {
  const matched = new Map(globs.map((glob) => [glob, new Set(files.filter(compileGlobs([glob])))]));
  // Broadest first, so that a narrow glob inside a broad one is the one dropped.
  const kept = [...globs].sort((a, b) => (matched.get(b)?.size ?? 0) - (matched.get(a)?.size ?? 0));
  for (const glob of [...kept].reverse()) {
    const others = kept.filter((other) => other !== glob);
    const own = matched.get(glob) ?? new Set<string>();
    if (others.length > 0 && [...own].every((file) => others.some((other) => matched.get(other)?.has(file)))) kept.splice(kept.indexOf(glob), 1);
  }
  return kept.sort();
}

function paidItem(paid: ReturnType<typeof inferPaid>): Inferred {
  const why: string[] = [];
  const byReason = new Map<string, string[]>();
  for (const [file, reason] of paid.why) byReason.set(reason, [...(byReason.get(reason) ?? []), file]);
  for (const [reason, files] of byReason) why.push(`${files.length} ${files.length === 1 ? 'file' : 'files'}: ${reason}`);
  const reachingPaid = [...paid.reaching.keys()].filter((file) => paid.why.has(file));
  if (reachingPaid.length > 0) why.push(`${reachingPaid.length} of them ${reachingPaid.length === 1 ? 'reaches' : 'reach'} a paid call, e.g. ${reachingPaid[0] ?? ''}: ${paid.reaching.get(reachingPaid[0] ?? '') ?? ''}`);
  const shown = paid.leftFree.slice(0, 5);
  const warnings = [
    ...shown.map((free) => `${free.file} stays free: ${free.why}. tripwire check reports it; if it is an eval, add it to tests.paid.`),
    ...(paid.leftFree.length > shown.length ? [`and ${paid.leftFree.length - shown.length} more free test files that \`npm test\` runs and that reach a paid call: tripwire check lists them`] : []),
  ];
  if (paid.files.length === 0) return { key: 'tests.paid', value: '(none)', why: ['nothing marks a test file as paid: no separate free run, touchfile map, or paid-looking directory or name (reaching a paid call does not make a test paid)'], warnings };
  return { key: 'tests.paid', value: paid.globs.join(', '), why, warnings };
}

function mapItems(maps: Awaited<ReturnType<typeof inferMaps>>): Inferred[] {
  if (maps.touchfiles.length === 0) {
    return [{ key: 'maps', value: '(none)', why: ['no exported object of glob lists names a test file'], warnings: capped(maps.skipped, 'more maps whose globs name no test file') }];
  }
  const items: Inferred[] = [
    {
      key: 'maps.touchfiles',
      value: maps.touchfiles.map((map) => `${map.ref.file} ${map.ref.export ?? map.ref.path ?? ''}`.trim()).join(', '),
      why: maps.touchfiles.map((map) => `${map.label}: ${map.keys.length} ids → glob lists${map.files.length > 1 ? `, read through ${map.files.filter((file) => file !== map.ref.file).join(', ')}` : ''}${map.unevaluable > 0 ? `; ${map.unevaluable} entries cannot be evaluated statically (tripwire check reports them)` : ''}`),
      warnings: capped(maps.skipped, 'more maps whose globs name no test file'),
    },
  ];
  if (maps.tiers) {
    const tiers = maps.tiers;
    items.push({
      key: 'maps.tiers',
      value: `${tiers.ref.file} ${tiers.ref.export ?? tiers.ref.path ?? ''}`.trim(),
      why: [`${tiers.label}: ${tiers.keys} ids → ${tiers.values.join(' | ')}; ${tiers.overlap} of its keys are touchfile keys${tiers.covers ? `; it covers ${tiers.covers.join(', ')} only (the other maps share none of its keys)` : ''}`],
      warnings: [],
    });
  }
  if (maps.globals) {
    const globals = maps.globals;
    items.push({
      key: 'maps.globals',
      value: `${globals.ref.file} ${globals.ref.export ?? globals.ref.path ?? ''}`.trim(),
      why: [`${globals.label}: a list of paths${globals.namesMapFile ? ' that names the map file' : ''}${globals.require.length > 0 ? `; require: ${globals.require.join(', ')} (the files it names today, so that dropping one is reported)` : ''}`],
      warnings: globals.namesMapFile ? [] : [`${globals.label} does not name the map file: tripwire check reports it (a change to the map would select nothing)`],
    });
  }
  if (maps.generated.length > 0) items.push({ key: 'maps.generated', value: maps.generated.join(', '), why: ['touchfile globs that match no file but that git ignores: built before the tests run'], warnings: [] });
  return items;
}

function capped(lines: readonly string[], more: string): string[] {
  return lines.length <= 5 ? [...lines] : [...lines.slice(0, 5), `and ${lines.length - 5} ${more}`];
}

function describeShape(stats: ShapeStats): string {
  const { call, arg, property } = stats.shape;
  return `${call}(${arg === 0 ? '' : `${'_, '.repeat(arg)}`}${property === undefined ? 'id' : `{ ${property}: id }`})`;
}

function idsItem(ids: readonly ShapeStats[], keys: number, paidFiles: number): Inferred {
  if (keys === 0) return { key: 'tests.ids', value: '', why: [], warnings: [] };
  if (ids.length === 0) {
    return { key: 'tests.ids', value: '(none)', why: [`no call in the ${paidFiles} paid files passes a touchfile key as a literal`], warnings: ['set tests.ids by hand: tripwire check reports each paid file without an id'] };
  }
  return {
    key: 'tests.ids',
    value: ids.map(describeShape).join(', '),
    why: ids.map((s) => `${describeShape(s)}: ${s.hits} of its ${s.literals} literal ${s.literals === 1 ? 'value is a' : 'values are'} touchfile ${s.hits === 1 ? 'key' : 'keys'}, in ${s.files.size} paid ${s.files.size === 1 ? 'file' : 'files'}`),
    warnings: [],
  };
}

function gateItem(selfGate: ReturnType<typeof inferIds>['selfGate']): Inferred {
  const parts = [...selfGate.env.map((e) => `env ${e.name}`), ...selfGate.shapes.map((s) => `${s.shape.call}(${'_, '.repeat(s.shape.arg)}tier)`)];
  if (parts.length === 0) return { key: 'tests.selfGate', value: '', why: [], warnings: [] };
  return {
    key: 'tests.selfGate',
    value: parts.join(', '),
    why: [
      ...selfGate.env.map((e) => `process.env.${e.name} is compared with a tier word in ${e.files.size} paid ${e.files.size === 1 ? 'file' : 'files'}`),
      ...selfGate.shapes.map((s) => `${s.shape.call}() is called with a tier word in ${s.files.size} paid ${s.files.size === 1 ? 'file' : 'files'}`),
    ],
    warnings: [],
  };
}
