import { isScriptFile } from '../util/file-kinds.js';
import { compileGlobs } from '../util/glob.js';
import { inFixture } from './globs.js';
import { configLiterals, dataLiterals, stringsOf, type Literal } from './config-literals.js';
import type { RepoScan } from './scan.js';
import { runnerInvocations, type RunnerInvocation, type RunnerName } from './scripts.js';
import { readVitestConfig, vitestModes, type VitestSelection } from './vitest-config.js';

export const RUNNER_LABELS: Record<RunnerName, string> = { vitest: 'vitest', jest: 'jest', bun: 'bun:test', node: 'node:test', mocha: 'mocha' };

const RUNNER_ORDER: readonly RunnerName[] = ['vitest', 'jest', 'bun', 'node', 'mocha'];

const SCRIPT_EXTENSIONS = '{js,jsx,ts,tsx,mjs,cjs,mts,cts}';
const VITEST_INCLUDE = ['**/*.{test,spec}.?(c|m)[jt]s?(x)'];
const VITEST_EXCLUDE = ['**/node_modules/**', '**/.git/**'];
const VITEST_TYPECHECK = ['**/*.{test,spec}-d.?(c|m)[jt]s?(x)'];
const JEST_MATCH = ['**/__tests__/**/*.?([mc])[jt]s?(x)', '**/?(*.)+(spec|test).?([mc])[jt]s?(x)'];
const BUN_MATCH = [`**/*{.test,_test,.spec,_spec}.${SCRIPT_EXTENSIONS}`];
const NODE_MATCH = [`**/*{.test,-test,_test}.${SCRIPT_EXTENSIONS}`, `**/test-*.${SCRIPT_EXTENSIONS}`, `**/test.${SCRIPT_EXTENSIONS}`];
const MOCHA_EXTENSIONS = ['js', 'cjs', 'mjs'];


/** The test files one runner picks up under one configuration. */
export interface RunnerSet {
  runner: RunnerName;
  /** The config file the set comes from; null for the runner's defaults. */
  config: string | null;
  files: string[];
  /** The user's own include globs (config file or script), when they are plain globs; null for defaults. */
  include: string[] | null;
  exclude: string[];
  /** Where the file set comes from, for the report. */
  source: string;
  /** The include globs were built from a directory argument and the runner's naming patterns, not written by the repository. */
  synthesized?: boolean;
  /** The `--mode` this set is for (vitest configs that branch on it); null for the default mode. */
  mode?: string | null;
  /** False when the configuration builds its file set at run time (vitest `projects` from a call): `files` is then the runner's default guess. */
  evaluable?: boolean;
}

export interface RunnerEvidence {
  runner: RunnerName;
  evidence: string[];
}

export interface TestLayout {
  runners: RunnerEvidence[];
  /** Every package's sets, with repository-relative paths. */
  sets: RunnerSet[];
  /** Every test file any detected runner picks up. */
  testFiles: string[];
  /** Files named like tests that import a runner's module (`vitest`, `bun:test`, …), picked up or not. */
  importers: string[];
}

/** The module specifiers a file imports (from its facts), for runner evidence. */
export type ImportsOf = (file: string) => readonly string[];

/** The test files of one package (its own scan: paths relative to its directory). */
export function detectTests(scan: RepoScan, importsOf: ImportsOf, evidenceFiles?: (file: string) => boolean): TestLayout {
  const scripts = scan.scripts;
  const invocations = Object.keys(scripts).flatMap((name) => runnerInvocations(scripts, name, new Set()));
  const imports = importEvidence(scan, importsOf, evidenceFiles);
  const runners: RunnerEvidence[] = [];
  const sets: RunnerSet[] = [];
  for (const runner of RUNNER_ORDER) {
    const evidence = runnerEvidence(scan, runner, invocations, imports.counts.get(runner) ?? 0);
    if (evidence.length === 0) continue;
    runners.push({ runner, evidence });
    const own = runnerSets(scan, runner, invocations.filter((invocation) => invocation.runner === runner));
    // Detected only by what test files import: its default patterns name the files that import it, not every file they could match.
    const byImportOnly = evidence.length === 1 && (imports.counts.get(runner) ?? 0) > 0 && (runner === 'node' || runner === 'bun');
    sets.push(...(byImportOnly ? own.map((set) => ({ ...set, files: set.files.filter((file) => imports.importers.get(file)?.has(runner) === true) })) : own));
  }
  const testFiles = [...new Set(sets.flatMap((set) => set.files))].sort();
  return { runners, sets, testFiles, importers: [...imports.importers.keys()] };
}

