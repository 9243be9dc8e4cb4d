import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo, installBin } from '../support/fixture-repo.js';
import { CLI_BIN, git, runCli } from '../support/repo.js';

// Real Turborepo (the exact devDependency), offline, on a fresh copy of fixtures/task-runners/monorepo:
// each package's `tripwire` task takes its inputs from `tripwire print-inputs --format turbo`, and the
// run summaries (`--summarize`, .turbo/runs/*.json: tasks[].cache.status) say what turbo served from
// its cache. The cache lives in the temporary repository (.turbo/cache), never in the user's.

const TURBO = join(PACKAGE_ROOT, 'node_modules', '.bin', 'turbo');
const PACKAGES = ['app', 'helpers', 'dashboard'] as const;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The environment of a turbo run: no telemetry, no update check, no remote cache or other TURBO_ setting from the caller's shell. */
function turboEnv(dir: string): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !/^TURBO_|^FORCE_COLOR$/.test(name));
  return {
    ...Object.fromEntries(inherited),
    TURBO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
    TURBO_NO_UPDATE_NOTIFIER: '1',
    NO_UPDATE_NOTIFIER: '1',
    TURBO_GLOBAL_WARNING_DISABLED: '1',
    TURBO_CACHE_DIR: join(dir, '.turbo', 'cache'),
    XDG_CONFIG_HOME: join(dir, '.turbo', 'config'),
    XDG_CACHE_HOME: join(dir, '.turbo', 'xdg-cache'),
    NO_COLOR: '1',
  };
}

function turbo(dir: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(TURBO, ['run', 'tripwire', '--summarize', '--cache=local:rw', '--concurrency=1', '--ui=stream', '--output-logs=new-only', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: turboEnv(dir),
  });
  expect(result.error).toBeUndefined();
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** `turbo run tripwire` in `dir`, every task succeeding; the cache status of each task, by package, from the run summary it wrote. */
function runTurbo(dir: string): Record<string, string> {
  const runs = join(dir, '.turbo', 'runs');
  const before = new Set(existsSync(runs) ? readdirSync(runs) : []);
  const { status, output } = turbo(dir);
  expect(status, output).toBe(0);
  const written = readdirSync(runs).filter((name) => !before.has(name) && name.endsWith('.json'));
  expect(written).toHaveLength(1);
  const summary = JSON.parse(readFileSync(join(runs, written[0] ?? ''), 'utf8')) as { tasks: { taskId: string; cache: { status: string }; execution?: { exitCode: number } }[] };
  const statuses: Record<string, string> = {};
  for (const task of summary.tasks) {
    expect(task.execution?.exitCode, task.taskId).toBe(0);
    statuses[task.taskId.replace(/^@lab\/(\w+)#tripwire$/, '$1')] = task.cache.status;
  }
  return statuses;
}

/** Writes the package's turbo.json: its `tripwire` task with the inputs print-inputs prints for it. */
function writeTurboJson(dir: string, name: string): void {
  const run = runCli(['print-inputs', '--format', 'turbo'], join(dir, 'packages', name));
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const inputs: unknown = JSON.parse(run.stdout);
  writeFileSync(join(dir, 'packages', name, 'turbo.json'), `${JSON.stringify({ extends: ['//'], tasks: { tripwire: { inputs } } }, null, 2)}\n`);
}

/** The monorepo as a real git repository, `tripwire` on the PATH of its scripts, each package's task given the inputs print-inputs prints for it. */
function monorepo(): string {
  const dir = fixtureRepo('task-runners/monorepo');
  temps.push(dir);
  installBin(dir, 'tripwire', CLI_BIN);
  for (const name of PACKAGES) writeTurboJson(dir, name);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'each package checks its harness with tripwire, cached by turbo');
  return dir;
}

describe('tripwire check as a Turborepo task, with inputs from print-inputs', () => {
  it('runs once, is served from the cache after, an edit to an imported sibling file invalidates exactly the dependent checks, and a stale list fails the task', () => {
    const dir = monorepo();
    const appTurboJson = readFileSync(join(dir, 'packages/app/turbo.json'), 'utf8');
    expect(appTurboJson).toContain('"$TURBO_ROOT$/packages/helpers/src/format.ts"');
    // The README shows this very file.
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const shown = readme.indexOf('```json\n', readme.indexOf('<!-- print-inputs: packages/app/turbo.json -->')) + '```json\n'.length;
    expect(readme.slice(shown, readme.indexOf('```', shown))).toBe(appTurboJson);
    expect(readme).toContain(readFileSync(join(PACKAGE_ROOT, 'fixtures/task-runners/monorepo/turbo.json'), 'utf8'));
    expect(readme).toContain('"tripwire": "tripwire print-inputs --format turbo --check && tripwire check"');

    expect(runTurbo(dir)).toEqual({ app: 'MISS', helpers: 'MISS', dashboard: 'MISS' });
    expect(runTurbo(dir)).toEqual({ app: 'HIT', helpers: 'HIT', dashboard: 'HIT' });

    // app's test imports @lab/helpers, whose index re-exports format.ts: app's check and helpers' own must run again.
    appendFileSync(join(dir, 'packages/helpers/src/format.ts'), '\nexport const PERCENT = "%";\n');
    expect(runTurbo(dir)).toEqual({ app: 'MISS', helpers: 'MISS', dashboard: 'HIT' });
    expect(runTurbo(dir)).toEqual({ app: 'HIT', helpers: 'HIT', dashboard: 'HIT' });

    // palette.ts is in helpers, but no import of app's reaches it: only helpers' check runs again.
    appendFileSync(join(dir, 'packages/helpers/src/palette.ts'), "export const accent = '#e7298a';\n");
    expect(runTurbo(dir)).toEqual({ app: 'HIT', helpers: 'MISS', dashboard: 'HIT' });

    // A new test file in app changes what its check lists: $TURBO_DEFAULT$ covers it.
    writeFileSync(join(dir, 'packages/app/test/empty.test.ts'), "import { test } from 'vitest';\n\ntest.todo('an empty list of scores');\n");
    expect(runTurbo(dir)).toEqual({ app: 'MISS', helpers: 'HIT', dashboard: 'HIT' });

    // helpers starts exporting a new file: app's task runs again (index.ts is an input), and its
    // `print-inputs --check` fails it, since its turbo.json does not list the new file yet.
    appendFileSync(join(dir, 'packages/helpers/src/index.ts'), "export { scale } from './scale.js';\n");
    writeFileSync(join(dir, 'packages/helpers/src/scale.ts'), 'export const scale = 100;\n');
    const stale = turbo(dir, '--filter=@lab/app');
    expect(stale.status).not.toBe(0);
    expect(stale.output).toContain('$TURBO_ROOT$/packages/helpers/src/scale.ts');
    writeTurboJson(dir, 'app');
    expect(runTurbo(dir)).toEqual({ app: 'MISS', helpers: 'MISS', dashboard: 'HIT' });
    // ... and an edit to the new file now reaches app's check.
    appendFileSync(join(dir, 'packages/helpers/src/scale.ts'), 'export const half = scale / 2;\n');
    expect(runTurbo(dir)).toEqual({ app: 'MISS', helpers: 'MISS', dashboard: 'HIT' });
  });
});
