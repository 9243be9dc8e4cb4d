import { basename, splitShell } from '../facts/shell.js';
import { compileGlobs } from '../util/glob.js';
import { PACKAGE_RUNNERS, parseArguments, startRunner, type RunnerInvocation } from './scripts.js';
import { packageAt, type Package } from './workspace.js';

/** One test-runner invocation a script or CI step reaches, in the package it runs in. */
export interface Run {
  pkg: Package;
  invocation: RunnerInvocation;
  /** The scripts followed to reach it, outermost first, each as `dir:name` ('' dir for the root). */
  scripts: string[];
  /** A word of the command could not be read statically (`${{ matrix.path }}`, `$(…)`): its file filter is unknown. */
  unknown: boolean;
}

/** The packages of a repository, by directory; the first is the root. */
export interface Workspace {
  root: Package;
  members: readonly Package[];
  at(dir: string): Package | null;
}

export function workspaceOf(packages: readonly Package[]): Workspace {
  const [root, ...members] = packages;
  if (root === undefined) throw new Error('a workspace has a root package');
  const byDir = new Map(packages.map((pkg) => [pkg.dir, pkg]));
  const extra = new Map<string, Package>();
  return {
    root,
    members,
    at(dir) {
      const known = byDir.get(dir) ?? extra.get(dir);
      if (known) return known;
      if (dir !== '' && !root.scan.isDirectory(dir)) return null;
      const pkg = packageAt(root.scan, dir);
      extra.set(dir, pkg);
      return pkg;
    },
  };
}

/** The runs of a package script, following `npm run`, `pnpm -r`, `pnpm --filter`, `turbo run`, `nx run-many`, `lerna run`, `cd dir &&`. */
export function runsOfScript(ws: Workspace, pkg: Package, script: string, chain: readonly string[] = [], seen: Set<string> = new Set()): Run[] {
  const text = pkg.scan.scripts[script];
  const key = `${pkg.dir}:${script}`;
  if (text === undefined || seen.has(key)) return [];
  seen.add(key);
  return runsOfText(ws, pkg, text, [...chain, key], seen);
}

/** The runs of a shell text (a script body or a CI step's `run:`) started in `pkg`'s directory. */
export function runsOfText(ws: Workspace, pkg: Package, text: string, chain: readonly string[] = [], seen: Set<string> = new Set()): Run[] {
  const out: Run[] = [];
  let here = pkg;
  for (const argv of splitShell(text)) {
    // A word the shell or the CI expands at run time (`$VAR`, `$(…)`, `${{ matrix.x }}`) cannot be read here.
    const unknown = argv.some((word) => word === null || word.includes('$'));
    const words = argv.map((word) => word ?? '');
    if (words[0] === 'cd') {
      const target = words[1] === undefined || words[1] === '' ? null : ws.at(joinDir(here.dir, words[1]));
      if (target) here = target;
      continue;
    }
    out.push(...runsOfArgv(ws, here, words, chain, seen).map((run) => ({ ...run, unknown: run.unknown || unknown })));
  }
  return out;
}

function runsOfArgv(ws: Workspace, pkg: Package, words: string[], chain: readonly string[], seen: Set<string>): Run[] {
  const program = basename(words[0] ?? '');
  if (PACKAGE_RUNNERS.has(program)) {
    const delegated = packageManager(ws, pkg, program, words.slice(1), chain, seen);
    if (delegated !== null) return delegated;
  }
  if (program === 'turbo') return turbo(ws, words.slice(1), chain, seen);
  if (program === 'nx') return nx(ws, words.slice(1), chain, seen);
  if (program === 'lerna') return lerna(ws, words.slice(1), chain, seen);
  const started = startRunner(words);
  if (started === null) return [];
  const script = chain.at(-1) ?? '';
  return [{ pkg, invocation: parseArguments(script, started.runner, started.args), scripts: [...chain], unknown: false }];
}

/** npm / pnpm / yarn / bun: a script (here, in a directory, or across members), `exec`, or a runner they start. */
function packageManager(ws: Workspace, pkg: Package, program: string, args: string[], chain: readonly string[], seen: Set<string>): Run[] | null {
  let recursive = false;
  const filters: string[] = [];
  let dir: string | null = null;
  let i = 0;
  const valueOf = (word: string): string => {
    const equals = word.indexOf('=');
    return equals === -1 ? (args[++i] ?? '') : word.slice(equals + 1);
  };
  for (; i < args.length; i++) {
    const word = args[i] ?? '';
    if (!word.startsWith('-')) break;
    const name = word.replace(/=.*$/, '');
    if (name === '-r' || name === '--recursive' || name === '-ws' || name === '--workspaces' || name === '-A' || name === '--all') recursive = true;
    else if (name === '--filter' || name === '-F' || name === '-w' || name === '--workspace' || name === '--scope') filters.push(valueOf(word));
    else if (name === '-C' || name === '--dir' || name === '--prefix' || name === '--cwd') dir = valueOf(word);
  }
  const sub = args[i];
  const after = args.slice(i + 1);
  if (sub === undefined) return null;
  let script: string | undefined;
  if (sub === 'exec' || sub === 'dlx' || sub === 'x') {
    const where = dir === null ? pkg : (ws.at(joinDir(pkg.dir, dir)) ?? pkg);
    return runsOfArgv(ws, where, after, chain, seen);
  }
  if (sub === 'workspaces' && program === 'yarn') {
    const run = after.indexOf('run');
    script = run === -1 ? after.find((word) => !word.startsWith('-') && word !== 'foreach') : after[run + 1];
    recursive = true;
  } else if (sub === 'workspace' && program === 'yarn') {
    filters.push(after[0] ?? '');
    script = after[1] === 'run' ? after[2] : after[1];
  } else if (sub === 'run' || sub === 'run-script') {
    script = after.find((word) => !word.startsWith('-'));
  } else if (sub === 'test' || sub === 't') {
    if (program === 'bun') return null;
    script = 'test';
  } else if (program !== 'npm') {
    script = sub;
  }
  if (script === undefined) return null;
  // npm takes its workspace options after the script name too: `npm run test --workspaces`.
  for (let j = 0; j < after.length; j++) {
    const word = after[j] ?? '';
    if (word === '--workspaces' || word === '-ws') recursive = true;
    else if ((word === '--workspace' || word === '-w') && after[j + 1] !== undefined) filters.push(after[++j] ?? '');
    else if (word.startsWith('--workspace=')) filters.push(word.slice('--workspace='.length));
  }
  const targets = recursive || filters.length > 0 ? select(ws, filters) : [dir === null ? pkg : ws.at(joinDir(pkg.dir, dir))].filter((p): p is Package => p !== null);
  const named = script;
  const withScript = targets.filter((target) => named in target.scan.scripts);
  // `pnpm vitest`, `bun x`: not a script, a binary the package manager starts.
  if (withScript.length === 0 && !recursive && filters.length === 0) return null;
  return withScript.flatMap((target) => runsOfScript(ws, target, named, chain, seen));
}

