import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CheckOptions } from './index.js';
import { CONFIG_FILE_NAMES } from '../config/names.js';
import { declaresWorkspaces, findRoot, findWorkspaceRoot } from '../config/root.js';
import { cacheDirectory } from '../facts/cache.js';
import type { RuleMetaForReport } from '../report/index.js';
import { fileBlobId } from '../repo/blob-id.js';
import { cacheRefusal } from '../repo/cache-guard.js';
import { discoverFiles } from '../repo/files.js';
import { gitOutput } from '../repo/git.js';
import type { KnownIndex } from '../repo/diff.js';
import type { Finding, MapCoverage, Summary } from '../types.js';
import { cacheSecret, sealedFile, unsealedRecord, type CacheSecret } from '../util/cache-secret.js';
import { VERSION } from '../version.js';
import { writeFileAtomic } from '../util/fs.js';
import { toolFingerprint } from './fingerprint.js';

// The whole-run result cache. A check is a pure function of the files it
// lists, the files it read outside that listing, the configuration, the
// options and tripwire's own code; when none of them changed, the last verdict
// is the verdict, and a repeat run costs a git listing and a hash instead of
// loading every fact. This module is on the path of every warm run, so it
// imports nothing heavier than the listing itself.

/** Entries kept: one per recent combination of options (check, --staged, a rule, a path…). */
const MAX_ENTRIES = 8;
// 3: the file is sealed with an HMAC under the user's cache secret (src/util/cache-secret.ts).
const FORMAT = 3;

/** What a run produced, as the CLI reports it. */
export interface StoredRun {
  root: string;
  findings: Finding[];
  /** As computed; `ms` is the computing run's, and a cached report states its own. */
  summary: Summary;
  rules: RuleMetaForReport[];
  /** Stored when the computing run was asked for it (the markdown report); a run that needs it and finds none recomputes. */
  coverage?: MapCoverage;
}

interface Entry {
  key: string;
  /** Files read outside the listing (repo-relative), with the blob id of their content then; null when absent. */
  outside: [string, string | null][];
  run: StoredRun;
}

/** The options a verdict depends on (a type-only import: check.js is not loaded on a hit). */
export type ResultsOptions = Pick<CheckOptions, 'cwd' | 'configFile' | 'cacheLocation' | 'rules' | 'paths' | 'base' | 'staged' | 'baseline'> & { workspaces?: readonly string[] };

export interface ResultsProbe {
  /** The stored verdict for exactly these inputs, or null. */
  hit: StoredRun | null;
  /** The listing the key was computed from: the run on a miss uses it rather than listing again. */
  listing: { files: string[]; blobIds: Map<string, string>; unfollowed: Map<string, string>; gitlinks: string[] } | null;
  /** With `--staged`, what the key was computed from of the index (repo/diff.ts KnownIndex): the staged reader takes it on a miss. */
  index: KnownIndex | null;
  /** Records a run's verdict under this probe's key; never throws. */
  store(run: StoredRun, outside: ReadonlyMap<string, string | null>): void;
  /**
   * Why the cache directory must not be used (git tracks a file in it), or
   * null: when set, nothing was read and nothing is stored, and the run must
   * not use the fact cache either.
   */
  refused: string | null;
}

/** The root a check of these options loads its configuration at, and the workspace root it lists. */
export function checkedRoots(options: Pick<ResultsOptions, 'cwd' | 'configFile'>): { root: string; space: string } {
  const cwd = resolve(options.cwd);
  // Where loadConfig puts the root: the config file's directory, else the one findRoot finds.
  const root = options.configFile === undefined ? findRoot(cwd) : dirname(resolve(cwd, options.configFile));
  // A package of a monorepo follows imports into its siblings: the whole workspace is its input (engine/project.ts).
  return { root, space: findWorkspaceRoot(root) };
}

/**
 * Looks up the verdict of a previous run with the same inputs. Null when the
 * result cache does not apply: outside a git work tree (no cheap listing of
 * content ids), or when the state `--base` compares with cannot be resolved
 * (the run itself reports that). `roots`: checkedRoots(options), when the
 * caller has found them.
 */
