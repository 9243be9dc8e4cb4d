import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheSecret, sealed, unsealed, type CacheSecret } from '../util/cache-secret.js';
import { writeFileAtomic } from '../util/fs.js';
import { isRecord } from '../util/guards.js';

export interface FactCacheOptions<T> {
  /** The checked repository's root. */
  root: string;
  /** Tool and extractor version: facts written under another version are never read. */
  version: string;
  /** False (`--no-cache`): nothing is read or written. */
  enabled: boolean;
  /** Directory to use instead of the default (see cacheDirectory). */
  location?: string;
  /** Checks each stored value; one that fails discards the whole file. */
  validate?: (value: unknown) => value is T;
  /** The key entries are authenticated with (default: the user's, cacheSecret()). */
  secret?: CacheSecret;
}

export interface FactCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  /**
   * Writes what this run added, if anything: appended to a log next to the
   * file, or, once enough of the file went unused or the log grew, the file
   * rewritten with exactly the entries this run used. Never throws.
   */
  save(): void;
  readonly stats: { hits: number; misses: number };
  /** The cache file, null when the cache is disabled. */
  readonly file: string | null;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where the cache lives: `location` if given; else `node_modules/.cache/tripwire`
 * when the repository has node_modules (the convention other tools follow);
 * else a per-repository directory under `~/.cache/tripwire`, because a checker
 * must not create node_modules in the repository it checks.
 */
export function cacheDirectory(root: string, location?: string): string {
  if (location !== undefined) return path.resolve(location);
  const nodeModules = path.join(root, 'node_modules');
  if (isDirectory(nodeModules)) return path.join(nodeModules, '.cache', 'tripwire');
  const id = createHash('sha1').update(path.resolve(root)).digest('hex').slice(0, 12);
  return path.join(os.homedir(), '.cache', 'tripwire', id);
}

/** Reads and writes nothing: every get is a miss. */
function noCache<T>(): FactCache<T> {
  const stats = { hits: 0, misses: 0 };
  return {
    get() {
      stats.misses++;
      return undefined;
    },
    set() {},
    save() {},
    stats,
    file: null,
  };
}

/**
 * A per-file fact cache: one JSON file mapping a caller-supplied content key
 * to a JSON-serializable value, plus a log of entries added since. What
 * invalidates an entry: a different key (the content changed), a different
 * `version` (another file name), or not being used by the last run that
 * rewrote the file (pruned then).
 *
 * The file and each log line are sealed with an HMAC under the user's cache
 * secret: a file or line whose MAC does not verify (forged, torn, written
 * under another key) is a miss, and the file is replaced at the next save.
 * Without a secret that outlives the run nothing could be verified later, so
 * nothing is read or written.
 */
export function openFactCache<T>(options: FactCacheOptions<T>): FactCache<T> {
  if (!options.enabled) return noCache();
  const secret = options.secret ?? cacheSecret();
  if (!secret.persistent) return noCache();
  const stats = { hits: 0, misses: 0 };

  const dir = cacheDirectory(options.root, options.location);
  const base = `facts-${options.version.replace(/[^\w.-]/g, '_')}`;
  const file = path.join(dir, `${base}.json`);
  // Entries added since the file was last written, one JSON line each: a run
  // that parsed a few files appends them instead of rewriting every entry.
  const log = path.join(dir, `${base}.log`);
  // What each MAC is bound to: a sealed log line cannot pass for a file, nor one version's file for another's.
  const fileContext = `tripwire-facts ${base}`;
  const logContext = `tripwire-facts-log ${base}`;
  // Without a validator the version in the file name is the contract: the
  // caller bumps it whenever the shape of T changes.
  const accept = options.validate ?? ((value: unknown): value is T => value !== undefined);
  let stored: Map<string, T> | undefined;
  /** Entries in the log when it was read: past a quarter of the file, the next save rewrites the file. */
  let logged = 0;
  /** Entries this run used or produced: exactly what a rewrite keeps. */
  const touched = new Map<string, T>();
  /** Entries this run produced or changed: what an append writes. */
  const fresh = new Map<string, T>();
  let corrupt = false;

  function load(): Map<string, T> {
    if (stored) return stored;
    stored = new Map();
    let text: string;
    try {
      // Written as ASCII (asciiJson): read as Latin-1, which costs half of UTF-8 decoding.
      text = readFileSync(file, 'latin1');
    } catch {
      return stored;
    }
    let data: unknown;
    const json = unsealed(secret, fileContext, text);
    try {
      data = json === null ? undefined : JSON.parse(json);
    } catch {
      data = undefined;
    }
    if (!isRecord(data)) {
      // Corrupt or not ours: start over, and replace the file at the next save.
      corrupt = true;
      return stored;
    }
    const loaded = new Map<string, T>();
    for (const [key, value] of Object.entries(data)) {
      if (!accept(value)) {
        corrupt = true;
        return stored;
      }
      loaded.set(key, value);
    }
    for (const [key, value] of readLog()) loaded.set(key, value);
    stored = loaded;
    return stored;
  }

  /** The log's entries in order; a line that is cut short, forged or fails validation is skipped (it is only a miss). */
  function readLog(): [string, T][] {
    let text: string;
    try {
      text = readFileSync(log, 'latin1');
    } catch {
      return [];
    }
    const entries: [string, T][] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      logged++;
      const json = unsealed(secret, logContext, line);
      if (json === null) continue;
      try {
        const entry: unknown = JSON.parse(json);
        if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && accept(entry[1])) entries.push([entry[0], entry[1]]);
      } catch {
        // A torn line: skipped.
      }
    }
    return entries;
  }

  function rewrite(): void {
    try {
      // A concurrent run reads the old file or the new one, never half of one.
      writeFileAtomic(file, sealed(secret, fileContext, asciiJson(Object.fromEntries(touched))));
      rmSync(log, { force: true });
      stored = new Map(touched);
      logged = 0;
      corrupt = false;
    } catch {
      // The directory itself is unusable; the cache is skipped for this run.
    }
  }

  return {
    get(key) {
      const value = touched.get(key) ?? load().get(key);
      if (value === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      touched.set(key, value);
      return value;
    },
    set(key, value) {
      const previous = touched.get(key) ?? load().get(key);
      if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(value)) fresh.set(key, value);
      touched.set(key, value);
    },
    save() {
      const known = load();
      if (fresh.size === 0 && !corrupt) return;
      // Rewrite (which prunes what this run did not use) when a quarter of the
      // entries went unused or the log has grown past a quarter of the file;
      // else append. Keys name their content, so whatever a concurrent run
      // appends or rewrites meanwhile is still right: at worst an entry is lost.
      let unused = 0;
      for (const key of known.keys()) if (!touched.has(key)) unused++;
      if (corrupt || known.size === 0 || unused * 4 > known.size || (logged + fresh.size) * 4 > known.size) {
        rewrite();
      } else {
        try {
          // The leading newline ends a line a cut-short write may have left open.
          appendFileSync(log, `\n${[...fresh].map((entry) => sealed(secret, logContext, asciiJson(entry))).join('\n')}\n`);
          for (const [key, value] of fresh) known.set(key, value);
          logged += fresh.size;
        } catch {
          // Unwritable: the entries are parsed again next time.
        }
      }
      fresh.clear();
    },
    stats,
    file,
  };
}

/**
 * JSON with every character past ASCII written as a `\\u` escape: the same
 * value once parsed, and a file whose bytes are its characters, so it can be
 * read without UTF-8 decoding.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
