import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo, installBin } from '../support/fixture-repo.js';
import { CLI_BIN, git, runCli } from '../support/repo.js';

// Real Nx (the exact devDependency), offline and without its daemon, on a fresh copy of
// fixtures/task-runners/monorepo: each package's `tripwire` target takes its inputs from
// `tripwire print-inputs --format nx`, and Nx's own report of each task (`[local cache]`,
// `[existing outputs match the cache, left as is]`) says what it served from its cache, which
// lives in the temporary repository (.nx/cache), never in the user's.

const NX = join(PACKAGE_ROOT, 'node_modules', '.bin', 'nx');
const PACKAGES = ['app', 'helpers', 'dashboard'] as const;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function nxEnv(dir: string): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !/^NX_|^FORCE_COLOR$/.test(name));
  return {
    ...Object.fromEntries(inherited),
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
    NX_SKIP_NX_CACHE: 'false',
    NX_CACHE_DIRECTORY: join(dir, '.nx', 'cache'),
    NX_WORKSPACE_DATA_DIRECTORY: join(dir, '.nx', 'workspace-data'),
    NO_COLOR: '1',
  };
}

/** `nx run-many -t tripwire` in `dir`, every task succeeding; each package's cache status, from the line Nx prints for its task. */
function runNx(dir: string): Record<string, string> {
  const result = spawnSync(NX, ['run-many', '-t', 'tripwire', '--outputStyle=static', '--parallel=1'], { cwd: dir, encoding: 'utf8', env: nxEnv(dir) });
  expect(result.error).toBeUndefined();
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.status, output).toBe(0);
  const statuses: Record<string, string> = {};
  for (const match of output.matchAll(/^> nx run @lab\/(\w+):tripwire(.*)$/gm)) {
    statuses[match[1] ?? ''] = /cache/.test(match[2] ?? '') ? 'HIT' : 'MISS';
  }
  return statuses;
}

/** The package's target: `tripwire check`, cached, with the inputs print-inputs prints for it. */
function writeTarget(dir: string, name: string): void {
  const run = runCli(['print-inputs', '--format', 'nx'], join(dir, 'packages', name));
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const inputs: unknown = JSON.parse(run.stdout);
  const file = join(dir, 'packages', name, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...manifest, scripts: { tripwire: 'tripwire check' }, nx: { targets: { tripwire: { cache: true, inputs } } } }, null, 2)}\n`);
}

/** The monorepo as a real git repository with an nx.json, Nx linked into its node_modules, `tripwire` on its scripts' PATH. */
function monorepo(): string {
  const dir = fixtureRepo('task-runners/monorepo');
  temps.push(dir);
  installBin(dir, 'tripwire', CLI_BIN);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  // Nx looks for itself in the workspace's node_modules; the test links this project's install.
  for (const name of ['nx', '@nx']) symlinkSync(join(PACKAGE_ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  writeFileSync(join(dir, 'nx.json'), '{}\n');
  appendFileSync(join(dir, '.gitignore'), '.nx\n');
  for (const name of PACKAGES) writeTarget(dir, name);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'each package checks its harness with tripwire, cached by Nx');
  return dir;
}

describe('tripwire check as an Nx target, with inputs from print-inputs --format nx', () => {
  it('runs once, is served from the cache after, and an edit to an imported sibling file invalidates exactly the dependent checks', () => {
    const dir = monorepo();
    const app = JSON.parse(readFileSync(join(dir, 'packages/app/package.json'), 'utf8')) as { nx: { targets: { tripwire: { inputs: string[] } } } };
    expect(app.nx.targets.tripwire.inputs[0]).toBe('{projectRoot}/**/*');
    expect(app.nx.targets.tripwire.inputs).toContain('{workspaceRoot}/packages/helpers/src/format.ts');
    expect(app.nx.targets.tripwire.inputs).not.toContain('{workspaceRoot}/packages/helpers/src/palette.ts');

    expect(runNx(dir)).toEqual({ app: 'MISS', helpers: 'MISS', dashboard: 'MISS' });
    expect(runNx(dir)).toEqual({ app: 'HIT', helpers: 'HIT', dashboard: 'HIT' });

    // app's test imports @lab/helpers, whose index re-exports format.ts: app's check and helpers' own run again.
    appendFileSync(join(dir, 'packages/helpers/src/format.ts'), '\nexport const PERCENT = "%";\n');
    expect(runNx(dir)).toEqual({ app: 'MISS', helpers: 'MISS', dashboard: 'HIT' });

    // palette.ts is in helpers, but no import of app's reaches it: only helpers' check runs again.
    appendFileSync(join(dir, 'packages/helpers/src/palette.ts'), "export const accent = '#e7298a';\n");
    expect(runNx(dir)).toEqual({ app: 'HIT', helpers: 'MISS', dashboard: 'HIT' });

    // A new test file in app changes what its check lists: {projectRoot}/**/* covers it.
    writeFileSync(join(dir, 'packages/app/test/empty.test.ts'), "import { test } from 'vitest';\n\ntest.todo('an empty list of scores');\n");
    expect(runNx(dir)).toEqual({ app: 'MISS', helpers: 'HIT', dashboard: 'HIT' });
  });
});
