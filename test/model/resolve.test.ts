import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createResolver, type Resolution } from '../../src/model/resolve.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Writes a fixture repository; returns its root and the files discovery would list (no node_modules). */
function fixture(files: Record<string, string>): { root: string; discovered: Set<string> } {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tripwire-resolve-')));
  temps.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return { root, discovered: new Set(Object.keys(files).filter((rel) => !rel.startsWith('node_modules/'))) };
}

function ours(root: string, discovered: Set<string>) {
  return createResolver(root, discovered, (rel) => (discovered.has(rel) ? readFileSync(path.join(root, rel), 'utf8') : undefined));
}

/** What the TypeScript compiler resolves, in our result's terms. */
function typescript(root: string, fromFile: string, specifier: string): Resolution {
  const configPath = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  const { resolvedModule } = ts.resolveModuleName(specifier, path.join(root, fromFile), options, ts.sys);
  if (!resolvedModule) return { kind: 'missing' };
  if (resolvedModule.isExternalLibraryImport) return { kind: 'package', name: resolvedModule.packageId?.name ?? '?' };
  return { kind: 'file', path: path.relative(root, resolvedModule.resolvedFileName).split(path.sep).join('/') };
}

const SHARED_FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'demo', type: 'module', imports: { '#internal/*': './src/internal/*.ts' } }),
  'src/lib/index.ts': 'export {};',
  'src/lib/util.ts': 'export {};',
  'src/lib.ts': 'export {};',
  'src/internal/log.ts': 'export {};',
  'src/legacy.js': 'export {};',
  'src/esm.mts': 'export {};',
  'src/widget.tsx': 'export {};',
  'src/vendored/package.json': JSON.stringify({ main: './lib/entry.js' }),
  'src/vendored/lib/entry.ts': 'export {};',
  'test/helpers/run.ts': 'export {};',
  'test/unit/local.ts': 'export {};',
  'test/unit/a.test.ts': '',
  'node_modules/openai/package.json': JSON.stringify({ name: 'openai', version: '4.0.0', types: 'index.d.ts' }),
  'node_modules/openai/index.d.ts': 'export {};',
  'node_modules/openai/resources/chat.d.ts': 'export {};',
  'node_modules/@anthropic-ai/sdk/package.json': JSON.stringify({ name: '@anthropic-ai/sdk', version: '0.30.0', types: 'index.d.ts' }),
  'node_modules/@anthropic-ai/sdk/index.d.ts': 'export {};',
  'node_modules/@anthropic-ai/sdk/resources/index.d.ts': 'export {};',
};

