import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { memberDirs, packageDirs, workspaceGlobs } from '../repo/workspaces.js';
import { isRecord } from '../util/guards.js';
import { toPosix } from '../util/path.js';

export type Resolution =
  | { kind: 'file'; path: string }
  | { kind: 'package'; name: string }
  /** `why`: what was looked for, when a plain "cannot resolve" would not say (a workspace package's entry). */
  | { kind: 'missing'; why?: string };

export interface Resolver {
  /** Resolves `specifier` as imported from the repo-relative `fromFile`. */
  resolve(fromFile: string, specifier: string): Resolution;
}

type ReadFile = (rel: string) => string | undefined;

/** A `paths` or `imports` key: `prefix*suffix`, or an exact key. */
interface KeyPattern {
  key: string;
  prefix: string;
  /** Undefined for an exact key (no `*`). */
  suffix: string | undefined;
}

interface PathMapping extends KeyPattern {
  targets: string[];
}

interface CompilerPaths {
  /** Repo-relative directory, '' for the root. */
  baseUrl: string | undefined;
  mappings: PathMapping[] | undefined;
}

const posix = path.posix;
const MISSING: Resolution = { kind: 'missing' };

/*
 * Extension substitution in TypeScript's order (moduleNameResolver.ts,
 * tryAddingExtensions). Declaration files stay in the lists so the order is
 * TypeScript's, but pickCandidate takes one only when nothing that runs exists:
 * the import graph follows the code that executes.
 */
const SUBSTITUTES: Record<string, readonly string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
  '.ts': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
  '.d.ts': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
  '.jsx': ['.tsx', '.ts', '.d.ts', '.jsx', '.js'],
  '.tsx': ['.tsx', '.ts', '.d.ts', '.jsx', '.js'],
  '.mjs': ['.mts', '.d.mts', '.mjs'],
  '.mts': ['.mts', '.d.mts', '.mjs'],
  '.d.mts': ['.mts', '.d.mts', '.mjs'],
  '.cjs': ['.cts', '.d.cts', '.cjs'],
  '.cts': ['.cts', '.d.cts', '.cjs'],
  '.d.cts': ['.cts', '.d.cts', '.cjs'],
  '.json': ['.d.json.ts', '.json'],
};
// Longest first, so `x.d.ts` is seen as `.d.ts` and not `.ts`.
const KNOWN_EXTENSIONS = Object.keys(SUBSTITUTES).sort((a, b) => b.length - a.length);
// TypeScript appends these to an extensionless specifier; bundlers also try
// the module-flavoured ones, which TypeScript would report as unresolved.
const APPENDED = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mts', '.mjs', '.cts', '.cjs'];
const TS_EXTENSION = /\.(?:d\.)?[cm]?tsx?$/;
const DECLARATION = /\.d\.(?:[^./]+\.)?[cm]?ts$/;
// `bundler` resolution's conditions for imports maps (getConditions), plus `default`.
const CONDITIONS = new Set(['import', 'types', 'default']);
/** Where a package's build writes, when its tsconfig does not say (outDir): an entry there is looked for in the sources. */
const BUILD_DIRS = ['dist', 'build', 'lib', 'out', 'esm', 'cjs'];
const BUILT_EXTENSION = /(?:\.d)?\.[cm]?[jt]sx?$/;

/** A package of the repository's workspaces (workspaces.ts), by the name other packages import it by. */
interface WorkspaceMember {
  dir: string;
  manifest: Record<string, unknown>;
  /** Another member's directory under the same name: a workspace npm, yarn and pnpm refuse, so the import resolves to neither. */
  twin?: string;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  const value: unknown = parseJsonc(text, [], { allowTrailingComma: true, disallowComments: false });
  return isRecord(value) ? value : undefined;
}

function join(dir: string, rel: string): string {
  const joined = posix.normalize(posix.join(dir, rel));
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

function dirOf(file: string): string {
  const dir = posix.dirname(file);
  return dir === '.' ? '' : dir;
}

function isRelative(specifier: string): boolean {
  return /^\.\.?(?:\/|$)/.test(specifier);
}

function escapesRoot(rel: string): boolean {
  return rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel);
}

export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

