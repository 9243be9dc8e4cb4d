import { PAID_ENV, PAID_SUITE_WORD, WEAK_PAID_SUITE_WORD } from '../vocab/paid.js';
import { basename, splitShell } from '../facts/shell.js';
import { isScriptFile } from '../util/file-kinds.js';
import { compileGlobs } from '../util/glob.js';
import { readWorkflows } from './ci.js';
import { runsOfScript, runsOfText, workspaceOf, type Run, type Workspace } from './lanes.js';
import { baseSetOf, detectTests, prefixSet, runFiles, setsOf, type ImportsOf, type RunnerEvidence, type RunnerSet } from './runners.js';
import type { RepoScan } from './scan.js';
import type { RunnerName } from './scripts.js';
import { packageDirs, workspacePackages, type Package } from './workspace.js';


export function paidWords(script: string): { strong: boolean; weak: boolean } {
  const words = script.split(/[:_.-]/);
  return { strong: words.some((word) => PAID_SUITE_WORD.test(word)), weak: words.some((word) => WEAK_PAID_SUITE_WORD.test(word)) };
}

/** `x.test.ts`, `x_spec.mjs`: a test by its name, not a helper (`test-utils.ts`). */
const TEST_NAME = /[._-](?:test|spec)\.[cm]?[jt]sx?$/;

/** A way the repository runs tests: a script (with what it delegates to) or a CI step, free or paid. */
export interface Lane {
  kind: 'free' | 'paid';
  /** `npm run test:e2e`, `packages/a: npm run test`, `.github/workflows/ci.yml job unit: pnpm test`. */
  label: string;
  /** Why the lane is free or paid: the script name or the secrets it receives. */
  why: string;
  files: ReadonlySet<string>;
  /** The include globs of the runner configuration it runs, when the run narrows them no further. */
  globs: readonly string[];
  /** False when what it runs cannot be read exactly (a dynamic config, an unknown word): it then proves nothing free. */
  evaluable: boolean;
  /** Paid by a name that integration suites share with keyless ones (`test:integration`): paid only if a file of it reaches a paid call or skips itself. */
  weak: boolean;
  /** The directory of the package it runs in ('' for the root). */
  dir: string;
  /** The suite a paid name gives it: the script name, or `integration` for every `int`/`integration` lane of the workspace's packages. */
  named?: string;
  /** A CI step's lane: the model keys the step receives (a built-in key variable, or a name ending in `_API_KEY`), sorted. */
  keys?: readonly string[];
}

export interface WorkspaceLayout {
  packages: readonly Package[];
  runners: (RunnerEvidence & { dir: string })[];
  sets: RunnerSet[];
  /** Every test file: what runners, lanes and (added by `init`) the touchfile maps name. */
  testFiles: string[];
  lanes: Lane[];
  /** A runner configuration excludes the file from its tests (`exclude: ['evals/samples/**']`). */
  excluded: (file: string) => boolean;
  /** Workflow files that could not be read. */
  ciErrors: { file: string; message: string }[];
}