describe('createResolver agrees with ts.resolveModuleName (moduleResolution bundler)', () => {
  // `paths` declared in an extended config, no baseUrl: targets are relative to that config's directory.
  const extended = fixture({
    ...SHARED_FILES,
    'tsconfig.json': '{\n  // JSONC: comments and trailing commas\n  "extends": "./config/tsconfig.base",\n  "compilerOptions": { "module": "preserve", "moduleResolution": "bundler", },\n}',
    'config/tsconfig.base.json': JSON.stringify({
      compilerOptions: {
        paths: {
          '@helpers/*': ['../test/helpers/*'],
          '@fallback/*': ['../nowhere/*', '../src/*'],
          '@lib': ['../src/lib/index.ts'],
        },
      },
    }),
  });
  const fromTest = 'test/unit/a.test.ts';
  const extendedCases: [string, Resolution][] = [
    ['./local.js', { kind: 'file', path: 'test/unit/local.ts' }],
    ['./local', { kind: 'file', path: 'test/unit/local.ts' }],
    ['../../src/lib', { kind: 'file', path: 'src/lib.ts' }],
    ['../../src/lib/', { kind: 'file', path: 'src/lib/index.ts' }],
    ['../../src/lib/index.js', { kind: 'file', path: 'src/lib/index.ts' }],
    ['../../src/legacy.js', { kind: 'file', path: 'src/legacy.js' }],
    ['../../src/legacy', { kind: 'file', path: 'src/legacy.js' }],
    ['../../src/esm.mjs', { kind: 'file', path: 'src/esm.mts' }],
    ['../../src/widget.js', { kind: 'file', path: 'src/widget.tsx' }],
    ['../../src/vendored', { kind: 'file', path: 'src/vendored/lib/entry.ts' }],
    ['@helpers/run.js', { kind: 'file', path: 'test/helpers/run.ts' }],
    ['@helpers/run', { kind: 'file', path: 'test/helpers/run.ts' }],
    ['@fallback/lib/util', { kind: 'file', path: 'src/lib/util.ts' }],
    ['@lib', { kind: 'file', path: 'src/lib/index.ts' }],
    ['#internal/log', { kind: 'file', path: 'src/internal/log.ts' }],
    ['openai', { kind: 'package', name: 'openai' }],
    ['openai/resources/chat', { kind: 'package', name: 'openai' }],
    ['@anthropic-ai/sdk/resources', { kind: 'package', name: '@anthropic-ai/sdk' }],
    ['./missing.js', { kind: 'missing' }],
    ['../../src/lib/nope', { kind: 'missing' }],
    ['@helpers/nope', { kind: 'missing' }],
  ];
  it.each(extendedCases)('%s', (specifier, expected) => {
    const resolver = ours(extended.root, extended.discovered);
    expect(resolver.resolve(fromTest, specifier)).toEqual(expected);
    expect(typescript(extended.root, fromTest, specifier)).toEqual(expected);
  });

  const directoryCases: [string, Resolution][] = [
    ['.', { kind: 'file', path: 'src/lib/index.ts' }],
    ['./', { kind: 'file', path: 'src/lib/index.ts' }],
    ['..', { kind: 'missing' }],
    ['../lib', { kind: 'file', path: 'src/lib.ts' }],
  ];
  it.each(directoryCases)('from src/lib/util.ts: %s', (specifier, expected) => {
    const resolver = ours(extended.root, extended.discovered);
    expect(resolver.resolve('src/lib/util.ts', specifier)).toEqual(expected);
    expect(typescript(extended.root, 'src/lib/util.ts', specifier)).toEqual(expected);
  });

  // baseUrl: bare specifiers resolve under it, and `paths` targets are relative to it.
  const based = fixture({
    ...SHARED_FILES,
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        module: 'preserve',
        moduleResolution: 'bundler',
        ignoreDeprecations: '6.0',
        baseUrl: './src',
        paths: { '@helpers/*': ['../test/helpers/*'] },
      },
    }),
  });
  const basedCases: [string, Resolution][] = [
    ['lib/util', { kind: 'file', path: 'src/lib/util.ts' }],
    ['lib', { kind: 'file', path: 'src/lib.ts' }],
    ['lib/', { kind: 'file', path: 'src/lib/index.ts' }],
    ['@helpers/run.js', { kind: 'file', path: 'test/helpers/run.ts' }],
    ['openai', { kind: 'package', name: 'openai' }],
  ];
  it.each(basedCases)('baseUrl: %s', (specifier, expected) => {
    const resolver = ours(based.root, based.discovered);
    expect(resolver.resolve(fromTest, specifier)).toEqual(expected);
    expect(typescript(based.root, fromTest, specifier)).toEqual(expected);
  });

  it('calls a node: builtin a package (TypeScript finds no file for it)', () => {
    const resolver = ours(extended.root, extended.discovered);
    expect(resolver.resolve(fromTest, 'node:fs')).toEqual({ kind: 'package', name: 'node:fs' });
    expect(resolver.resolve(fromTest, 'node:fs/promises')).toEqual({ kind: 'package', name: 'node:fs/promises' });
    expect(resolver.resolve(fromTest, 'fs/promises')).toEqual({ kind: 'package', name: 'fs' });
    expect(typescript(extended.root, fromTest, 'node:fs')).toEqual({ kind: 'missing' });
  });
});