/** Candidates for `candidate` as a file, in TypeScript's order, then ours. */
function fileCandidates(candidate: string, exact: boolean): string[] {
  const out: string[] = [];
  const base = posix.basename(candidate);
  if (base.includes('.')) {
    const extension = KNOWN_EXTENSIONS.find((ext) => base.endsWith(ext) && base.length > ext.length);
    if (extension !== undefined) {
      const stem = candidate.slice(0, -extension.length);
      for (const substitute of SUBSTITUTES[extension] ?? []) out.push(stem + substitute);
    } else {
      const dot = candidate.lastIndexOf('.');
      out.push(`${candidate.slice(0, dot)}.d${candidate.slice(dot)}.ts`);
    }
  }
  for (const appended of APPENDED) out.push(candidate + appended);
  // TypeScript ignores `./prompt.md` or `./x.css`; the file still exists and
  // other rules (dangling references) need to know that.
  if (exact) out.push(candidate);
  return out;
}

function pickCandidate(candidates: readonly string[], files: ReadonlySet<string>): string | undefined {
  let declaration: string | undefined;
  for (const candidate of candidates) {
    if (!files.has(candidate)) continue;
    if (!DECLARATION.test(candidate)) return candidate;
    declaration ??= candidate;
  }
  return declaration;
}

function keyPattern(key: string): KeyPattern | undefined {
  const star = key.indexOf('*');
  if (star === -1) return { key, prefix: key, suffix: undefined };
  // A key with more than one `*` is invalid and ignored by TypeScript.
  return key.includes('*', star + 1) ? undefined : { key, prefix: key.slice(0, star), suffix: key.slice(star + 1) };
}

function matchKey<P extends KeyPattern>(patterns: readonly P[], specifier: string): { pattern: P; star: string } | undefined {
  // An exact key wins; otherwise the pattern with the longest prefix (findBestPatternMatch).
  const exact = patterns.find((pattern) => pattern.suffix === undefined && pattern.key === specifier);
  if (exact) return { pattern: exact, star: '' };
  let best: { pattern: P; star: string } | undefined;
  for (const pattern of patterns) {
    const { prefix, suffix } = pattern;
    if (suffix === undefined) continue;
    if (specifier.length < prefix.length + suffix.length) continue;
    if (!specifier.startsWith(prefix) || !specifier.endsWith(suffix)) continue;
    if (best && best.pattern.prefix.length >= prefix.length) continue;
    best = { pattern, star: specifier.slice(prefix.length, specifier.length - suffix.length) };
  }
  return best;
}

const CONFIG_DIR = '${configDir}';

function parseMappings(paths: Record<string, unknown>, base: string, leafDir: string): PathMapping[] {
  const mappings: PathMapping[] = [];
  for (const [key, value] of Object.entries(paths)) {
    const pattern = keyPattern(key);
    if (!pattern || !Array.isArray(value)) continue;
    mappings.push({
      ...pattern,
      targets: value
        .filter((target): target is string => typeof target === 'string')
        .map((target) => (target.startsWith(CONFIG_DIR) ? join(leafDir, `.${target.slice(CONFIG_DIR.length)}`) : join(base, target))),
    });
  }
  return mappings;
}

/** What a tsconfig chain says, before `paths` targets are anchored. */
interface RawPaths {
  baseUrl: string | undefined;
  paths: { entries: Record<string, unknown>; declaredIn: string } | undefined;
}

/**
 * Resolves local imports the way TypeScript's `bundler` resolution does
 * (`node16` accepts a subset: it demands extensions), without loading the
 * compiler. Existence is decided by `files` alone, never by the disk.
 */