/** The sets of one runner in one package, for a run that starts a runner the package shows no other sign of. */
export function setsOf(scan: RepoScan, runner: RunnerName): RunnerSet[] {
  const scripts = scan.scripts;
  const invocations = Object.keys(scripts).flatMap((name) => runnerInvocations(scripts, name, new Set())).filter((invocation) => invocation.runner === runner);
  return runnerSets(scan, runner, invocations);
}

/** A set of a package, seen from the repository root. */
export function prefixSet(set: RunnerSet, dir: string): RunnerSet {
  if (dir === '') return set;
  const add = (path: string): string => `${dir}/${path}`;
  return { ...set, config: set.config === null ? null : add(set.config), files: set.files.map(add), include: set.include?.map(add) ?? null, exclude: set.exclude.map(add), source: set.config === null ? `${set.source} in ${dir}/` : set.source.replace(set.config, add(set.config)) };
}

// ---- evidence

function importEvidence(scan: RepoScan, importsOf: ImportsOf, evidenceFiles?: (file: string) => boolean): { counts: Map<RunnerName, number>; importers: Map<string, Set<RunnerName>> } {
  const counts = new Map<RunnerName, number>();
  const importers = new Map<string, Set<RunnerName>>();
  const candidate = compileGlobs([...VITEST_INCLUDE, ...JEST_MATCH, ...BUN_MATCH, ...NODE_MATCH]);
  const runnerOf = new Map<string, RunnerName>([['vitest', 'vitest'], ['@jest/globals', 'jest'], ['bun:test', 'bun'], ['node:test', 'node'], ['mocha', 'mocha']]);
  for (const file of scan.files) {
    if (!isScriptFile(file) || !candidate(file) || inFixture(file)) continue;
    const seen = new Set<RunnerName>();
    for (const specifier of importsOf(file)) {
      const runner = runnerOf.get(specifier);
      if (runner !== undefined) seen.add(runner);
    }
    if (seen.size > 0) importers.set(file, seen);
    if (evidenceFiles !== undefined && !evidenceFiles(file)) continue;
    for (const runner of seen) counts.set(runner, (counts.get(runner) ?? 0) + 1);
  }
  return { counts, importers };
}

