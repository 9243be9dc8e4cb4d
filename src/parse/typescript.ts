import { createRequire } from 'node:module';
import type * as TS from 'typescript';

export type TypeScript = typeof TS;

let loaded: TypeScript | undefined;

/**
 * The compiler is loaded on first use only: a warm run (every fact cached)
 * never pays for it. `createRequire` loads it in about a third of the time
 * of an ESM `import()` of the same CommonJS bundle.
 */
export function loadTypeScript(): TypeScript {
  if (!loaded) {
    const ts: TypeScript = createRequire(import.meta.url)('typescript');
    loaded = ts;
  }
  return loaded;
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

/** `parents: false` leaves out the parent pointers, for a caller that sets them as it walks the tree (facts/walk.ts). */
export function parseScript(path: string, text: string, parents = true): TS.SourceFile {
  const ts = loadTypeScript();
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, parents, scriptKindOf(ts, path));
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