export async function probeResults(options: ResultsOptions, roots: { root: string; space: string } = checkedRoots(options)): Promise<ResultsProbe | null> {
  const cwd = resolve(options.cwd);
  const { root, space } = roots;
  const hash = createHash('sha1');
  hash.update(`tripwire-results ${FORMAT} ${VERSION} ${toolFingerprint()}\0`);
  hash.update(
    JSON.stringify({
      root,
      space,
      cwd,
      workspaces: options.workspaces ?? [],
      configFile: options.configFile ?? null,
      rules: options.rules ?? null,
      paths: options.paths ?? [],
      base: options.base ?? null,
      staged: options.staged === true,
      baseline: options.baseline !== false,
    }),
  );
  for (const file of options.configFile === undefined ? [...CONFIG_FILE_NAMES, 'package.json'].map((name) => join(root, name)) : [resolve(cwd, options.configFile)]) {
    hash.update(`\0config ${file} ${fileBlobId(file) ?? '-'}`);
  }

  const dir = cacheDirectory(root, options.cacheLocation);
  // Asked while git lists the files: on a warm run it costs no time of its own.
  const refused = cacheRefusal(dir, root);
  // At a workspace root, each package's own configuration is an input too, listed by git or not.
  const packageConfigs = options.configFile === undefined && declaresWorkspaces(root);
  let listing: ResultsProbe['listing'] = null;
  let index: ResultsProbe['index'] = null;
  if (options.staged === true) {
    // A staged check reads the index and HEAD, never the work tree (the config aside): listed as the staged reader lists
    // them, which takes them on a miss (repo/diff.ts KnownIndex), with the top level in the same process as HEAD.
    const [indexed, top, refusal] = await Promise.all([gitOutput(space, ['ls-files', '-z', '-s', '-t', '--cached', '--full-name']), gitOutput(space, ['rev-parse', '--show-toplevel', '--verify', '--quiet', 'HEAD^{commit}']), refused]);
    if (indexed.code !== 0) return null;
    if (refusal !== null) return { hit: null, listing: null, index: null, store() {}, refused: refusal };
    // The top level, then HEAD (absent before the first commit).
    const [gitRoot = '', head = ''] = top.stdout.split('\n');
    hash.update(`\0head ${head}\0`).update(indexed.stdout);
    if (gitRoot !== '') index = { dir: space, root: resolve(gitRoot), head: head === '' ? null : head, indexed: indexed.stdout };
    // Names relative to the top level: a workspace root's package configurations are found from there.
    if (packageConfigs && gitRoot !== '') hashPackageConfigs(hash, resolve(gitRoot), indexed.stdout.split('\0').map((entry) => entry.slice(entry.indexOf('\t') + 1)));
  } else {
    const [found, refusal] = await Promise.all([discoverFiles(space, { blobIds: true }), refused]);
    if (!found.git) return null;
    if (refusal !== null) return { hit: null, listing: { files: found.files, blobIds: found.blobIds, unfollowed: found.unfollowed, gitlinks: found.gitlinks }, index: null, store() {}, refused: refusal };
    listing = { files: found.files, blobIds: found.blobIds, unfollowed: found.unfollowed, gitlinks: found.gitlinks };
    for (const gitlink of found.gitlinks) hash.update(`\0gitlink ${gitlink}`);
    // A link that is not followed is keyed by why, never by reading through it.
    for (const file of found.files) hash.update(`\0${file} ${found.blobIds.get(file) ?? found.unfollowed.get(file) ?? fileBlobId(join(space, file)) ?? '-'}`);
    if (packageConfigs) hashPackageConfigs(hash, root, found.files);
    if (options.base !== undefined) {
      // The diff's rename detection pairs only paths the index tracks: staging a moved file, with the
      // same files and contents, turns a deletion and an addition into a rename. The index is an input.
      const [base, index] = await Promise.all([gitOutput(root, ['merge-base', 'HEAD', options.base]), gitOutput(space, ['ls-files', '-z', '--stage'])]);
      if (base.code !== 0 || index.code !== 0) return null;
      hash.update(`\0base ${base.stdout.trim()}\0`).update(index.stdout);
    }
  }
  const key = hash.digest('hex');

  const file = join(dir, `results-${VERSION.replace(/[^\w.-]/g, '_')}.json`);
  const secret = cacheSecret();
  // A secret that dies with this run could verify nothing later: neither read nor write.
  if (!secret.persistent) return { hit: null, listing, index, store() {}, refused: null };
  const entries = readEntries(file, secret);
  const found = entries.find((entry) => entry.key === key && entry.outside.every(([path, id]) => fileBlobId(join(root, path)) === id));
  return {
    hit: found?.run ?? null,
    listing,
    index,
    store(run, outside) {
      const entry: Entry = { key, outside: [...outside], run };
      writeEntries(file, secret, [entry, ...entries.filter((other) => other.key !== key)].slice(0, MAX_ENTRIES));
    },
    refused: null,
  };
}

/** The configuration files of every directory of `files` (listed at `root`) that holds a package.json: a package's configuration decides its check. */
function hashPackageConfigs(hash: ReturnType<typeof createHash>, root: string, files: readonly string[]): void {
  for (const file of files) {
    if (!file.endsWith('/package.json')) continue;
    const dir = join(root, file.slice(0, -'/package.json'.length));
    for (const name of CONFIG_FILE_NAMES) hash.update(`\0package config ${dir} ${fileBlobId(join(dir, name)) ?? '-'}`);
  }
}

/** What the MAC of a results file is bound to: its name, which carries the version. */
const contextOf = (file: string): string => `tripwire-results ${basename(file)}`;

function readEntries(file: string, secret: CacheSecret): Entry[] {
  try {
    // A file that does not verify (forged, torn, another key's) knows no verdict, and the next store replaces it.
    const body = unsealedRecord(secret, contextOf(file), readFileSync(file));
    if (body === null) return [];
    const data: unknown = JSON.parse(body.toString('utf8'));
    if (typeof data === 'object' && data !== null && 'format' in data && data.format === FORMAT && 'entries' in data && Array.isArray(data.entries)) {
      return data.entries.filter(isEntry);
    }
  } catch {
    // Missing or corrupt: no verdict is known, and the next store replaces the file.
  }
  return [];
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<Entry>;
  return typeof entry.key === 'string' && Array.isArray(entry.outside) && typeof entry.run === 'object' && entry.run !== null && Array.isArray(entry.run.findings);
}

function writeEntries(file: string, secret: CacheSecret, entries: Entry[]): void {
  try {
    writeFileAtomic(file, sealedFile(secret, contextOf(file), JSON.stringify({ format: FORMAT, entries })));
  } catch {
    // The cache directory is unusable: the next run computes its verdict again.
  }
}