function runnerEvidence(scan: RepoScan, runner: RunnerName, invocations: readonly RunnerInvocation[], importers: number): string[] {
  const evidence: string[] = [];
  const dependency = { vitest: 'vitest', jest: 'jest', mocha: 'mocha', bun: null, node: null }[runner];
  if (dependency !== null && scan.dependencies.has(dependency)) evidence.push(`package.json depends on ${dependency}`);
  const configs = configFiles(scan, runner);
  if (configs.length > 0) evidence.push(configs.join(', '));
  if (runner === 'jest' && scan.packageJson?.jest !== undefined) evidence.push('package.json "jest"');
  if (runner === 'mocha' && scan.packageJson?.mocha !== undefined) evidence.push('package.json "mocha"');
  const scripts = [...new Set(invocations.filter((invocation) => invocation.runner === runner).map((invocation) => invocation.script))];
  if (scripts.length > 0) evidence.push(`${scripts.length === 1 ? 'script' : 'scripts'} ${scripts.map((script) => `\`${script}\``).join(', ')}`);
  if (importers > 0) evidence.push(`${importers} test ${importers === 1 ? 'file imports' : 'files import'} '${{ vitest: 'vitest', jest: '@jest/globals', bun: 'bun:test', node: 'node:test', mocha: 'mocha' }[runner]}'`);
  return evidence;
}

function configFiles(scan: RepoScan, runner: RunnerName, dir = ''): string[] {
  const pattern = {
    vitest: /^vite(?:st)?(?:\.[\w-]+)*\.config\.[cm]?[jt]s$/,
    jest: /^jest(?:\.[\w-]+)*\.config\.(?:[cm]?[jt]s|json)$/,
    mocha: /^\.mocharc\.(?:[cm]?js|jsonc?|ya?ml)$/,
    bun: /^bunfig\.toml$/,
    node: null,
  }[runner];
  if (pattern === null) return [];
  const prefix = dir === '' ? '' : `${dir}/`;
  return scan.files.filter((file) => {
    if (!file.startsWith(prefix) || !pattern.test(file.slice(prefix.length))) return false;
    if (runner === 'bun') return /^\s*\[test\]/m.test(scan.text(file) ?? '');
    // A vite config configures tests only when it has a `test` block.
    if (file.slice(prefix.length).startsWith('vite.')) return /\btest\s*:/.test(scan.text(file) ?? '');
    return true;
  });
}

// ---- file sets per runner

function runnerSets(scan: RepoScan, runner: RunnerName, invocations: readonly RunnerInvocation[]): RunnerSet[] {
  switch (runner) {
    case 'vitest':
      return vitestSets(scan);
    case 'jest':
      return jestSets(scan);
    case 'bun':
      return [bunSet(scan)];
    case 'node':
      return [nodeSet(scan, invocations)];
    case 'mocha':
      return mochaSets(scan, invocations);
  }
}

function scriptFiles(scan: RepoScan, include: readonly string[], exclude: readonly string[]): string[] {
  const included = compileGlobs([...include]);
  const excluded = compileGlobs(['**/node_modules/**', ...exclude]);
  return scan.files.filter((file) => isScriptFile(file) && included(file) && !excluded(file));
}

function vitestSets(scan: RepoScan): RunnerSet[] {
  const sets: RunnerSet[] = [];
  // vitest.config.* wins over vite.config.*, as in vitest itself.
  const configs = configFiles(scan, 'vitest').sort((a, b) => Number(a.startsWith('vite.')) - Number(b.startsWith('vite.')));
  for (const config of configs) {
    const text = scan.text(config) ?? '';
    // One set per mode the config branches on (`--mode int`), and the default mode's.
    for (const mode of [null, ...vitestModes(config, text)]) {
      const selection = readVitestConfig(config, text, mode);
      sets.push(...selectionSets(scan, config, mode, selection, ''));
    }
  }
  if (sets.length === 0) sets.push({ runner: 'vitest', config: null, files: scriptFiles(scan, VITEST_INCLUDE, VITEST_EXCLUDE), include: null, exclude: [], source: "vitest's default pattern" });
  // Type tests (`expectTypeOf` in `*.test-d.ts`): vitest's typecheck mode runs them; they are tests wherever vitest is the runner.
  const typeTests = scriptFiles(scan, VITEST_TYPECHECK, VITEST_EXCLUDE).filter((file) => !inFixture(file));
  if (typeTests.length > 0) sets.push({ runner: 'vitest', config: null, files: typeTests, include: null, exclude: [], source: "vitest's type tests (typecheck's default pattern)" });
  return sets;
}

/** The sets of one read vitest selection: its own, or its projects' (inline, or config files and folders it names). */
function selectionSets(scan: RepoScan, config: string, mode: string | null, selection: VitestSelection, base: string): RunnerSet[] {
  const label = `${config}${mode === null ? '' : ` (--mode ${mode})`}`;
  if (selection.projects !== 'none' && selection.projects !== 'dynamic') {
    const out = selection.inlineProjects.flatMap((project) => selectionSets(scan, config, mode, project, project.dir === null ? base : ''));
    for (const entry of selection.projects) {
      const path = entry.replace(/^\.\//, '').replace(/\/$/, '');
      const configsOf = scan.isDirectory(path) ? configFiles(scan, 'vitest', path) : scan.fileSet.has(path) ? [path] : [];
      for (const projectConfig of configsOf) {
        const dir = projectConfig.includes('/') ? projectConfig.slice(0, projectConfig.lastIndexOf('/')) : '';
        out.push(...selectionSets(scan, projectConfig, mode, readVitestConfig(projectConfig, scan.text(projectConfig) ?? '', mode), dir));
      }
    }
    if (out.length > 0) return out;
  }
  const root = [base, selection.dir?.replace(/^\.\//, '').replace(/\/$/, '') ?? ''].filter((part) => part !== '' && part !== '.').join('/');
  const scoped = (globs: readonly string[]): string[] => globs.map((glob) => (root === '' ? glob.replace(/^\.\//, '') : `${root}/${glob.replace(/^\.\//, '')}`));
  const includeGlobs = scoped(selection.include ?? VITEST_INCLUDE);
  const own = scoped(selection.exclude ?? []);
  const excludeGlobs = selection.excludeDefaults ? [...VITEST_EXCLUDE, ...own] : own;
  return [
    {
      runner: 'vitest',
      config,
      mode,
      files: scriptFiles(scan, includeGlobs, excludeGlobs),
      include: selection.include === null ? null : includeGlobs,
      exclude: own,
      source: selection.include === null ? `vitest's default pattern${own.length === 0 ? '' : `, minus ${label} test.exclude`}` : `${label} test.include${own.length === 0 ? '' : ' and test.exclude'}`,
      evaluable: selection.evaluable && selection.projects !== 'dynamic',
    },
  ];
}

function jestSets(scan: RepoScan): RunnerSet[] {
  const keys = ['testMatch', 'testRegex', 'roots', 'testPathIgnorePatterns'];
  const sources: { config: string | null; literals: Map<string, Literal>; label: string }[] = configFiles(scan, 'jest').map((config) => ({
    config,
    literals: configLiterals(config, scan.text(config) ?? '', keys),
    label: config,
  }));
  if (scan.packageJson?.jest !== undefined) sources.push({ config: 'package.json', literals: dataLiterals(scan.packageJson, keys, 'jest'), label: 'package.json "jest"' });
  if (sources.length === 0) sources.push({ config: null, literals: new Map(), label: "jest's default testMatch" });
  return sources.map(({ config, literals, label }) => {
    const rootDir = (path: string): string => path.replace(/^<rootDir>\/?/, '').replace(/^\.\//, '').replace(/\/$/, '');
    const roots = (stringsOf(literals.get('roots')) ?? ['<rootDir>']).map(rootDir);
    const testMatch = stringsOf(literals.get('testMatch'));
    const testRegex = regexes(stringsOf(literals.get('testRegex')) ?? []);
    const ignore = regexes(stringsOf(literals.get('testPathIgnorePatterns')) ?? ['/node_modules/']);
    const globs = (testMatch ?? (testRegex.length > 0 ? [] : JEST_MATCH)).map(rootDir);
    const matches = compileGlobs(globs);
    const underRoot = (file: string): boolean => roots.some((root) => root === '' || file.startsWith(`${root}/`));
    const files = scan.files.filter((file) => {
      if (!isScriptFile(file) || !underRoot(file) || file.includes('node_modules/')) return false;
      const absolute = `/${file}`;
      if (ignore.some((regex) => regex.test(absolute))) return false;
      return testMatch !== null || testRegex.length === 0 ? matches(file) : testRegex.some((regex) => regex.test(absolute));
    });
    const plain = testMatch !== null && roots.every((root) => root === '') && ignore.length <= 1;
    return { runner: 'jest', config, files, include: plain ? globs : null, exclude: [], source: testMatch === null && testRegex.length === 0 ? `jest's default testMatch${config === null ? '' : ` (${label} sets no testMatch)`}` : `${label} ${testMatch !== null ? 'testMatch' : 'testRegex'}` } satisfies RunnerSet;
  });
}

function regexes(sources: readonly string[]): RegExp[] {
  const out: RegExp[] = [];
  for (const source of sources) {
    try {
      out.push(new RegExp(source.replace(/<rootDir>/g, '')));
    } catch {
      // An invalid pattern matches nothing in jest either (it throws at startup).
    }
  }
  return out;
}

function bunSet(scan: RepoScan): RunnerSet {
  const bunfig = configFiles(scan, 'bun')[0];
  const root = bunfig === undefined ? undefined : /^\s*root\s*=\s*["']([^"']+)["']/m.exec(scan.text(bunfig) ?? '')?.[1]?.replace(/^\.\//, '').replace(/\/$/, '');
  const globs = root === undefined || root === '' || root === '.' ? BUN_MATCH : BUN_MATCH.map((glob) => `${root}/${glob}`);
  return { runner: 'bun', config: bunfig ?? null, files: scriptFiles(scan, globs, []).filter((file) => !inFixture(file)), include: null, exclude: [], source: root === undefined ? "bun test's default pattern" : `bun test's default pattern under ${bunfig ?? ''} root` };
}

/** Node's runner takes globs (or directories, searched with its naming patterns); none means its naming patterns everywhere. */
function nodeSet(scan: RepoScan, invocations: readonly RunnerInvocation[]): RunnerSet {
  const globs = invocations.flatMap((invocation) => invocation.positionals).flatMap((arg) => specGlobs(scan, arg, NODE_MATCH.map((glob) => glob.replace(/^\*\*\//, '')), true));
  const include = globs.length > 0 ? globs : NODE_MATCH;
  const fromDirectory = invocations.some((invocation) => invocation.positionals.some((arg) => scan.isDirectory(arg.replace(/^\.\//, '').replace(/\/$/, '')) || arg === '.'));
  return { runner: 'node', config: null, synthesized: fromDirectory, files: scriptFiles(scan, include, []).filter((file) => globs.length > 0 || !inFixture(file)), include: globs.length > 0 ? globs : null, exclude: [], source: globs.length > 0 ? `the arguments of \`node --test\` in ${[...new Set(invocations.map((i) => `\`${i.script}\``))].join(', ')}` : "node --test's default patterns" };
}

function mochaSets(scan: RepoScan, invocations: readonly RunnerInvocation[]): RunnerSet[] {
  const rc = configFiles(scan, 'mocha')[0];
  const keys = ['spec', 'extension', 'recursive', 'ignore', 'exclude'];
  const literals = rc !== undefined ? configLiterals(rc, scan.text(rc) ?? '', keys) : scan.packageJson?.mocha !== undefined ? dataLiterals(scan.packageJson, keys, 'mocha') : new Map<string, Literal>();
  const label = rc ?? (scan.packageJson?.mocha !== undefined ? 'package.json "mocha"' : null);
  const fromRc = { spec: stringsOf(literals.get('spec')), extension: stringsOf(literals.get('extension')), recursive: literals.get('recursive'), ignore: [...(stringsOf(literals.get('ignore')) ?? []), ...(stringsOf(literals.get('exclude')) ?? [])] };
  const build = (invocation: RunnerInvocation | null): RunnerSet => {
    const extensions = [...MOCHA_EXTENSIONS, ...(fromRc.extension ?? []), ...(invocation?.options.get('extension') ?? [])].map((ext) => ext.replace(/^\./, ''));
    const recursive = invocation?.flags.has('recursive') === true || (fromRc.recursive?.kind === 'bool' && fromRc.recursive.value);
    const specs = invocation !== null && invocation.positionals.length > 0 ? invocation.positionals : (invocation?.options.get('spec') ?? fromRc.spec ?? ['./test']);
    const names = [`*.{${[...new Set(extensions)].join(',')}}`];
    const include = specs.flatMap((spec) => specGlobs(scan, spec, names, recursive));
    const exclude = [...fromRc.ignore, ...(invocation?.options.get('ignore') ?? []), ...(invocation?.options.get('exclude') ?? [])].map((glob) => glob.replace(/^\.\//, ''));
    const where = invocation !== null ? `\`${invocation.script}\`` : (label ?? "mocha's default spec (./test)");
    const synthesized = specs.some((spec) => spec === '.' || scan.isDirectory(spec.replace(/^\.\//, '').replace(/\/$/, '')));
    return { runner: 'mocha', config: label, synthesized, files: scriptFiles(scan, include, exclude), include, exclude, source: `the mocha spec of ${where}` };
  };
  const sets = invocations.map(build);
  return sets.length > 0 ? sets : [build(null)];
}

/** A spec argument as globs: a glob stays, a directory becomes `dir/<name>` (recursive or not), a file stays. */
function specGlobs(scan: RepoScan, spec: string, names: readonly string[], recursive: boolean): string[] {
  const clean = spec.replace(/^\.\//, '').replace(/\/$/, '');
  if (clean === '' || clean === '.') return names.map((name) => (recursive ? `**/${name}` : name));
  if (scan.isDirectory(clean)) return names.map((name) => (recursive ? `${clean}/**/${name}` : `${clean}/${name}`));
  return [clean];
}

// ---- what one script runs

/** The set an invocation starts from: its `--config` (else the first config's), in its `--mode` (else the default mode's). */
export function baseSetOf(sets: readonly RunnerSet[], invocation: RunnerInvocation): RunnerSet | undefined {
  const ofRunner = sets.filter((set) => set.runner === invocation.runner);
  const configOption = (invocation.options.get('config') ?? invocation.options.get('c') ?? [])[0]?.replace(/^\.\//, '');
  const mode = (invocation.options.get('mode') ?? [])[0] ?? null;
  const matching = ofRunner.filter((set) => (configOption === undefined ? set.config === ofRunner[0]?.config : set.config === configOption));
  return matching.find((set) => (set.mode ?? null) === mode) ?? matching.find((set) => (set.mode ?? null) === null) ?? ofRunner[0];
}

/** The files a runner invocation runs: its configuration's set narrowed by the script's filters and excludes. */
export function runFiles(scan: RepoScan, sets: readonly RunnerSet[], invocation: RunnerInvocation): string[] {
  const { runner, positionals, options } = invocation;
  const base = baseSetOf(sets, invocation);
  if (base === undefined) return [];
  if (runner === 'mocha' || runner === 'node') {
    // Their positionals are the file set itself, already read into the set of that invocation.
    const own = runner === 'mocha' ? mochaSets(scan, [invocation])[0] : nodeSet(scan, [invocation]);
    return own?.files ?? [];
  }
  let files = base.files;
  const dir = options.get('dir')?.[0]?.replace(/^\.\//, '').replace(/\/$/, '');
  if (dir !== undefined) files = files.filter((file) => file.startsWith(`${dir}/`));
  if (runner === 'jest') {
    const patterns = regexes([...positionals, ...(options.get('testPathPattern') ?? []), ...(options.get('testPathPatterns') ?? [])]);
    if (patterns.length > 0) files = files.filter((file) => patterns.some((regex) => regex.test(`/${file}`)));
    const ignore = regexes(options.get('testPathIgnorePatterns') ?? []);
    if (ignore.length > 0) files = files.filter((file) => !ignore.some((regex) => regex.test(`/${file}`)));
    return files;
  }
  // vitest and bun: a positional is a filter, matched as a substring of the path.
  // A shell glob (`src/e2e/*.test.ts`) reaches the runner expanded: it names files, not a substring.
  const filters = positionals.map((filter) => filter.replace(/^\.\//, '')).map((filter) => (/[*?[{]/.test(filter) ? compileGlobs([filter]) : (file: string) => file.includes(filter)));
  if (filters.length > 0) files = files.filter((file) => filters.some((filter) => filter(file)));
  const exclude = [...(options.get('exclude') ?? []), ...(options.get('path-ignore-patterns') ?? [])].map((glob) => glob.replace(/^\.\//, ''));
  if (exclude.length > 0) {
    const excluded = compileGlobs(exclude);
    files = files.filter((file) => !excluded(file));
  }
  return files;
}
