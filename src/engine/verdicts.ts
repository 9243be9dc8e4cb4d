import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FileProblem, RepoModel } from '../model/model.js';
import type { Reads } from '../model/reads.js';
import { cacheSecret, sealed, unsealed, type CacheSecret } from '../util/cache-secret.js';
import { writeFileAtomic } from '../util/fs.js';
import { VERSION } from '../version.js';
import { toolFingerprint } from './fingerprint.js';

// Verdicts a later run reuses, rule by rule. A rule's findings are a function
// of the model's state (configuration, listing, workspace: RepoModel.stateDigest),
// the rule's options and the content of the files it read, which the model
// records (model/reads.ts). A run stores each rule's findings with the files
// it read and the problems those reads recorded; a later run in the same
// state takes them back while every one of those files has the same content,
// and evaluates only the rules that read a changed file. A new, deleted or
// renamed file changes the listing, and with it every key.

// 3: with the scripts each verdict loaded the facts of, and the state of each entry.
const FORMAT = 3;
/**
 * States whose verdicts are kept, the most recently used first: the listings
 * a user moves between (before and after adding a file, another branch) and,
 * at a workspace root, one per package with its own configuration.
 */
const MAX_STATES = 16;

interface Entry {
  key: string;
  /** The state the key was made under (its first part). */
  state: string;
  rule: string;
  /** The files read, as indexes into the listing (the key fixes it) or, outside it, as paths. */
  listed: number[];
  other: string[];
  /** Of every read file with its content id: what must be the same for the findings to be. */
  digest: string;
  /** The scripts whose facts it loaded, as `listed` names files: a run checks their suppression comments. */
  loaded: (number | string)[];
  /** The rule's findings (or the core checks'), as it produced them. */
  findings: unknown[];
  problems: FileProblem[];
}

export interface VerdictStore {
  /** The findings `rule` gave with these options when every file it read had its content now; its problems are recorded again in the model. */
  reuse<T>(rule: string, options: unknown): T[] | null;
  /** Keeps a rule's findings with what computing them read. */
  keep(rule: string, options: unknown, findings: readonly unknown[], reads: Reads<FileProblem>): void;
  /** Writes the kept verdicts; never throws. */
  save(): void;
}

/**
 * The store in the cache directory `dir`, for this model's state and the
 * configuration file's bytes (`config`: its blob id, or null without one);
 * null when the user's cache secret does not outlive the run.
 */
export function openVerdicts(model: RepoModel, dir: string, config: string | null, secret: CacheSecret = cacheSecret()): VerdictStore | null {
  if (!secret.persistent) return null;
  const file = join(dir, `verdicts-${VERSION.replace(/[^\w.-]/g, '_')}.json`);
  const context = `tripwire-verdicts ${basename(file)}`;
  const state = createHash('sha1').update(`${FORMAT} ${VERSION} ${toolFingerprint()}\0${model.stateDigest()}\0${config ?? '-'}`).digest('hex');
  const index = new Map(model.files.map((path, i) => [path, i]));
  const ids = new Map<string, string | null>();
  const idOf = (path: string): string | null => {
    if (!ids.has(path)) ids.set(path, model.contentId(path));
    return ids.get(path) ?? null;
  };
  const pathsOf = (listed: readonly number[], other: readonly string[]): string[] => [...listed.map((i) => model.files[i] ?? ''), ...other];
  const digestOf = (paths: readonly string[]): string => createHash('sha1').update(paths.map((path) => `${path}\0${idOf(path) ?? '-'}\n`).join('')).digest('hex');
  const keyOf = (rule: string, options: unknown): string => createHash('sha1').update(`${state}\0${rule}\0${JSON.stringify(options ?? null)}`).digest('hex');
  const stored = readEntries(file, context, secret);
  const kept: Entry[] = [];

  return {
    reuse<T>(rule: string, options: unknown): T[] | null {
      const key = keyOf(rule, options);
      const entry = stored.find((candidate) => candidate.key === key);
      if (!entry) return null;
      if (digestOf(pathsOf(entry.listed, entry.other)) !== entry.digest) return null;
      model.replayVerdict(entry.problems, entry.loaded.map((at) => (typeof at === 'number' ? (model.files[at] ?? '') : at)));
      for (const path of entry.other) model.noteOutside(path, idOf(path));
      kept.push(entry);
      return entry.findings as T[];
    },
    keep(rule, options, findings, reads) {
      const listed: number[] = [];
      const other: string[] = [];
      for (const path of reads.files) {
        const at = index.get(path);
        if (at === undefined) other.push(path);
        else listed.push(at);
      }
      listed.sort((a, b) => a - b);
      other.sort();
      kept.push({ key: keyOf(rule, options), state, rule, listed, other, digest: digestOf(pathsOf(listed, other)), loaded: [...reads.loaded].map((path) => index.get(path) ?? path), findings: [...findings], problems: [...reads.problems] });
    },
    save() {
      if (kept.length === 0) return;
      // Read again: another run (a workspace package's, a concurrent one) may have stored its own since.
      const current = readEntries(file, context, secret);
      const keys = new Set(kept.map((entry) => entry.key));
      const entries = [...kept, ...current.filter((entry) => !keys.has(entry.key))];
      const states = new Set<string>();
      const bounded = entries.filter((entry) => {
        if (states.size < MAX_STATES) states.add(entry.state);
        return states.has(entry.state);
      });
      try {
        writeFileAtomic(file, sealed(secret, context, JSON.stringify({ format: FORMAT, entries: bounded })));
      } catch {
        // An unusable cache directory: the next run evaluates every rule.
      }
    },
  };
}

function readEntries(file: string, context: string, secret: CacheSecret): Entry[] {
  try {
    // A file that does not verify (forged, torn, another key's) holds no verdict.
    const json = unsealed(secret, context, readFileSync(file, 'utf8'));
    if (json === null) return [];
    const data: unknown = JSON.parse(json);
    if (typeof data === 'object' && data !== null && 'format' in data && data.format === FORMAT && 'entries' in data && Array.isArray(data.entries)) return data.entries.filter(isEntry);
  } catch {
    // Missing or corrupt: no verdict is known.
  }
  return [];
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<Entry>;
  return (
    typeof entry.key === 'string' &&
    typeof entry.state === 'string' &&
    typeof entry.rule === 'string' &&
    typeof entry.digest === 'string' &&
    Array.isArray(entry.listed) &&
    entry.listed.every((i) => Number.isInteger(i)) &&
    Array.isArray(entry.other) &&
    entry.other.every((path) => typeof path === 'string') &&
    Array.isArray(entry.loaded) &&
    entry.loaded.every((at) => typeof at === 'string' || Number.isInteger(at)) &&
    Array.isArray(entry.findings) &&
    Array.isArray(entry.problems)
  );
}