function turbo(ws: Workspace, args: string[], chain: readonly string[], seen: Set<string>): Run[] {
  const { positionals, filters } = taskArgs(args, ['--filter', '-F']);
  const tasks = (positionals[0] === 'run' ? positionals.slice(1) : positionals).filter((task) => !task.includes('#') || task.startsWith('//#'));
  const members = select(ws, filters);
  return tasks.flatMap((task) => (task.startsWith('//#') ? runsOfScript(ws, ws.root, task.slice(3), chain, seen) : members.flatMap((pkg) => runsOfScript(ws, pkg, task, chain, seen))));
}

function nx(ws: Workspace, args: string[], chain: readonly string[], seen: Set<string>): Run[] {
  const { positionals, filters, values } = taskArgs(args, ['--projects', '-p']);
  const [command, first] = positionals;
  if (command === 'run' && first !== undefined) {
    const [project, target] = first.split(':');
    return select(ws, [project ?? '']).flatMap((pkg) => runsOfScript(ws, pkg, target ?? '', chain, seen));
  }
  if (command !== 'run-many' && command !== 'affected') return [];
  const targets = [...(values.get('-t') ?? []), ...(values.get('--target') ?? []), ...(values.get('--targets') ?? [])].flatMap((value) => value.split(','));
  const members = select(ws, filters.flatMap((value) => value.split(',')));
  return targets.flatMap((target) => members.flatMap((pkg) => runsOfScript(ws, pkg, target, chain, seen)));
}

function lerna(ws: Workspace, args: string[], chain: readonly string[], seen: Set<string>): Run[] {
  const { positionals, filters } = taskArgs(args, ['--scope']);
  if (positionals[0] !== 'run' || positionals[1] === undefined) return [];
  const script = positionals[1];
  return select(ws, filters).flatMap((pkg) => runsOfScript(ws, pkg, script, chain, seen));
}

function taskArgs(args: readonly string[], filterOptions: readonly string[]): { positionals: string[]; filters: string[]; values: Map<string, string[]> } {
  const positionals: string[] = [];
  const filters: string[] = [];
  const values = new Map<string, string[]>();
  const valued = new Set([...filterOptions, '-t', '--target', '--targets', '--output-logs', '--concurrency', '--cache-dir', '--log-order', '--env-mode', '--ui', '--cache', '--graph', '--summarize', '--parallel']);
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (!word.startsWith('-')) {
      positionals.push(word);
      continue;
    }
    if (word === '--') break;
    const equals = word.indexOf('=');
    const name = equals === -1 ? word : word.slice(0, equals);
    if (!valued.has(name)) continue;
    const value = equals === -1 ? (args[++i] ?? '') : word.slice(equals + 1);
    if (filterOptions.includes(name)) filters.push(value);
    else values.set(name, [...(values.get(name) ?? []), value]);
  }
  return { positionals, filters, values };
}

/**
 * The members a filter list selects (pnpm/turbo syntax): names or globs of
 * names (`@scope/*`), directories (`./packages/x`, `{packages/x}`),
 * negations (`!@example/*`); none or only negations start from every member.
 */
function select(ws: Workspace, filters: readonly string[]): Package[] {
  const clean = filters.map((filter) => filter.replace(/^\.\.\.|\.\.\.$|\^/g, '').replace(/\.\.\.$/, '')).filter((filter) => filter !== '');
  const positive = clean.filter((filter) => !filter.startsWith('!'));
  const negative = clean.filter((filter) => filter.startsWith('!')).map((filter) => filter.slice(1));
  const matches = (pkg: Package, filter: string): boolean => {
    const dirFilter = /^\{(.*)\}$/.exec(filter)?.[1] ?? (filter.startsWith('./') || filter.startsWith('../') ? filter : null);
    if (dirFilter !== null) return compileGlobs([joinDir('', dirFilter)])(pkg.dir) || pkg.dir.startsWith(`${joinDir('', dirFilter)}/`);
    return pkg.name !== null && compileGlobs([filter])(pkg.name);
  };
  const base = positive.length === 0 ? ws.members : ws.members.filter((pkg) => positive.some((filter) => matches(pkg, filter)));
  return base.filter((pkg) => !negative.some((filter) => matches(pkg, filter)));
}

/** `packages/a` + `../b/./c` → `packages/b/c`; '' is the repository root. */
export function joinDir(base: string, path: string): string {
  const parts = path.startsWith('/') ? [] : base.split('/').filter((part) => part !== '');
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