describe('createResolver beyond TypeScript', () => {
  it('prefers the module that runs over its declaration file', () => {
    const { root, discovered } = fixture({
      'tsconfig.json': '{}',
      'src/a.ts': '',
      'src/typed.d.ts': '',
      'src/typed.js': '',
      'src/only-types.d.ts': '',
    });
    const resolver = ours(root, discovered);
    expect(resolver.resolve('src/a.ts', './typed.js')).toEqual({ kind: 'file', path: 'src/typed.js' });
    expect(resolver.resolve('src/a.ts', './typed')).toEqual({ kind: 'file', path: 'src/typed.js' });
    expect(resolver.resolve('src/a.ts', './only-types.js')).toEqual({ kind: 'file', path: 'src/only-types.d.ts' });
  });

  it('resolves a file with a non-code extension and a module-flavoured extensionless import', () => {
    const { root, discovered } = fixture({ 'src/a.ts': '', 'src/prompt.md': '', 'src/tool.mjs': '' });
    const resolver = ours(root, discovered);
    expect(resolver.resolve('src/a.ts', './prompt.md')).toEqual({ kind: 'file', path: 'src/prompt.md' });
    expect(resolver.resolve('src/a.ts', './tool')).toEqual({ kind: 'file', path: 'src/tool.mjs' });
  });

  it('consults only the discovered files, never the disk', () => {
    const { root, discovered } = fixture({ 'src/a.ts': '', 'src/ignored.ts': '' });
    discovered.delete('src/ignored.ts');
    expect(ours(root, discovered).resolve('src/a.ts', './ignored.js')).toEqual({ kind: 'missing' });
  });

  it('uses the nearest tsconfig.json and treats a catch-all mapping that fails as a package', () => {
    const { root, discovered } = fixture({
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '*': ['./types/*'] } } }),
      'types/shim.d.ts': '',
      'test/tsconfig.json': JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { paths: { '~/*': ['./helpers/*'] } } }),
      'test/helpers/run.ts': '',
      'test/e2e/a.test.ts': '',
      'src/a.ts': '',
    });
    const resolver = ours(root, discovered);
    expect(resolver.resolve('test/e2e/a.test.ts', '~/run')).toEqual({ kind: 'file', path: 'test/helpers/run.ts' });
    expect(resolver.resolve('src/a.ts', '~/run')).toEqual({ kind: 'package', name: '~' });
    expect(resolver.resolve('src/a.ts', 'shim')).toEqual({ kind: 'file', path: 'types/shim.d.ts' });
    expect(resolver.resolve('src/a.ts', 'openai')).toEqual({ kind: 'package', name: 'openai' });
  });

  it('survives an extends cycle and an unreadable tsconfig', () => {
    const { root, discovered } = fixture({
      'tsconfig.json': JSON.stringify({ extends: './b.json', compilerOptions: { paths: { '@x/*': ['./x/*'] } } }),
      'b.json': JSON.stringify({ extends: './tsconfig.json' }),
      'x/y.ts': '',
      'pkg/tsconfig.json': '{ not json',
      'pkg/a.ts': '',
    });
    const resolver = ours(root, discovered);
    expect(resolver.resolve('a.ts', '@x/y')).toEqual({ kind: 'file', path: 'x/y.ts' });
    expect(resolver.resolve('pkg/a.ts', '@x/y')).toEqual({ kind: 'package', name: '@x/y' });
  });

  it('refuses a relative import that leaves the repository', () => {
    const { root, discovered } = fixture({ 'a.ts': '' });
    expect(ours(root, discovered).resolve('a.ts', '../outside.js')).toEqual({ kind: 'missing' });
  });

  it('memoizes per directory and specifier', () => {
    const { root, discovered } = fixture({ 'src/a.ts': '', 'src/b.ts': '', 'src/c.ts': '' });
    let reads = 0;
    const resolver = createResolver(root, discovered, () => {
      reads++;
      return undefined;
    });
    const first = resolver.resolve('src/a.ts', './c.js');
    expect(resolver.resolve('src/b.ts', './c.js')).toBe(first);
    expect(resolver.resolve('src/b.ts', './c')).not.toBe(first);
    expect(reads).toBe(0);
  });
});

