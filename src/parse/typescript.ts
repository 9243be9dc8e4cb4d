import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { runCommonJs, type CodeCacheState, type CompiledModule } from '../util/code-cache.js';

export type TypeScript = typeof TS;

let loaded: TypeScript | undefined;
let codeCacheOn = false;
/** The compiler as run from its source (runCommonJs), whose compiled code is kept once the parser has run (its functions compile lazily, on first use). */
let compiled: CompiledModule | null = null;

/**
 * The compiler is loaded on first use only: a warm run (every fact cached)
 * never pays for it. It is run from its source as a CommonJS module would
 * be, its text read as bytes (util/code-cache.ts, sourceText): `require`
 * would decode its 9 MB as UTF-8, about 100 ms of a cold run's load and first
 * parse (measured on 2 cores, 2026-12-06: 460 → 345 ms, 5 alternating
 * processes each). With the code cache on (useCodeCache), V8's compiled code
 * of an earlier run spares most of the rest. `require` is the fallback when
 * anything is amiss.
 */
export function loadTypeScript(): TypeScript {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const file = require.resolve('typescript');
    try {
      compiled = runCommonJs(file, 'typescript', codeCacheOn);
      loaded = compiled.exports as TypeScript;
    } catch {
      compiled = null;
      loaded = require('typescript') as TypeScript;
    }
  }
  return loaded;
}

/** Keep V8's compiled code of the compiler between runs (util/code-cache.ts); off with `--no-cache`. */
export function useCodeCache(on: boolean): void {
  codeCacheOn = on;
}

export function usesCodeCache(): boolean {
  return codeCacheOn;
}

/** What became of the compiled compiler this process looked for: for --stats and the tests. */
export function codeCache(): Exclude<CodeCacheState, 'missing'> {
  const state = compiled?.state() ?? 'off';
  return state === 'missing' ? 'off' : state;
}

/** Writes the compiled compiler once the parser has run: the functions it compiled on first use are in it. */
function keepCompiled(): void {
  compiled?.keep(1);
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
