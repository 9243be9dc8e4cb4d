import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
}

export interface FactCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  /** Writes the entries used by this run, if anything changed; never throws. */
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A per-file fact cache: one JSON file mapping a caller-supplied content key
 * to a JSON-serializable value. What invalidates an entry: a different key
 * (the content changed), a different `version` (another file name), or not
 * being used by the last run that wrote the file (pruned on save).
 */
export function openFactCache<T>(options: FactCacheOptions<T>): FactCache<T> {
  const stats = { hits: 0, misses: 0 };
  if (!options.enabled) {
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

  const dir = cacheDirectory(options.root, options.location);
  const file = path.join(dir, `facts-${options.version.replace(/[^\w.-]/g, '_')}.json`);
  // Without a validator the version in the file name is the contract: the
  // caller bumps it whenever the shape of T changes.
  const accept = options.validate ?? ((value: unknown): value is T => value !== undefined);
  let stored: Map<string, T> | undefined;
  /** Entries this run used or produced: exactly what save() keeps. */
  const touched = new Map<string, T>();
  let changed = false;

  function load(): Map<string, T> {
    if (stored) return stored;
    stored = new Map();
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return stored;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (!isRecord(data)) {
      // Corrupt: start over, and replace the file at the next save.
      changed = true;
      return stored;
    }
    const loaded = new Map<string, T>();
    for (const [key, value] of Object.entries(data)) {
      if (!accept(value)) {
        changed = true;
        return stored;
      }
      loaded.set(key, value);
    }
    stored = loaded;
    return stored;
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
      if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(value)) changed = true;
      touched.set(key, value);
    },
    save() {
      if (!changed) return;
      const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(temp, JSON.stringify(Object.fromEntries(touched)));
        // rename is atomic within a directory: a concurrent run reads the old file or the new one, never half of one.
        renameSync(temp, file);
        stored = new Map(touched);
        changed = false;
      } catch {
        try {
          rmSync(temp, { force: true });
        } catch {
          // The directory itself is unusable; the cache is skipped for this run.
        }
      }
    },
    stats,
    file,
  };
}