/** The test files of every package and the lanes that run them, read from scripts, runner configs and CI workflows. */
export function detectWorkspace(scan: RepoScan, importsOf: ImportsOf, extraPaidEnv: readonly string[] = []): WorkspaceLayout {
  const packages = workspacePackages(scan);
  const ws = workspaceOf(packages);
  const memberDirs = packages.slice(1).map((pkg) => `${pkg.dir}/`);
  const outsideMembers = (file: string): boolean => !memberDirs.some((dir) => file.startsWith(dir));
  const setsByDir = new Map<string, RunnerSet[]>();
  const runners: WorkspaceLayout['runners'] = [];
  const importers = new Set<string>();
  for (const pkg of packages) {
    const prefix = pkg.dir === '' ? '' : `${pkg.dir}/`;
    // The root's runners are evidenced by its own files, not by the members' imports.
    const layout = detectTests(pkg.scan, (file) => importsOf(`${prefix}${file}`), pkg.dir === '' && memberDirs.length > 0 ? outsideMembers : undefined);
    setsByDir.set(pkg.dir, layout.sets);
    for (const file of layout.importers) if (TEST_NAME.test(file)) importers.add(`${prefix}${file}`);
    runners.push(...layout.runners.map((runner) => ({ ...runner, dir: pkg.dir })));
  }
  const setsFor = (pkg: Package, runner: RunnerName): RunnerSet[] => {
    let sets = setsByDir.get(pkg.dir);
    if (sets === undefined) setsByDir.set(pkg.dir, (sets = []));
    if (!sets.some((set) => set.runner === runner)) sets.push(...setsOf(pkg.scan, runner));
    return sets;
  };

  // The root's scripts are the repository's own ways to run tests; a member's script counts on its own only when it is named as a paid
  // suite (`packages/x: test:e2e`): a member's other scripts are free lanes only when the root or CI reaches them.
  const lanes: Lane[] = [];
  // Packages that are not workspace members (a template, a fixture project the suite drives) count for their paid-named scripts too.
  const nested = packageDirs(scan).filter((dir) => !packages.some((pkg) => pkg.dir === dir)).map((dir) => ws.at(dir)).filter((pkg): pkg is Package => pkg !== null);
  for (const pkg of [...packages, ...nested]) {
    for (const script of Object.keys(pkg.scan.scripts)) {
      const own = paidWords(script);
      if (pkg.dir !== '' && !own.strong && !own.weak) continue;
      for (const run of runsOfScript(ws, pkg, script)) {
        const names = run.scripts.map((key) => key.slice(key.indexOf(':') + 1));
        const strong = names.find((name) => paidWords(name).strong);
        const named = strong ?? names.find((name) => paidWords(name).weak);
        const lane = laneOf(run, setsFor, named === undefined ? 'free' : 'paid', `${pkg.dir === '' ? '' : `${pkg.dir}: `}npm run ${script}`, named === undefined ? 'a script not named as a paid suite' : `\`${named}\` is named as a paid suite`);
        // The suite an integration lane belongs to, shared by the workspace's packages (`test:int` and `test:integration` alike); a package
        // outside the workspace (a template, an environment project) is a suite of its own.
        const family = strong === undefined && named !== undefined ? (nested.includes(pkg) ? `${pkg.dir}:integration` : 'integration') : named;
        lanes.push({ ...lane, weak: named !== undefined && strong === undefined, ...(family !== undefined && { named: family }) });
      }
    }
  }
  const workflows = readWorkflows(scan.files, scan.text);
  const paidEnv = new Set([...PAID_ENV, ...extraPaidEnv]);
  for (const step of workflows.steps) {
    const pkg = ws.at(step.cwd ?? '') ?? ws.root;
    const secrets = step.secrets.filter((name) => paidEnv.has(name) || /_API_KEY$/.test(name));
    const label = `${step.workflow}:${step.line} job ${step.jobName ?? step.job}`;
    for (const run of runsOfText(ws, pkg, step.run)) {
      // A keyed step that runs the free scripts (`pnpm test`) runs the free suite with a key: a lane for the CI rule to judge, not a paid suite.
      const scripts = run.scripts.map((key) => key.slice(key.indexOf(':') + 1));
      const freeSuite = scripts.length > 0 && !scripts.some((name) => paidWords(name).strong || paidWords(name).weak);
      // A keyless step proves a suite free only when it runs on every change; one started by hand or on a schedule may get its keys elsewhere.
      if (secrets.length === 0 && !step.routine) continue;
      const why = secrets.length === 0 ? 'it receives no API key' : freeSuite ? `it runs the free scripts, though it receives ${secrets.join(', ')}` : `it receives ${secrets.join(', ')}`;
      lanes.push({ ...laneOf(run, setsFor, secrets.length > 0 && !freeSuite ? 'paid' : 'free', label, why), keys: secrets });
    }
  }

  const sets = [...packages.flatMap((pkg) => (setsByDir.get(pkg.dir) ?? []).map((set) => prefixSet(set, pkg.dir))), ...typeCheckSets(scan, ws)];
  const laneFiles = lanes.flatMap((lane) => [...lane.files]);
  // A file named like a test that imports a runner is a test even where no configuration picks it up, unless one excludes it.
  const excluded = compileGlobs(sets.flatMap((set) => set.exclude));
  const orphans = [...importers].filter((file) => !excluded(file));
  const testFiles = [...new Set([...sets.flatMap((set) => set.files), ...laneFiles, ...orphans])].sort();
  return { packages, runners, sets, testFiles, lanes, excluded, ciErrors: workflows.errors };
}

