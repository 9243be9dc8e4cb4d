import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { runsOfScript, runsOfText, workspaceOf } from '../../src/init/lanes.js';
import type { RepoScan } from '../../src/init/scan.js';
import { workspacePackages } from '../../src/init/workspace.js';

/** A repository held in memory, read as `init` reads one. */
function memoryScan(files: Record<string, string>): RepoScan {
  const list = Object.keys(files).sort();
  const manifest: unknown = files['package.json'] === undefined ? null : parse(files['package.json']);
  const packageJson = typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>) : null;
  const scripts = (packageJson?.scripts ?? {}) as Record<string, string>;
  const dirs = new Set(list.flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  return { root: '/repo', files: list, fileSet: new Set(list), packageJson, scripts, dependencies: new Set(), text: (file) => files[file] ?? null, isDirectory: (dir) => dirs.has(dir.replace(/^\.\//, '').replace(/\/$/, '')) };
}

const pkg = (name: string, scripts: Record<string, string>): string => JSON.stringify({ name, scripts });

function workspace(files: Record<string, string>) {
  const packages = workspacePackages(memoryScan(files));
  return { packages, ws: workspaceOf(packages) };
}

/** Each run as `package dir:runner positionals`, the way a reader of the report would name it. */
const described = (runs: ReturnType<typeof runsOfScript>): string[] => runs.map((run) => `${run.pkg.dir || '.'}:${run.invocation.runner}${run.invocation.positionals.length > 0 ? ` ${run.invocation.positionals.join(' ')}` : ''}`).sort();

const monorepo = {
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!packages/legacy'\n",
  'packages/core/package.json': pkg('@acme/core', { test: 'vitest run', 'test:e2e': 'vitest run e2e' }),
  'packages/cli/package.json': pkg('@acme/cli', { test: 'vitest run src' }),
  'packages/legacy/package.json': pkg('@acme/legacy', { test: 'jest' }),
  'examples/demo/package.json': pkg('@example/demo', { test: 'vitest run' }),
};

describe('workspace packages', () => {
  it('are the root and the directories its workspace globs name, negations honoured, nested non-members left out', () => {
    const { packages } = workspace({ 'package.json': pkg('root', {}), ...monorepo });
    expect(packages.map((p) => p.dir)).toEqual(['', 'packages/cli', 'packages/core']);
    expect(packages[1]?.name).toBe('@acme/cli');
    expect(packages[1]?.scan.scripts).toEqual({ test: 'vitest run src' });
  });

  it('read package.json "workspaces" in both its array and its { packages } form', () => {
    const members = Object.fromEntries(Object.entries(monorepo).filter(([file]) => file !== 'pnpm-workspace.yaml'));
    const array = workspace({ 'package.json': JSON.stringify({ workspaces: ['packages/*'] }), ...members });
    const object = workspace({ 'package.json': JSON.stringify({ workspaces: { packages: ['packages/core'] } }), ...members });
    expect(array.packages.map((p) => p.dir)).toEqual(['', 'packages/cli', 'packages/core', 'packages/legacy']);
    expect(object.packages.map((p) => p.dir)).toEqual(['', 'packages/core']);
  });
});

describe('script delegation', () => {
  const cases: [string, string, string[]][] = [
    ['pnpm -r', 'pnpm -r test', ['packages/cli:vitest src', 'packages/core:vitest']],
    ['pnpm --filter by name', 'pnpm --filter @acme/core test', ['packages/core:vitest']],
    ['pnpm --filter by directory', 'pnpm --filter ./packages/cli test', ['packages/cli:vitest src']],
    ['turbo run, every member', 'turbo run test', ['packages/cli:vitest src', 'packages/core:vitest']],
    ['turbo with a negated filter', 'turbo run test --filter=!@acme/cli', ['packages/core:vitest']],
    ['turbo, two tasks', 'turbo run test test:e2e --filter=@acme/core', ['packages/core:vitest', 'packages/core:vitest e2e']],
    ['nx run-many', 'nx run-many -t test --projects=@acme/cli', ['packages/cli:vitest src']],
    ['npm --workspaces after the script', 'npm run test --workspaces', ['packages/cli:vitest src', 'packages/core:vitest']],
    ['npm -w', 'npm test -w @acme/core', ['packages/core:vitest']],
    ['yarn workspaces foreach', 'yarn workspaces foreach -A run test', ['packages/cli:vitest src', 'packages/core:vitest']],
    ['cd into a package, then its script', 'cd packages/core && npm run test:e2e', ['packages/core:vitest e2e']],
    ['pnpm -C', 'pnpm -C packages/cli test', ['packages/cli:vitest src']],
    ['pnpm exec, a runner', 'pnpm exec vitest run smoke', ['.:vitest smoke']],
  ];
  for (const [name, text, expected] of cases) {
    it(`follows ${name}: \`${text}\``, () => {
      const { ws } = workspace({ 'package.json': pkg('root', { go: text }), ...monorepo });
      expect(described(runsOfScript(ws, ws.root, 'go'))).toEqual(expected);
    });
  }

  it('records the chain of scripts it followed, and stops on a cycle', () => {
    const { ws } = workspace({ 'package.json': pkg('root', { test: 'npm run unit', unit: 'npm run test && vitest run' }) });
    const runs = runsOfScript(ws, ws.root, 'test');
    expect(runs.map((run) => run.scripts)).toEqual([[':test', ':unit']]);
  });

  it('marks a run whose words cannot be read statically', () => {
    const { ws } = workspace({ 'package.json': pkg('root', {}) });
    const [run] = runsOfText(ws, ws.root, 'npx vitest run "$(cat list.txt)"');
    expect(run?.unknown).toBe(true);
    const [matrix] = runsOfText(ws, ws.root, 'pnpm exec vitest run "${{ matrix.path }}"');
    expect(matrix?.unknown).toBe(true);
    const [known] = runsOfText(ws, ws.root, 'npx vitest run test/unit');
    expect(known?.unknown).toBe(false);
  });

  it('does not treat a binary the package manager starts as a script, nor a file bun runs as a test run', () => {
    const { ws } = workspace({ 'package.json': pkg('root', { a: 'pnpm tsx scripts/build.ts', b: 'bun scripts/select.ts' }) });
    expect(runsOfScript(ws, ws.root, 'a')).toEqual([]);
    expect(runsOfScript(ws, ws.root, 'b')).toEqual([]);
  });
});
