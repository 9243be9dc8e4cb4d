import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheKeyFile, cacheSecret, sealedBytes, unsealedBytes } from './cache-secret.js';
import { writeFileAtomic } from './fs.js';

// V8's compiled code of a large script, kept between runs: a process that
// runs the script from its source with the code an earlier run compiled
// skips most of the parsing and compiling (Node 20 has no compile cache of
// its own; module.enableCompileCache is 22's). Used for the compiler
// (parse/typescript.ts) and the CLI's bundle (cli/launch.ts). Compiled code is
// code: it is kept in the user's cache directory beside the cache key, sealed
// with it like every other cache, so only this user's runs can have written it.

/** What became of the compiled code: none looked for, an earlier run's used, none usable yet, or this run's written (or not writable). */
export type CodeCacheState = 'off' | 'used' | 'missing' | 'created' | 'unwritable';

/**
 * In every key: a file of another format (1: the compiler's code alone, before
 * the breadth byte) is another file, so that two installs of tripwire sharing
 * one compiler never overwrite each other's.
 */
const FORMAT = 2;

/** Compiled files kept per name: a reinstall (or rebuild) leaves the last one's behind. */
const KEPT_PER_NAME = 4;

export interface CompiledModule {
  /** What the CommonJS script put in `module.exports`. */
  exports: unknown;
  state(): CodeCacheState;
  /** The breadth (keep) of the run that kept the code used, or -1 when none was used. */
  breadth: number;
  /**
   * Keeps the code compiled so far (the functions run so far are in it) when
   * none was used, or the one used came from a narrower run (`breadth`, the
   * caller's measure of how much of the script a run exercises); never throws.
   */
  keep(breadth: number): void;
}

/**
 * Runs the CommonJS script `file` as `require` would, from its source, with
 * the compiled code an earlier run kept under `name` when `codeCache` is on.
 * Throws when the script cannot be read or run (the caller requires it instead).
 */
export function runCommonJs(file: string, name: string, codeCache: boolean): CompiledModule {
  const kept = codeCache ? compiledCode(file, name) : null;
  const cachedData = kept?.cachedData;
  const script = new Script(Module.wrap(sourceText(readFileSync(file))), { filename: file, ...(cachedData && { cachedData }) });
  // The CommonJS wrapper's arguments, as require() passes them.
  const module: { exports: unknown } = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const used = cachedData !== undefined && !script.cachedDataRejected;
  let state: CodeCacheState = kept === null ? 'off' : used ? 'used' : 'missing';
  const breadth = used ? (kept?.breadth ?? -1) : -1;
  return {
    exports: module.exports,
    state: () => state,
    breadth,
    keep(wanted) {
      if (kept === null || wanted <= breadth || state === 'created' || state === 'unwritable') return;
      try {
        const header = Buffer.from([wanted & 0xff]);
        writeFileAtomic(kept.file, sealedBytes(cacheSecret(), kept.context, Buffer.concat([header, script.createCachedData()])));
        state = 'created';
        prune(dirname(kept.file), name, kept.file);
      } catch {
        state = 'unwritable';
      }
    },
  };
}

/** Where the compiled code of `file` is kept, and what an earlier run kept there (with its breadth), if it verifies; null without a secret that outlives the run. */
function compiledCode(file: string, name: string): { file: string; context: string; cachedData: Buffer | undefined; breadth: number } | null {
  const secret = cacheSecret();
  if (!secret.persistent) return null;
  const stat = statSync(file);
  // V8 checks the code against the source's length, not its content: the key names the very file (a reinstall changes its ctime).
  const key = createHash('sha1').update(`${FORMAT} ${process.version} ${process.arch} ${file} ${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeMs} ${stat.ctimeMs}`).digest('hex');
  const cacheFile = join(dirname(cacheKeyFile()), 'compiled', `${name}-${key}.bin`);
  const context = `tripwire-compiled ${name} ${key}`;
  let record: Buffer | null = null;
  try {
    record = unsealedBytes(secret, context, readFileSync(cacheFile));
  } catch {
    record = null;
  }
  if (record === null || record.length < 2) return { file: cacheFile, context, cachedData: undefined, breadth: -1 };
  return { file: cacheFile, context, cachedData: record.subarray(1), breadth: record[0] ?? -1 };
}

/** Removes all but the KEPT_PER_NAME newest compiled files of `name` (never `current`): each install or build compiles to a file of its own. */
function prune(dir: string, name: string, current: string): void {
  try {
    const files = readdirSync(dir)
      .filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.bin'))
      .map((entry) => ({ path: join(dir, entry), at: statSync(join(dir, entry)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { path } of files.slice(KEPT_PER_NAME)) if (path !== current) rmSync(path, { force: true });
  } catch {
    // Another run pruned first: nothing to keep tidy.
  }
}

/**
 * A script's source as a string. A bundle is most often ASCII: decoded as
 * Latin-1, which for ASCII is the same text, it is a plain copy where UTF-8
 * decoding of the compiler's 9 MB takes tens of milliseconds more; any other
 * bytes are decoded as UTF-8.
 */
export function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