export function createResolver(root: string, files: ReadonlySet<string>, readFile: ReadFile): Resolver {
  const memo = new Map<string, Map<string, Resolution>>();
  const configForDir = new Map<string, CompilerPaths>();
  const packageJsons = new Map<string, Record<string, unknown> | undefined>();
  const compilerOptionsByDir = new Map<string, Record<string, unknown> | undefined>();
  /** A workspace import resolves the same from every directory: by package name and subpath. */
  const workspaceMemo = new Map<string, Resolution>();
  let members: Map<string, WorkspaceMember> | undefined;

  /** The root's workspace members (npm, yarn, bun `workspaces`; pnpm-workspace.yaml) by package name. */
  function workspaceMembers(): Map<string, WorkspaceMember> {
    if (members) return members;
    members = new Map();
    const rootManifest = readPackageJson('');
    const pnpm = files.has('pnpm-workspace.yaml') ? (readFile('pnpm-workspace.yaml') ?? null) : null;
    const globs = workspaceGlobs(rootManifest, pnpm);
    if (globs.length === 0) return members;
    for (const dir of memberDirs(globs, packageDirs(files))) {
      const manifest = readPackageJson(dir);
      const name = manifest?.name;
      if (!manifest || typeof name !== 'string' || name === '') continue;
      const first = members.get(name);
      members.set(name, first ? { ...first, twin: dir } : { dir, manifest });
    }
    return members;
  }

  /**
   * A bare import of a workspace package, as a package manager links it: its
   * package.json `exports` (conditions types, import, default), else `types`,
   * `typings`, `main` and index, then the subpath as a path. An entry in the
   * build output (absent from the repository) is looked for in the sources
   * (the package tsconfig's outDir → rootDir, else dist/build/lib/… → src).
   * Nothing found is a missing module, never an external package: what the
   * package runs must be checked.
   */
  function resolveWorkspace(name: string, member: WorkspaceMember, sub: string): Resolution {
    const key = `${name}\u0000${sub}`;
    let result = workspaceMemo.get(key);
    if (!result) {
      result = resolveWorkspaceUncached(name, member, sub);
      workspaceMemo.set(key, result);
    }
    return result;
  }

  function resolveWorkspaceUncached(name: string, member: WorkspaceMember, sub: string): Resolution {
    const { dir, manifest } = member;
    const subpath = `.${sub}`;
    if (member.twin !== undefined) return { kind: 'missing', why: `two workspace packages are named ${name} (${dir} and ${member.twin}), which package managers refuse` };
    const candidates: string[] = [];
    if (manifest.exports !== undefined && manifest.exports !== null) {
      const exportsMap = isRecord(manifest.exports) && Object.keys(manifest.exports).some((key) => key.startsWith('.')) ? manifest.exports : { '.': manifest.exports };
      const patterns = Object.keys(exportsMap).flatMap((key) => keyPattern(key) ?? []);
      const match = matchKey(patterns, subpath);
      if (!match) return { kind: 'missing', why: `the workspace package ${name} (${dir}) exports no '${subpath}'` };
      collectTargets(exportsMap[match.pattern.key], match.star, dir, candidates);
    } else if (sub === '') {
      candidates.push(...directoryCandidates(dir));
    } else {
      const target = join(dir, sub.slice(1));
      candidates.push(...fileCandidates(target, true), ...directoryCandidates(target));
    }
    const hit = pickCandidate(candidates, files) ?? pickCandidate(candidates.flatMap((candidate) => sourceCandidates(dir, candidate)), files);
    if (hit !== undefined) return { kind: 'file', path: hit };
    return { kind: 'missing', why: `the workspace package ${name} (${dir}) has no file in the repository for '${subpath}' (looked for ${describeEntry(manifest)}, and for its sources)` };
  }

  /**
   * An entry in the package's build output, mapped back to where its sources
   * would be: by the package tsconfig (outDir → rootDir) when it compiles to
   * an outDir, then from a usual build directory to src/ and to the package
   * root (a bundler's own config, tsdown or tsup, is not read).
   */
  function sourceCandidates(dir: string, candidate: string): string[] {
    const inPackage = dir === '' ? candidate : candidate.startsWith(`${dir}/`) ? candidate.slice(dir.length + 1) : null;
    if (inPackage === null) return [];
    const options = packageCompilerOptions(dir);
    const pairs: [string, string][] = [];
    if (typeof options?.outDir === 'string' && options.noEmit !== true) pairs.push([join('', options.outDir), typeof options.rootDir === 'string' ? join('', options.rootDir) : 'src']);
    for (const build of BUILD_DIRS) pairs.push([build, 'src'], [build, '']);
    const out: string[] = [];
    for (const [outDir, rootDir] of pairs) {
      if (outDir === '' || !inPackage.startsWith(`${outDir}/`)) continue;
      // A build renames as it compiles (src/index.ts → dist/index.mjs, index.d.cts): the source is found by its stem.
      const source = join(join(dir, rootDir), inPackage.slice(outDir.length + 1)).replace(BUILT_EXTENSION, '');
      out.push(...fileCandidates(source, false), ...fileCandidates(join(source, 'index'), false));
    }
    return out;
  }

  function packageCompilerOptions(dir: string): Record<string, unknown> | undefined {
    if (compilerOptionsByDir.has(dir)) return compilerOptionsByDir.get(dir);
    const rel = join(dir, 'tsconfig.json');
    const text = files.has(rel) ? readFile(rel) : undefined;
    const options = text === undefined ? undefined : parseJson(text)?.compilerOptions;
    const result = isRecord(options) ? options : undefined;
    compilerOptionsByDir.set(dir, result);
    return result;
  }

  function readPackageJson(dir: string): Record<string, unknown> | undefined {
    const rel = join(dir, 'package.json');
    if (packageJsons.has(rel)) return packageJsons.get(rel);
    const text = files.has(rel) ? readFile(rel) : undefined;
    const json = text === undefined ? undefined : parseJson(text);
    packageJsons.set(rel, json);
    return json;
  }

  function readConfigChain(rel: string, leafDir: string, chain: ReadonlySet<string>): RawPaths {
    const result: RawPaths = { baseUrl: undefined, paths: undefined };
    const text = chain.has(rel) ? undefined : readFile(rel);
    const json = text === undefined ? undefined : parseJson(text);
    if (!json) return result;
    const dir = dirOf(rel);
    const nextChain = new Set(chain).add(rel);
    const bases: unknown[] = typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : [];
    // Later bases override earlier ones, and the config itself overrides them all.
    for (const base of bases) {
      const target = typeof base === 'string' ? locateExtends(base, dir) : undefined;
      if (target === undefined) continue;
      const inherited = readConfigChain(target, leafDir, nextChain);
      result.baseUrl = inherited.baseUrl ?? result.baseUrl;
      result.paths = inherited.paths ?? result.paths;
    }
    const options = json.compilerOptions;
    if (isRecord(options)) {
      if (typeof options.baseUrl === 'string') {
        const { baseUrl } = options;
        result.baseUrl = baseUrl.startsWith(CONFIG_DIR) ? join(leafDir, `.${baseUrl.slice(CONFIG_DIR.length)}`) : join(dir, baseUrl);
      }
      if (isRecord(options.paths)) result.paths = { entries: options.paths, declaredIn: dir };
    }
    return result;
  }

  function locateExtends(specifier: string, dir: string): string | undefined {
    // A shared config package (`@tsconfig/node20`) lives in node_modules, outside
    // the discovered files: it is skipped, and such presets rarely set paths.
    if (!isRelative(specifier) && !specifier.startsWith('/')) return undefined;
    const rel = specifier.startsWith('/') ? posix.relative(toPosix(root), specifier) : join(dir, specifier);
    return [rel, `${rel}.json`].find((candidate) => files.has(candidate));
  }

  function compilerPathsFor(dir: string): CompilerPaths {
    const known = configForDir.get(dir);
    if (known) return known;
    const tsconfig = join(dir, 'tsconfig.json');
    let found: CompilerPaths;
    if (files.has(tsconfig)) {
      const raw = readConfigChain(tsconfig, dir, new Set());
      // Without baseUrl, targets are relative to the config that declared `paths`.
      const base = raw.baseUrl ?? raw.paths?.declaredIn ?? dir;
      found = { baseUrl: raw.baseUrl, mappings: raw.paths && parseMappings(raw.paths.entries, base, dir) };
    } else {
      found = dir === '' ? { baseUrl: undefined, mappings: undefined } : compilerPathsFor(dirOf(dir));
    }
    configForDir.set(dir, found);
    return found;
  }

  function directoryCandidates(dir: string): string[] {
    const out: string[] = [];
    const manifest = readPackageJson(dir);
    if (manifest) {
      for (const field of ['typings', 'types', 'main']) {
        const value = manifest[field];
        if (typeof value !== 'string' || value === '') continue;
        const target = join(dir, value);
        if (TS_EXTENSION.test(target)) out.push(target);
        out.push(...fileCandidates(target, false), ...fileCandidates(join(target, 'index'), false));
      }
    }
    out.push(...fileCandidates(join(dir, 'index'), false));
    return out;
  }

  function loadPath(candidate: string, directoryOnly: boolean): Resolution | undefined {
    if (escapesRoot(candidate)) return undefined;
    const candidates = directoryOnly ? [] : fileCandidates(candidate, true);
    candidates.push(...directoryCandidates(candidate));
    const hit = pickCandidate(candidates, files);
    return hit === undefined ? undefined : { kind: 'file', path: hit };
  }

  function resolveImportsField(fromDir: string, specifier: string): Resolution {
    // The nearest package.json is the scope, whether or not it has `imports`.
    for (let dir = fromDir; ; dir = dirOf(dir)) {
      const manifest = readPackageJson(dir);
      if (manifest) {
        if (!isRecord(manifest.imports)) return MISSING;
        const { imports } = manifest;
        const patterns = Object.keys(imports).flatMap((key) => keyPattern(key) ?? []);
        const match = matchKey(patterns, specifier);
        if (!match) return MISSING;
        const candidates: string[] = [];
        const external = collectTargets(imports[match.pattern.key], match.star, dir, candidates);
        const hit = pickCandidate(candidates, files);
        if (hit !== undefined) return { kind: 'file', path: hit };
        return external ?? MISSING;
      }
      if (dir === '') return MISSING;
    }
  }

  /** Gathers file candidates of an imports-map target; returns a package it names, if any. */
  function collectTargets(target: unknown, star: string, dir: string, out: string[]): Resolution | undefined {
    if (typeof target === 'string') {
      const substituted = target.replaceAll('*', star);
      if (!substituted.startsWith('./')) return isRelative(substituted) ? undefined : { kind: 'package', name: packageName(substituted) };
      const file = join(dir, substituted);
      if (TS_EXTENSION.test(file)) out.push(file);
      out.push(...fileCandidates(file, true));
      return undefined;
    }
    let external: Resolution | undefined;
    if (Array.isArray(target)) {
      for (const item of target) external ??= collectTargets(item, star, dir, out);
    } else if (isRecord(target)) {
      for (const [condition, value] of Object.entries(target)) {
        if (CONDITIONS.has(condition)) external ??= collectTargets(value, star, dir, out);
      }
    }
    return external;
  }

  function resolveUncached(fromDir: string, specifier: string): Resolution {
    if (specifier === '') return MISSING;
    // `node:fs`, `bun:test`, `virtual:x`: a module the runtime or a tool provides.
    if (/^[a-z][a-z0-9+.-]+:/i.test(specifier)) return { kind: 'package', name: specifier };
    // `./dir/`, `.` and `..` name a directory, never a file (normalizePathForCJSResolution).
    const directoryOnly = /(?:^|\/)(?:\.\.?)?$/.test(specifier);
    if (isRelative(specifier)) {
      return loadPath(join(fromDir, specifier), directoryOnly) ?? MISSING;
    }
    if (specifier.startsWith('/')) {
      const rel = posix.relative(toPosix(root), specifier);
      return escapesRoot(rel) ? MISSING : (loadPath(rel, directoryOnly) ?? MISSING);
    }
    if (specifier.startsWith('#')) return resolveImportsField(fromDir, specifier);

    const { baseUrl, mappings } = compilerPathsFor(fromDir);
    const match = mappings ? matchKey(mappings, specifier) : undefined;
    if (match) {
      for (const target of match.pattern.targets) {
        const candidate = target.replace('*', match.star);
        // A mapping may name a file with its extension, which an import would not.
        if (files.has(candidate) && /\.[^./]+$/.test(target)) return { kind: 'file', path: candidate };
        const found = loadPath(candidate, false);
        if (found) return found;
      }
    }
    if (baseUrl !== undefined) {
      const found = loadPath(join(baseUrl, specifier), directoryOnly);
      if (found) return found;
    }
    // After `paths`, where a package manager links the workspace packages (node_modules).
    const name = packageName(specifier);
    const member = workspaceMembers().get(name);
    if (member) return resolveWorkspace(name, member, specifier.slice(name.length));
    // A mapped alias that resolves nowhere is a broken import, not a package;
    // a catch-all `*` mapping, though, also sees every real package.
    if (match && match.pattern.prefix !== '') return MISSING;
    return { kind: 'package', name };
  }

  return {
    resolve(fromFile, specifier) {
      const fromDir = dirOf(fromFile);
      let byDir = memo.get(fromDir);
      if (!byDir) {
        byDir = new Map();
        memo.set(fromDir, byDir);
      }
      let result = byDir.get(specifier);
      if (!result) {
        result = resolveUncached(fromDir, specifier);
        byDir.set(specifier, result);
      }
      return result;
    },
  };
}

/** The entry fields a package.json sets, for a message. */
function describeEntry(manifest: Record<string, unknown>): string {
  const fields = ['exports', 'types', 'typings', 'main'].filter((field) => manifest[field] !== undefined);
  return fields.length === 0 ? 'index' : `its ${fields.join(', ')}`;
}