function laneOf(run: Run, setsFor: (pkg: Package, runner: RunnerName) => RunnerSet[], kind: Lane['kind'], label: string, why: string): Lane {
  const { pkg, invocation } = run;
  const sets = setsFor(pkg, invocation.runner);
  const prefix = pkg.dir === '' ? '' : `${pkg.dir}/`;
  const files = new Set(runFiles(pkg.scan, sets, invocation).map((file) => `${prefix}${file}`));
  // bun runs the paths it is given (a shell glob expands to them) even when its naming pattern would not pick them.
  if (invocation.runner === 'bun') for (const file of explicitPaths(pkg.scan, invocation.positionals)) files.add(`${prefix}${file}`);
  const base = baseSetOf(sets, invocation);
  const narrowed = invocation.positionals.length > 0 || invocation.options.has('dir') || invocation.options.has('exclude');
  // The run's own words when they are globs (`vitest run src/e2e/*.test.ts`), else its configuration's include.
  const own = invocation.positionals.length > 0 && invocation.positionals.every((arg) => /[*?[{]/.test(arg)) ? invocation.positionals : null;
  const chosen = own ?? (base?.include && !narrowed && base.synthesized !== true ? base.include : []);
  const globs = chosen.map((glob) => `${prefix}${glob.replace(/^\.\//, '')}`);
  return { kind, label, why, files, globs, evaluable: !run.unknown && base?.evaluable !== false, weak: false, dir: pkg.dir };
}

/**
 * A package whose `test` script only type-checks (`tsc --noEmit`) tests by
 * compiling: its TypeScript sources are its tests (a consumer project that
 * checks a library's exported types).
 */
function typeCheckSets(scan: RepoScan, ws: Workspace): RunnerSet[] {
  const out: RunnerSet[] = [];
  for (const dir of packageDirs(scan)) {
    const pkg = ws.at(dir);
    const test = pkg?.scan.scripts.test;
    if (pkg === null || pkg === undefined || test === undefined) continue;
    const commands = splitShell(test).map((argv) => argv.map((word) => word ?? ''));
    if (commands.length === 0 || !commands.every((argv) => basename(argv[0] ?? '') === 'tsc' && argv.includes('--noEmit'))) continue;
    const files = pkg.scan.files.filter((file) => /\.[cm]?tsx?$/.test(file) && !file.endsWith('.d.ts') && !file.includes('node_modules/') && !/(?:^|\/)[\w.-]+\.config\.[cm]?ts$/.test(file));
    if (files.length > 0) out.push({ runner: 'node', config: null, files: files.map((file) => `${dir}/${file}`), include: null, exclude: [], source: `the \`test\` script of ${dir}/package.json type-checks them (tsc --noEmit)` });
  }
  return out;
}

function explicitPaths(scan: RepoScan, positionals: readonly string[]): string[] {
  const out: string[] = [];
  for (const positional of positionals) {
    const clean = positional.replace(/^\.\//, '');
    if (clean === '') continue;
    if (scan.fileSet.has(clean)) out.push(clean);
    else if (/[*?[{]/.test(clean)) {
      const matches = compileGlobs([clean]);
      out.push(...scan.files.filter((file) => isScriptFile(file) && matches(file)));
    }
  }
  return out;
}

export type { Workspace };
