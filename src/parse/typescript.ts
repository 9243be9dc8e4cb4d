import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type * as TS from 'typescript';
import { cacheKeyFile, cacheSecret, sealedBytes, unsealedBytes } from '../util/cache-secret.js';
import { writeFileAtomic } from '../util/fs.js';

export type TypeScript = typeof TS;

let loaded: TypeScript | undefined;
let codeCacheOn = false;
/** What became of the compiled compiler this process looked for (useCodeCache): for --stats and the tests. */
let codeCacheState: 'off' | 'used' | 'created' | 'unwritable' = 'off';
/** The compiled script to keep once the parser has run (its functions compile lazily, on first use). */
let pending: { script: Script; file: string; context: string } | null = null;

/**
 * The compiler is loaded on first use only: a warm run (every fact cached)
 * never pays for it. It is run from its source as a CommonJS module would
 * be, its text read as bytes (sourceText): `require` would decode its 9 MB
 * as UTF-8, about 100 ms of a cold run's load and first parse (measured on
 * 2 cores, 2026-12-06: 460 → 345 ms, 5 alternating processes each). With the
 * code cache on (useCodeCache), V8's compiled code of an earlier run spares
 * most of the rest. `require` is the fallback when anything is amiss.
 */
export function loadTypeScript(): TypeScript {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const ts: TypeScript = loadFromSource(require.resolve('typescript')) ?? require('typescript');
    loaded = ts;
  }
  return loaded;
}

/**
 * Keep V8's compiled code of the compiler between runs, in the user's cache
 * directory beside the cache key, sealed with it like every other cache:
 * compiled code is code, and only this user's runs can have written it.
 * Node 20 has no compile cache of its own (module.enableCompileCache is 22's).
 */
export function useCodeCache(on: boolean): void {
  codeCacheOn = on;
}

export function usesCodeCache(): boolean {
  return codeCacheOn;
}

export function codeCache(): typeof codeCacheState {
  return codeCacheState;
}

/** The compiler run from its source, with the compiled code of an earlier run when the code cache is on; null when anything is amiss (the caller requires it). */
function loadFromSource(file: string): TypeScript | null {
  try {
    const kept = codeCacheOn ? compiledCode(file) : null;
    const cachedData = kept?.cachedData;
    const script = new Script(Module.wrap(sourceText(readFileSync(file))), { filename: file, ...(cachedData && { cachedData }) });
    // The CommonJS wrapper's arguments, as require() passes them.
    const module: { exports: unknown } = { exports: {} };
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
    if (kept) {
      if (cachedData && !script.cachedDataRejected) codeCacheState = 'used';
      else pending = { script, file: kept.file, context: kept.context };
    }
    return module.exports as TypeScript;
  } catch {
    return null;
  }
}

/** Where the compiled code of `file` is kept, and what an earlier run kept there, if it verifies; null without a secret that outlives the run. */
function compiledCode(file: string): { file: string; context: string; cachedData: Buffer | undefined } | null {
  const secret = cacheSecret();
  if (!secret.persistent) return null;
  const stat = statSync(file);
  // V8 checks the code against the source's length, not its content: the key names the very file (a reinstall changes its ctime).
  const key = createHash('sha1').update(`${process.version} ${process.arch} ${file} ${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeMs} ${stat.ctimeMs}`).digest('hex');
  const cacheFile = join(dirname(cacheKeyFile()), 'compiled', `typescript-${key}.bin`);
  const context = `tripwire-compiled ${key}`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = unsealedBytes(secret, context, readFileSync(cacheFile)) ?? undefined;
  } catch {
    cachedData = undefined;
  }
  return { file: cacheFile, context, cachedData };
}

/**
 * The compiler's source as a string. Its bundle is ASCII (9 MB): decoded as
 * Latin-1, which for ASCII is the same text, it is a copy (about 1 ms) where
 * UTF-8 decoding takes tens of milliseconds; any other bytes are decoded as
 * UTF-8.
 */
export function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Writes the compiled compiler once the parser has run: the functions it compiled on first use are in it. */
function keepCompiled(): void {
  const kept = pending;
  if (kept === null) return;
  pending = null;
  try {
    writeFileAtomic(kept.file, sealedBytes(cacheSecret(), kept.context, kept.script.createCachedData()));
    codeCacheState = 'created';
  } catch {
    codeCacheState = 'unwritable';
  }
}

export function isTypeScriptLoaded(): boolean {
  return loaded !== undefined;
}

export { isScriptFile } from '../util/file-kinds.js';

export function scriptKindOf(ts: TypeScript, path: string): TS.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

export interface ParseOptions {
  /** false leaves out the parent pointers, for a caller that sets them as it walks the tree (facts/walk.ts). */
  parents?: boolean;
  /** false leaves `/** … *\/` comments unparsed, for a caller that never reads `node.jsDoc` (the code's own syntax and its parse errors are the same). */
  jsDoc?: boolean;
}

export function parseScript(path: string, text: string, options: ParseOptions = {}): TS.SourceFile {
  const ts = loadTypeScript();
  const jsDocParsingMode = options.jsDoc === false ? ts.JSDocParsingMode.ParseNone : ts.JSDocParsingMode.ParseAll;
  const sourceFile = ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode }, options.parents ?? true, scriptKindOf(ts, path));
  keepCompiled();
  return sourceFile;
}

/** The parser's own syntax errors; not part of the public API, so read defensively. */
export function syntaxErrors(sourceFile: TS.SourceFile): readonly TS.DiagnosticWithLocation[] {
  if ('parseDiagnostics' in sourceFile && Array.isArray(sourceFile.parseDiagnostics)) {
    return sourceFile.parseDiagnostics;
  }
  return [];
}

/**
 * Why parsing a file ran out of stack, or null for any other error. The
 * compiler's parser and every walk over its tree recurse once per level of
 * nesting: about 800 nested parentheses or 1000 nested object literals
 * exhaust the default stack, and the RangeError would end the whole run.
 */
export function outOfStack(error: unknown): string | null {
  if (!(error instanceof RangeError)) return null;
  return /call stack/i.test(error.message) ? 'nested too deeply to parse (the parser ran out of stack)' : `the parser failed: ${error.message}`;
}

/** What `read` makes of a parse, or `fallback` when the file is nested deeper than the parser (or a walk over its tree) goes. */
export function unlessTooDeep<T>(fallback: T, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (outOfStack(error) === null) throw error;
    return fallback;
  }
}