describe('workspace packages (issue 19 item 1): a bare import of a member resolves to its sources, never to an external package', () => {
  const member = (name: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ name, version: '1.0.0', ...extra });
  const npm = fixture({
    'package.json': JSON.stringify({ private: true, workspaces: ['packages/*', '!packages/vendored'] }),
    'packages/grader/package.json': member('@acme/grader', { exports: { '.': { types: './build/out/index.d.ts', import: './build/out/index.js' }, './parts/*': './build/out/parts/*.js' } }),
    'packages/grader/tsconfig.json': JSON.stringify({ compilerOptions: { outDir: 'build/out', rootDir: 'lib' } }),
    'packages/grader/lib/index.ts': 'export {};',
    'packages/grader/lib/parts/score.ts': 'export {};',
    'packages/helpers/package.json': member('@acme/helpers', { main: './dist/index.js' }),
    'packages/helpers/src/index.ts': 'export {};',
    'packages/helpers/src/judge.ts': 'export {};',
    'packages/bundled/package.json': member('@acme/bundled', { exports: { '.': { import: './dist/index.mjs', require: './dist/index.cjs', types: './dist/index.d.mts' } } }),
    'packages/bundled/src/index.ts': 'export {};',
    'packages/checked-only/package.json': member('@acme/checked-only', { exports: { './facade': { import: './dist/facade/index.mjs' } } }),
    'packages/checked-only/tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: '.', noEmit: true } }),
    'packages/checked-only/src/facade/index.ts': 'export {};',
    'packages/direct/package.json': member('direct', { main: 'src/main.ts' }),
    'packages/direct/src/main.ts': 'export {};',
    'packages/no-entry/package.json': member('@acme/no-entry', { main: './dist/index.js' }),
    'packages/twin-a/package.json': member('twin'),
    'packages/twin-a/index.ts': 'export {};',
    'packages/twin-b/package.json': member('twin'),
    'packages/twin-b/index.ts': 'export {};',
    'packages/vendored/package.json': member('@acme/vendored', { main: 'index.ts' }),
    'packages/vendored/index.ts': 'export {};',
    'apps/web/test/a.test.ts': '',
  });
  const resolver = ours(npm.root, npm.discovered);
  const from = 'apps/web/test/a.test.ts';

  it('follows exports conditions into the build output, and from there to the sources by the package tsconfig (outDir → rootDir)', () => {
    expect(resolver.resolve(from, '@acme/grader')).toEqual({ kind: 'file', path: 'packages/grader/lib/index.ts' });
    expect(resolver.resolve(from, '@acme/grader/parts/score')).toEqual({ kind: 'file', path: 'packages/grader/lib/parts/score.ts' });
  });

  it('without exports: main, mapped from dist/ to src/ when the package has no outDir, and a subpath as a path', () => {
    expect(resolver.resolve(from, '@acme/helpers')).toEqual({ kind: 'file', path: 'packages/helpers/src/index.ts' });
    expect(resolver.resolve(from, '@acme/helpers/src/judge')).toEqual({ kind: 'file', path: 'packages/helpers/src/judge.ts' });
    expect(resolver.resolve(from, 'direct')).toEqual({ kind: 'file', path: 'packages/direct/src/main.ts' });
    // A bundler renames as it builds: dist/index.mjs comes from src/index.ts.
    expect(resolver.resolve(from, '@acme/bundled')).toEqual({ kind: 'file', path: 'packages/bundled/src/index.ts' });
    // A tsconfig that only type-checks (noEmit) says nothing of where the build writes.
    expect(resolver.resolve(from, '@acme/checked-only/facade')).toEqual({ kind: 'file', path: 'packages/checked-only/src/facade/index.ts' });
  });

  it('fails closed, with the reason: a subpath exports does not list, an entry with no file, a name two members share', () => {
    expect(resolver.resolve(from, '@acme/grader/weights')).toEqual({ kind: 'missing', why: "the workspace package @acme/grader (packages/grader) exports no './weights'" });
    expect(resolver.resolve(from, '@acme/no-entry')).toEqual({ kind: 'missing', why: "the workspace package @acme/no-entry (packages/no-entry) has no file in the repository for '.' (looked for its main, and for its sources)" });
    expect(resolver.resolve(from, 'twin')).toEqual({ kind: 'missing', why: 'two workspace packages are named twin (packages/twin-a and packages/twin-b), which package managers refuse' });
  });

  it('a directory the workspaces exclude (!glob) is no member: its name is an external package, as is any other', () => {
    expect(resolver.resolve(from, '@acme/vendored')).toEqual({ kind: 'package', name: '@acme/vendored' });
    expect(resolver.resolve(from, 'openai')).toEqual({ kind: 'package', name: 'openai' });
  });

  it('reads pnpm-workspace.yaml, and yarn\'s { packages } form', () => {
    const pnpm = fixture({
      'package.json': JSON.stringify({ private: true }),
      'pnpm-workspace.yaml': "packages:\n  - 'libs/*'\n",
      'libs/kit/package.json': member('kit', { main: 'src/index.ts' }),
      'libs/kit/src/index.ts': 'export {};',
      'test/a.test.ts': '',
    });
    expect(ours(pnpm.root, pnpm.discovered).resolve('test/a.test.ts', 'kit')).toEqual({ kind: 'file', path: 'libs/kit/src/index.ts' });
    const yarn = fixture({
      'package.json': JSON.stringify({ private: true, workspaces: { packages: ['libs/*'] } }),
      'libs/kit/package.json': member('kit', { main: 'src/index.ts' }),
      'libs/kit/src/index.ts': 'export {};',
      'test/a.test.ts': '',
    });
    expect(ours(yarn.root, yarn.discovered).resolve('test/a.test.ts', 'kit')).toEqual({ kind: 'file', path: 'libs/kit/src/index.ts' });
  });

  it('tsconfig paths come first, as in TypeScript; without workspaces a package name stays external', () => {
    const aliased = fixture({
      'package.json': JSON.stringify({ private: true, workspaces: ['libs/*'] }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { kit: ['./shims/kit.ts'] } } }),
      'shims/kit.ts': 'export {};',
      'libs/kit/package.json': member('kit', { main: 'src/index.ts' }),
      'libs/kit/src/index.ts': 'export {};',
      'test/a.test.ts': '',
    });
    expect(ours(aliased.root, aliased.discovered).resolve('test/a.test.ts', 'kit')).toEqual({ kind: 'file', path: 'shims/kit.ts' });
    const plain = fixture({
      'package.json': JSON.stringify({ private: true }),
      'libs/kit/package.json': member('kit', { main: 'src/index.ts' }),
      'libs/kit/src/index.ts': 'export {};',
      'test/a.test.ts': '',
    });
    expect(ours(plain.root, plain.discovered).resolve('test/a.test.ts', 'kit')).toEqual({ kind: 'package', name: 'kit' });
  });
});
