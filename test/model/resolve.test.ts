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
