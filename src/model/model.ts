import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { compareText } from '../util/compare.js';
import { join, posix } from 'node:path';
import type { Config } from '../config/schema.js';
import type { FactCache, FactTable } from '../facts/cache.js';
import { extractMarkdownFacts } from '../facts/extract-markdown.js';
import { extractPinnedFacts, extractScriptFacts } from '../facts/extract-script.js';
import { extractWorkflowFacts, WORKFLOW_FILE } from '../facts/extract-workflow.js';
import type { CachedFacts, FileFacts, MarkdownFacts, PinnedFacts, WorkflowFacts } from '../facts/types.js';
import { isMarkdownFile } from '../util/file-kinds.js';
import { isScriptFile } from '../util/file-kinds.js';
import { blobId } from '../repo/blob-id.js';
import { compileGlobs, globBase, isDynamicGlob } from '../util/glob.js';
import { formatBytes, MAX_INPUT_BYTES, readBounded, streamFile, type BoundedRead } from '../repo/read.js';
import type { FileChange } from '../repo/diff.js';
import type { Loc } from '../types.js';
import { paidListRefFiles } from '../config/refs.js';
import { createResolver, type Resolution, type Resolver } from './resolve.js';
import { mapRefs } from '../config/refs.js';
import { fileBlobId } from '../repo/blob-id.js';
import { flatten, isEmpty, ReadLog, type Reads, type Recorded } from './reads.js';
import { sha1 } from '../util/hash.js';

/** Bump when the facts' shape or extraction changes: cached facts of another version are ignored. */
export const FACTS_VERSION = 18;

export interface FileProblem {
  kind: 'read-error' | 'parse-error' | 'unfollowed-symlink';
  /** The message id, when it is not the kind's own (`readError`, …): `notText` for a read-error, `fileTooLarge` for a file over limits.maxFileBytes. */
  messageId?: 'notText' | 'fileTooLarge';
  file: string;
  message: string;
  loc: Loc;
}

/** What `--base` brings: the merge base, the changes since it, and the old text of each changed path. */
export interface DiffInput {
  base: string;
  changes: readonly FileChange[];
  /** Text at the base, by the path it had there. */
  oldTexts: ReadonlyMap<string, string>;
  /** Changed files whose content at the base is over limits.maxFileBytes, with its size: never read. */
  oldOversized?: ReadonlyMap<string, number>;
}

export interface ModelOptions {
  root: string;
  config: Config;
  configFile: string | null;
  files: readonly string[];
  cache: FactCache<CachedFacts> | null;
  /** Text that replaces a file's bytes on disk (an editor buffer). */
  overlays?: ReadonlyMap<string, string>;
  /** Files whose replacing content (the index, under --staged) is over limits.maxFileBytes, with its size: never read. */
  oversized?: ReadonlyMap<string, number>;
  /**
   * Git blob ids of files whose content git knows unchanged: their cached
   * facts are found without reading them. Any other file is read and keyed
   * by the blob id of its bytes, so one key scheme serves both.
   */
  blobIds?: ReadonlyMap<string, string>;
  /** Listed symbolic links that are never read through (outside the repository, dangling), with why. */
  unfollowed?: ReadonlyMap<string, string>;
  /** Submodules (gitlinks): directories whose files are not listed. */
  gitlinks?: readonly string[];
  diff?: DiffInput;
  /**
   * The workspace the root sits in, when imports may reach beyond the listing:
   * a package of a monorepo imports its siblings, and the root of one leaves
   * the packages that have their own configuration to them (engine/workspace.ts).
   */
  workspace?: WorkspaceScope;
  /** Called after each file's facts are parsed or found in the cache (a progress line reads `stats`). */
  onFacts?: () => void;
  /**
   * Record what each computation reads (`recorded`), for verdicts a later run
   * may reuse (engine/verdicts.ts). Off, nothing is noted.
   */
  trackReads?: boolean;
  /** The log a model at another revision shares with the model it was made from. */
  readLog?: ReadLog<FileProblem>;
}

export interface WorkspaceScope {
  /** The root's path in the workspace root ('' when it is that root), POSIX. */
  prefix: string;
  /**
   * Every file of the workspace, named relative to the root (a sibling's as
   * `../b/src/index.ts`): what an import may resolve to and facts be read of,
   * though only the listing is checked. The listing is among them.
   */
  files: ReadonlySet<string>;
}

/** A value computed once per run, with what computing it read (null: nothing, or reads not tracked). */
interface Memo {
  value: unknown;
  reads: Kept | null;
}

/** Reads kept for replay: the one file read when that is all (most per-file values), else the recording. */
type Kept = Recorded<FileProblem> | string;

/** What to keep of a recording: nothing, the one file it read, or the recording itself. */
function keep(reads: Recorded<FileProblem>): Kept | null {
  if (isEmpty(reads)) return null;
  const only = reads.files?.size === 1 && reads.loaded === undefined && reads.problems === undefined && !reads.resolved && reads.parts === undefined && reads.partial === undefined ? reads.files.values().next().value : undefined;
  return only ?? reads;
}

/** What a computation that read the diff is charged with, as if it were a file whose content is the diff (contentId). */
const DIFF = '\0diff';

/**
 * The parts a stored verdict may find unchanged in a changed file
 * (RepoModel.partDigest), by access kind: how a run gets each. Only parts
 * whose kind names every input besides the file are here, each registered
 * where it is defined (definePart, defineMarkdownPart). A family of derived
 * values (defineDerived) is registered by the kinds' common prefix, up to
 * and including the NUL that precedes the digest of its parameters.
 */
const REDERIVABLE = new Map<string, (model: RepoModel, file: string, params: unknown) => unknown>();

function register(kind: string, get: (model: RepoModel, file: string, params: unknown) => unknown): void {
  if (REDERIVABLE.has(kind)) throw new Error(`tripwire: the part '${kind}' is defined twice`);
  REDERIVABLE.set(kind, get);
}

/**
 * A part of every script's facts (RepoModel.factPart) that depends on the
 * file's facts and nothing else: `name` must change when `project` does. A
 * verdict that read a changed file only through such parts still holds
 * while each part is the same.
 */
export function definePart<T>(name: string, project: (facts: FileFacts, file: string) => T): (model: RepoModel, file: string) => T | null {
  const get = (model: RepoModel, file: string): T | null => model.factPart(file, name, (facts) => project(facts, file));
  register(`part ${name}`, get);
  return get;
}

/** definePart for the facts of Markdown files (RepoModel.markdownPart). */
export function defineMarkdownPart<T>(name: string, project: (facts: MarkdownFacts, file: string) => T): (model: RepoModel, file: string) => T | null {
  const get = (model: RepoModel, file: string): T | null => model.markdownPart(file, name, (facts) => project(facts, file));
  register(`markdown part ${name}`, get);
  return get;
}

/**
 * A value derived from each file's text and some parameters (RepoModel.derived):
 * `compute` depends on the text, the file and `params` and nothing else, and
 * `key` names `params` (a digest of them). Bound to a model and parameters,
 * it reads the value of a file; a verdict that read a changed file only
 * through it keeps the parameters, so that a later run can compute the
 * value again and find it the same.
 */
export function defineDerived<P, T>(name: string, compute: (text: string, file: string, params: P) => T, key: (params: P) => string): (model: RepoModel, params: P) => (file: string) => T | null {
  register(`derived ${name}\0`, (model, file, params) => model.derived(file, `${name}\0${key(params as P)}`, (text) => compute(text, file, params as P)));
  return (model, params) => {
    const purpose = `${name}\0${key(params)}`;
    model.noteParams(`derived ${purpose}`, params);
    return (file) => model.derived(file, purpose, (text) => compute(text, file, params));
  };
}

/** The suppression comments of a script: what a run checks in every script whose facts it loaded. */
const SUPPRESSIONS_NAME = 'suppressions';
const suppressionsOf = (facts: FileFacts): FileFacts['suppressions'] => facts.suppressions;
const SUPPRESSIONS = definePart(SUPPRESSIONS_NAME, suppressionsOf);

/** A stored query (RepoModel.stored): its value, and what computing it read, each file with its content id. */
interface StoredQuery {
  files: [string, string | null][];
  loaded: string[];
  problems: FileProblem[];
  resolved: boolean;
  value: unknown;
}

function isStoredQuery(value: unknown): value is StoredQuery {
  return typeof value === 'object' && value !== null && 'files' in value && Array.isArray(value.files) && 'loaded' in value && Array.isArray(value.loaded) && 'problems' in value && Array.isArray(value.problems) && 'value' in value;
}

/**
 * Saves a fact cache with the entries `live` keeps (FactCache.save) and
 * removes the tables no run opens any more: the one every stored query was
 * kept in before each had its own (the maps' evaluation made it megabytes).
 */
export function saveFactCache(cache: FactCache<CachedFacts>, live: (id: string) => boolean): void {
  cache.save(live);
  cache.drop('stored queries');
}

/** Facts extracted on another thread (facts/ahead.ts, facts/shared.ts), given for the very text they were extracted from. */
interface FactsAhead {
  take(file: string, text: string): FileFacts | undefined;
  takeMarkdown?(file: string, text: string): MarkdownFacts | undefined;
}

const NO_LOC: Loc = { line: 1, column: 1, endLine: 1, endColumn: 1 };
/** Key of the model at the merge base in the per-run memo table. */
const AT_BASE = {};
/** How many changed files are a commit's few (freshFiles): more are a branch's, whose values the tables likely hold. */
const FRESH_FILES = 32;

/**
 * The repository as the rules see it: the file list, the configuration, and
 * per-file facts parsed at most once per run (and not at all when cached).
 */
export class RepoModel {
  readonly root: string;
  readonly config: Config;
  readonly configFile: string | null;
  readonly files: readonly string[];
  readonly fileSet: ReadonlySet<string>;
  /** Submodules (gitlinks) in the listing: their files are in another repository and are not listed. */
  readonly gitlinks: readonly string[];
  /** Files that could not be read or parsed, in the order they were met; a file's parse errors are one problem. */
  readonly problems: FileProblem[] = [];
  /** Facts parsed and found in the cache, files read from disk (`text`), and the time spent getting facts (reading, parsing, the cache). */
  readonly stats = { parsed: 0, cached: 0, read: 0, factsMs: 0 };
  /** With `--base`: the merge base and what changed since, renames detected by git. */
  private readonly diffInput: { base: string; changes: readonly FileChange[] } | null;

  private readonly cache: FactCache<CachedFacts> | null;
  private readonly workspace: WorkspaceScope | undefined;
  /** What an import may reach: the listing, and the workspace beyond it. */
  private readonly reachable: ReadonlySet<string>;
  private readonly overlays: ReadonlyMap<string, string>;
  private readonly oversized: ReadonlyMap<string, number>;
  private readonly oldOversized: ReadonlyMap<string, number>;
  private readonly blobIds: ReadonlyMap<string, string>;
  private liveIds: Set<string> | null = null;
  /** The state's digest, once: the listing and the configuration do not change during a run. */
  private stateMemo: string | null = null;
  private readonly unfollowed: ReadonlyMap<string, string>;
  /** Files outside the listing that the rules read or probed: content digest, null when absent. */
  private readonly outsideReads = new Map<string, string | null>();
  private readonly factsMemo = new Map<string, FileFacts | null>();
  /** Per part name and file: a projection of the file's facts (factPart), null when the file has none. */
  private readonly partsMemo = new Map<string, Map<string, { value: unknown } | null>>();
  /** The value of each part read this run (with read tracking), by kind and file: what partDigest tells apart. */
  private readonly partValues = new Map<string, Map<string, unknown>>();
  /** Scripts a part was read of, whose facts this run may never have loaded: loaded all the same (loadedFiles). */
  private readonly partLoaded = new Set<string>();
  /** Each part's fact table by kind and name (partTable). */
  private readonly partTables = new Map<string, FactTable | undefined>();
  /** freshFiles(), once. */
  private freshMemo: ReadonlySet<string> | undefined;
  /** The parameters of each family of derived values read this run, by kind (noteParams). */
  private readonly partParams = new Map<string, unknown>();
  private readonly textMemo = new Map<string, string | null>();
  private resolver: Resolver | null = null;
  private readonly memos = new Map<object, Memo>();
  private readonly itemMemos = new Map<object, Map<string, Memo>>();
  /** With trackReads: what each file access read and recorded, replayed when the access is answered from memory. */
  private readonly tracking: boolean;
  private readonly log: ReadLog<FileProblem>;
  /** False in a model at another revision: its problems are its own, never the run's. */
  private readonly chargesProblems: boolean;
  /** Per kind of access and file: what the access read beyond the file itself, null when nothing. */
  private readonly accessReads = new Map<string, Map<string, Kept | null>>();
  /** Scripts whose facts a reused verdict loaded (Reads.loaded). */
  private readonly replayedLoaded = new Set<string>();
  /** Files the import resolver read (manifests, tsconfig files): what every resolution may depend on. */
  private readonly resolverInputs = new Set<string>();
  private testFileSetMemo: ReadonlySet<string> | null = null;
  private readonly matchingMemo = new Map<string, string[]>();
  private sortedFiles: string[] | null = null;
  private readonly oldTexts: ReadonlyMap<string, string>;
  private readonly oldFactsMemo = new Map<string, FileFacts | null>();
  private readonly pinnedMemo = new Map<string, PinnedFacts | null>();
  private ahead: FactsAhead | null = null;
  /** Reads done ahead for toExtract: text() takes them as its own read, and records what it would have. */
  private readonly readAhead = new Map<string, BoundedRead | string>();
  private readonly oldPinnedMemo = new Map<string, PinnedFacts | null>();
  private readonly markdownMemo = new Map<string, MarkdownFacts | null>();
  /** Callee names recorded with their arguments: the configured id and self-gate helpers. */
  private readonly callNames: string[];
  /** limits.maxFileBytes: a larger file is not read. */
  private readonly maxFileBytes: number;
  private readonly onFacts: (() => void) | undefined;

  constructor(options: ModelOptions) {
    this.root = options.root;
    this.config = options.config;
    this.configFile = options.configFile;
    // A disabled cache (no file: --no-cache, or no secret that outlives the run) is none: no content is hashed for its keys.
    this.cache = options.cache?.file === null ? null : options.cache;
    this.overlays = options.overlays ?? new Map();
    this.oversized = options.oversized ?? new Map();
    this.oldOversized = options.diff?.oldOversized ?? new Map();
    this.blobIds = options.blobIds ?? new Map();
    this.unfollowed = options.unfollowed ?? new Map();
    this.diffInput = options.diff ? { base: options.diff.base, changes: options.diff.changes } : null;
    this.oldTexts = options.diff?.oldTexts ?? new Map();
    const ignored = compileGlobs(options.config.ignore);
    this.files = options.files.filter((file) => !ignored(file));
    this.fileSet = new Set(this.files);
    this.workspace = options.workspace;
    // The configuration's ignore holds beyond the listing too: an ignored file is no more reached by import than checked.
    this.reachable = options.workspace ? new Set([...options.workspace.files].filter((file) => !ignored(file))) : this.fileSet;
    this.gitlinks = options.gitlinks ?? [];
    const { ids, selfGate } = options.config.tests;
    this.callNames = [...new Set([...ids.map((shape) => shape.call), ...selfGate.flatMap((gate) => ('call' in gate ? [gate.call] : []))])].sort();
    this.maxFileBytes = options.config.limits.maxFileBytes;
    this.onFacts = options.onFacts;
    this.tracking = options.trackReads === true;
    this.log = options.readLog ?? new ReadLog();
    this.chargesProblems = options.readLog === undefined;
  }

  /** Whether this model records what computations read (ModelOptions.trackReads): what a stored verdict needs. */
  get tracksReads(): boolean {
    return this.tracking;
  }

  /**
   * Runs `compute` and returns what it read (files, problems, whether it
   * resolved an import); with trackReads off, the reads are empty. A
   * resolving computation depends on every file the resolver has read.
   */
  recorded<T>(compute: () => T): { value: T; reads: Reads<FileProblem> } {
    const { value, reads: recorded } = this.log.record(compute);
    return { value, reads: this.readsOf(recorded) };
  }

  /**
   * Runs `compute` and returns its recording as made (Recorded), for a
   * caller that combines recordings before it wants their reads (readsOf).
   * A `detached` one is not charged to the computation running now: a unit's,
   * which its rule keeps apart from what the rule read besides its units.
   */
  recording<T>(compute: () => T, detached = false): { value: T; recorded: Recorded<FileProblem> } {
    const { value, reads } = this.log.record(compute, undefined, detached);
    return { value, recorded: reads };
  }

  /** Runs `compute` charging what it reads to `recorded` (a recording its caller keeps), and to no computation running now. */
  chargedTo<T>(recorded: Recorded<FileProblem>, compute: () => T): T {
    return this.log.within(recorded, compute);
  }

  /** Everything recordings read (flatten), with every file the resolver read if one of them resolved an import. */
  readsOf(...recorded: Recorded<FileProblem>[]): Reads<FileProblem> {
    const reads = flatten(recorded.length === 1 && recorded[0] ? recorded[0] : { resolved: false, parts: new Set(recorded) });
    if (reads.resolved) {
      for (const file of this.resolverInputs) {
        reads.files.add(file);
        reads.partial.delete(file);
      }
    }
    return reads;
  }

  /**
   * A computation kept in the fact cache with what it read (a stored query):
   * a later run in the same state takes its value back while every file it
   * read has the same content, and is charged with those reads as if it had
   * made them: the files, the scripts whose facts it loaded (their parse
   * errors and suppression comments come from the parts kept of their facts),
   * the problems it recorded, the resolution. Without read tracking the reads
   * are unknown, and it is simply computed. `name` must name every input
   * besides the files read; the value must be plain JSON data.
   */
  stored<T>(name: string, compute: () => T): T {
    // A table per query: a run that asks one does not read the others (the maps' evaluation is megabytes).
    const table = this.tracking ? this.cache?.table(`stored query ${name}`) : undefined;
    if (!table) return compute();
    const state = this.stateDigest();
    const hit = table.get(name, state);
    if (isStoredQuery(hit) && hit.files.every(([file, id]) => this.contentId(file) === id)) {
      for (const [file] of hit.files) this.log.file(file);
      for (const file of hit.loaded) this.suppressions(file);
      for (const problem of hit.problems) this.addProblem(problem);
      if (hit.resolved) this.log.resolved();
      return hit.value as T;
    }
    const { value, reads } = this.recorded(compute);
    if (reads.files.has(DIFF)) return value;
    const query: StoredQuery = { files: [...reads.files].sort(compareText).map((file) => [file, this.contentId(file)]), loaded: [...reads.loaded].sort(compareText), problems: [...reads.problems], resolved: reads.resolved, value };
    table.set(name, state, query);
    return value;
  }

  /** Notes the parameters of a family of derived values (defineDerived) read under `kind` this run: what a verdict keeps to compute them again. */
  noteParams(kind: string, params: unknown): void {
    this.partParams.set(kind, params);
  }

  /** The parameters noted for `kind` (noteParams), if any. */
  paramsOf(kind: string): unknown {
    return this.partParams.get(kind);
  }

  /** Whether this run has recorded a problem in `file` (one it could not read, parse, or follow). */
  hasProblemIn(file: string): boolean {
    return this.problems.some((problem) => problem.file === file);
  }

  /** What a reused verdict's computation recorded and loaded: this run's problems and loaded scripts too. */
  replayVerdict(problems: Iterable<FileProblem>, loaded: Iterable<string>): void {
    for (const problem of problems) this.addProblem(problem);
    for (const file of loaded) this.replayedLoaded.add(file);
  }

  /**
   * A reused verdict taken inside a computation (a unit's, inside its rule's):
   * replayed as replayVerdict does, and its files and loaded scripts charged
   * to the computation as if it had read them again.
   */
  chargeVerdict(files: Iterable<string>, problems: Iterable<FileProblem>, loaded: Iterable<string>): void {
    for (const file of files) this.log.file(file);
    for (const file of loaded) this.log.loaded(file);
    this.replayVerdict(problems, loaded);
  }

  /** A part of a file a reused verdict read (Reads.partial), charged to the computation running now as chargeVerdict charges a file. */
  chargePart(file: string, kind: string): void {
    this.log.part(file, kind);
  }

  /**
   * The text of a file that may be absent (a manifest tripwire looks for):
   * null, and no problem, when there is none. The absence is read too: a
   * verdict that found none is stale once one appears.
   */
  optionalText(file: string): string | null {
    if (this.tracking) this.log.file(file);
    if (existsSync(join(this.root, file))) return this.text(file);
    if (!this.fileSet.has(file)) this.outsideReads.set(file, null);
    return null;
  }

  /**
   * Everything a rule's findings depend on besides the content of the files
   * it reads (and the diff, when it asks for it: DIFF): the root, the
   * configuration, the listing (what an import resolves to and a glob
   * matches), the submodules and the workspace beyond the listing. Two runs
   * with the same digest differ only in what files and the diff hold.
   */
  stateDigest(): string {
    if (this.stateMemo !== null) return this.stateMemo;
    const hash = createHash('sha1');
    hash.update(`${this.root}\0${this.configFile ?? '-'}\0${JSON.stringify(this.config)}\0`);
    // One update for the whole listing (the same bytes as one per file: 13k calls at 10k).
    if (this.files.length > 0) hash.update(`${this.files.join('\n')}\n`);
    hash.update(`\0gitlinks ${this.gitlinks.join('\n')}`);
    if (this.workspace) {
      hash.update(`\0workspace ${this.workspace.prefix}\0`);
      for (const file of [...this.reachable].sort()) hash.update(`${file}\n`);
    }
    this.stateMemo = hash.digest('hex');
    return this.stateMemo;
  }

  /**
   * With `--base` or `--staged`: the merge base and what changed since,
   * renames detected by git. A computation that asks reads the diff (DIFF):
   * its verdict holds for this diff only; one that never asks holds for any.
   */
  get diff(): { base: string; changes: readonly FileChange[] } | null {
    if (this.tracking) this.log.file(DIFF);
    return this.diffInput;
  }

  /** The diff's identity: its base, its changes and the text each changed path had at the base. */
  private diffDigest(): string {
    const diff = this.diffInput;
    if (!diff) return 'no diff';
    const hash = createHash('sha1').update(`${diff.base}\0${JSON.stringify(diff.changes)}`);
    for (const [path, text] of [...this.oldTexts].sort(([a], [b]) => compareText(a, b))) hash.update(`\0${path} ${blobId(text)}`);
    for (const [path, size] of [...this.oldOversized].sort(([a], [b]) => compareText(a, b))) hash.update(`\0${path} oversized ${size}`);
    return hash.digest('hex');
  }

  /**
   * Charges the computation running now with import resolution, as resolve()
   * does: one that follows imports through a graph another computation built
   * depends on every file the resolver read, though it resolved nothing itself.
   */
  noteResolution(): void {
    if (this.tracking) this.log.resolved();
  }

  /** A file outside the listing that a reused verdict read: as much an input of this run as if it had been read again. */
  noteOutside(file: string, id: string | null): void {
    if (file !== DIFF && !this.fileSet.has(file)) this.outsideReads.set(file, id);
  }

  /**
   * The identity of a file's content as this run sees it (git's blob id of
   * the bytes it reads, an overlay's, or what stands for content never read),
   * null when there is none: a recorded read is still valid while this is.
   */
  contentId(file: string): string | null {
    if (file === DIFF) return this.diffDigest();
    const size = this.oversized.get(file);
    if (size !== undefined) return `oversized ${size}`;
    const overlay = this.overlays.get(file);
    if (overlay !== undefined) return blobId(overlay);
    const link = this.unfollowed.get(file);
    if (link !== undefined) return `unfollowed ${link}`;
    return this.blobIds.get(file) ?? fileBlobId(join(this.root, file));
  }

  /**
   * A file access answered from memory: the first time, its reads are
   * recorded; afterwards they are replayed, so each computation that asks is
   * charged with the file (`as`: whole, or through the part `kind`; nothing
   * of it for what the path held at the merge base, which is the diff's) and
   * the problems reading it recorded.
   */
  private access<T>(kind: string, file: string, compute: () => T, as: 'file' | 'part' | 'base' = 'file'): T {
    if (!this.tracking) return compute();
    let byFile = this.accessReads.get(kind);
    if (!byFile) this.accessReads.set(kind, (byFile = new Map()));
    const part = as === 'part';
    // A part (factPart, markdownPart, derived) is read as that part: what computing it read of the file is the part's input.
    // What a path held at the merge base is the diff's (DIFF, noted by the caller), not the file's as it is now.
    if (part) this.log.part(file, kind);
    else if (as === 'file') this.log.file(file);
    const known = byFile.get(file);
    if (known !== undefined) {
      if (known !== null) this.replay(known);
      return compute();
    }
    const { value, reads } = this.log.record(compute, part ? file : undefined);
    if (part) {
      let values = this.partValues.get(kind);
      if (!values) this.partValues.set(kind, (values = new Map()));
      values.set(file, value);
    }
    const kept = keep(reads);
    // Most accesses read the file and nothing else: the file is noted above, and nothing is kept.
    byFile.set(file, kept === file ? null : kept);
    return value;
  }

  /** Records a problem once; the computation running now is charged with it either way. */
  private addProblem(problem: FileProblem): void {
    const known = this.problems.find((other) => other.kind === problem.kind && other.messageId === problem.messageId && other.file === problem.file);
    if (known) {
      if (this.tracking && this.chargesProblems) this.log.problem(known);
      return;
    }
    this.problems.push(problem);
    if (this.tracking && this.chargesProblems) this.log.problem(problem);
  }

  /**
   * The files a glob list matches, memoized. A literal path is a set lookup and
   * a glob with a static base only scans the files under that base (a binary
   * search in the sorted list): rules ask this for every glob of every map.
   */
  matching(patterns: readonly string[]): string[] {
    const key = patterns.join('\0');
    const memo = this.matchingMemo.get(key);
    if (memo) return memo;
    let result: string[];
    if (patterns.some((pattern) => pattern.startsWith('!'))) {
      const matches = compileGlobs([...patterns]);
      result = this.files.filter((file) => matches(file));
    } else {
      const found = new Set(patterns.flatMap((pattern) => this.matchOne(pattern)));
      result = [...found].sort();
    }
    this.matchingMemo.set(key, result);
    return result;
  }

  private matchOne(pattern: string): string[] {
    const clean = pattern.replace(/^\.\//, '');
    if (!isDynamicGlob(clean)) return this.fileSet.has(clean) ? [clean] : [];
    const base = globBase(clean);
    const matches = compileGlobs([clean]);
    if (base === '') return this.files.filter((file) => matches(file));
    this.sortedFiles ??= [...this.files].sort();
    const sorted = this.sortedFiles;
    const prefix = `${base}/`;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((sorted[mid] ?? '') < prefix) low = mid + 1;
      else high = mid;
    }
    const out: string[] = [];
    for (let i = low; i < sorted.length && (sorted[i] ?? '').startsWith(prefix); i++) {
      const file = sorted[i] ?? '';
      if (matches(file)) out.push(file);
    }
    return out;
  }

  testFiles(): string[] {
    return this.matching(this.config.tests.include);
  }

  /** The test files as a set, built once per run: several rules ask whether a file is one. */
  testFileSet(): ReadonlySet<string> {
    this.testFileSetMemo ??= new Set(this.testFiles());
    return this.testFileSetMemo;
  }

  /**
   * A value computed once per run from this model (an analysis: the selection,
   * the paid list, the test areas), under a key only its own module holds.
   */
  memo<T>(key: object, compute: () => T): T {
    return this.remember(this.memos, key, compute);
  }

  /** memo() per item (a file): an analysis computed file by file, each charged with its own reads. */
  memoFor<T>(key: object, item: string, compute: () => T): T {
    let byItem = this.itemMemos.get(key);
    if (!byItem) this.itemMemos.set(key, (byItem = new Map()));
    return this.remember(byItem, item, compute);
  }

  /** A value computed once, with what computing it read: charged again to each computation that takes it. */
  private remember<K, T>(table: Map<K, Memo>, key: K, compute: () => T): T {
    const known = table.get(key);
    if (known) {
      if (known.reads !== null) this.replay(known.reads);
      return known.value as T;
    }
    if (!this.tracking) {
      const value = compute();
      table.set(key, { value, reads: null });
      return value;
    }
    const { value, reads } = this.log.record(compute);
    table.set(key, { value, reads: keep(reads) });
    return value;
  }

  private replay(kept: Kept): void {
    if (typeof kept === 'string') this.log.file(kept);
    else this.log.replay(kept);
  }

  /**
   * The file's text, or null when it cannot be read or is larger than
   * limits.maxFileBytes (recorded as a problem, once); kept for the run: the
   * whole-repository scans read each text file again (the tokens, commands
   * and globs it names), and a read costs more than the text's memory.
   */
  text(file: string): string | null {
    return this.tracking ? this.access('text', file, () => this.readText(file)) : this.readText(file);
  }

  private readText(file: string): string | null {
    const oversized = this.oversized.get(file);
    if (oversized !== undefined) {
      this.tooLarge(file, oversized);
      return null;
    }
    const overlay = this.overlays.get(file);
    if (overlay !== undefined) {
      const size = Buffer.byteLength(overlay);
      if (size <= this.maxFileBytes) return overlay;
      this.tooLarge(file, size);
      return null;
    }
    if (this.textMemo.has(file)) return this.textMemo.get(file) ?? null;
    let text: string | null = null;
    const unfollowed = this.unfollowed.get(file);
    if (unfollowed !== undefined) {
      this.addProblem({ kind: 'unfollowed-symlink', file, message: unfollowed, loc: NO_LOC });
      this.textMemo.set(file, null);
      return null;
    }
    this.stats.read++;
    const ahead = this.readAhead.get(file);
    this.readAhead.delete(file);
    // Read ahead and decoded: the text itself (its bytes are not kept twice).
    if (typeof ahead === 'string') text = ahead;
    else {
      const read = ahead ?? this.readDisk(file);
      if (read.ok) text = read.bytes.toString('utf8');
      else if (read.tooLarge) this.tooLarge(file, read.size);
      else this.addProblem({ kind: 'read-error', file, message: `cannot read ${file}: ${read.reason}`, loc: NO_LOC });
    }
    // A failure is kept too, so that it is reported once.
    this.textMemo.set(file, text);
    if (!this.fileSet.has(file)) this.outsideReads.set(file, text === null ? null : blobId(text));
    return text;
  }

  private readDisk(file: string): BoundedRead {
    // The configuration was read whole by the loader, under its own bound: it is what sets the limit.
    return readBounded(join(this.root, file), file === this.configFile ? MAX_INPUT_BYTES : this.maxFileBytes);
  }

  /** A file over limits.maxFileBytes, once: it is not read, so nothing in it is checked. */
  private tooLarge(file: string, size: number, where = ''): void {
    this.addProblem({
      kind: 'read-error',
      messageId: 'fileTooLarge',
      file,
      message: `${file}${where} is ${formatBytes(size)}, over limits.maxFileBytes (${formatBytes(this.maxFileBytes)}): it was not read, so nothing in it was checked. List it in ignore if it is generated, or raise limits.maxFileBytes.`,
      loc: NO_LOC,
    });
  }

  /**
   * The SHA-256 of a repo-relative file's bytes (`sha256:…`), for locked
   * fixtures, whatever its size: read in chunks, a regular file only. Null
   * when it cannot be read. Like `text`, a read outside the listing is recorded.
   */
  sha256(file: string): string | null {
    if (this.tracking) this.log.file(file);
    if (this.unfollowed.has(file)) return null;
    const sha256 = createHash('sha256');
    const blob = createHash('sha1');
    const failure = streamFile(
      join(this.root, file),
      (size) => blob.update(`blob ${size}\0`),
      (chunk) => {
        sha256.update(chunk);
        blob.update(chunk);
      },
    );
    if (!this.fileSet.has(file)) this.outsideReads.set(file, failure === null ? blob.digest('hex') : null);
    return failure === null ? `sha256:${sha256.digest('hex')}` : null;
  }

  /**
   * What this run read from outside the file listing (a manifest git ignores,
   * a path probed and found absent), each with the git blob id of its content
   * or null. A cached verdict is only as fresh as these.
   */
  outsideInputs(): ReadonlyMap<string, string | null> {
    return this.outsideReads;
  }

  /** The bytes on disk, ignoring overlays, without recording a problem: null when there are none. */
  diskText(file: string): string | null {
    if (this.tracking) this.log.file(file);
    if (this.textMemo.has(file)) return this.textMemo.get(file) ?? null;
    if (!this.fileSet.has(file) || this.unfollowed.has(file)) return null;
    const read = readBounded(join(this.root, file), this.maxFileBytes);
    return read.ok ? read.bytes.toString('utf8') : null;
  }

  /** The same repository with some files' text replaced (an editor's unsaved buffers), sharing the fact cache. */
  withOverlays(overlays: ReadonlyMap<string, string>): RepoModel {
    const added = [...overlays.keys()].filter((file) => !this.fileSet.has(file));
    return new RepoModel({
      root: this.root,
      config: this.config,
      configFile: this.configFile,
      files: added.length === 0 ? this.files : [...this.files, ...added].sort(),
      cache: this.cache,
      overlays,
      blobIds: this.blobIds,
      unfollowed: this.unfollowed,
      gitlinks: this.gitlinks,
      ...(this.workspace && { workspace: { prefix: this.workspace.prefix, files: new Set([...this.workspace.files, ...added]) } }),
      ...(this.diffInput && { diff: { ...this.diffInput, oldTexts: this.oldTexts } }),
    });
  }

  /**
   * The repository as it was at a revision, for the paths a change touched:
   * each path with a text there (`oldTexts`) has that text, each without one
   * (added since) is absent; every other file is as it is now. Shares the fact cache.
   */
  atRevision(changed: readonly string[], oldTexts: ReadonlyMap<string, string>): RepoModel {
    const gone = new Set(changed.filter((file) => !oldTexts.has(file)));
    const files = new Set([...this.files.filter((file) => !gone.has(file)), ...oldTexts.keys()]);
    const touched = new Set(changed);
    const unchanged = <T>(map: ReadonlyMap<string, T>): [string, T][] => [...map].filter(([file]) => !touched.has(file));
    return new RepoModel({
      root: this.root,
      config: this.config,
      configFile: this.configFile,
      files: [...files].sort(),
      cache: this.cache,
      // A path the change left alone reads as it does now (the index's text under --staged), not as the work tree has it.
      overlays: new Map([...unchanged(this.overlays), ...oldTexts]),
      oversized: new Map(unchanged(this.oversized)),
      trackReads: this.tracking,
      readLog: this.log,
      blobIds: this.blobIds,
      unfollowed: this.unfollowed,
      gitlinks: this.gitlinks,
      ...(this.workspace && { workspace: { prefix: this.workspace.prefix, files: new Set([...[...this.workspace.files].filter((file) => !gone.has(file)), ...oldTexts.keys()]) } }),
    });
  }

  /** With `--base`: the repository at the merge base (atRevision over the diff's paths); null without a diff. Memoized. */
  atBase(): RepoModel | null {
    const diff = this.diff;
    if (!diff) return null;
    return this.memo(AT_BASE, () => this.atRevision([...new Set(diff.changes.flatMap((c) => (c.oldPath === undefined ? [c.path] : [c.path, c.oldPath])))], this.oldTexts));
  }

  /** Facts of a script file; null for other files and for files that cannot be read. */
  facts(file: string): FileFacts | null {
    if (!this.tracking) return this.loadFacts(file);
    const facts = this.access('facts', file, () => this.loadFacts(file));
    if (facts) this.log.loaded(file);
    return facts;
  }

  private loadFacts(file: string): FileFacts | null {
    const memo = this.factsMemo.get(file);
    if (memo !== undefined || this.factsMemo.has(file)) return memo ?? null;
    let facts: FileFacts | null = null;
    if (isScriptFile(file) && this.reachable.has(file)) facts = this.timed(() => this.extract(file, this.knownId(file)));
    this.factsMemo.set(file, facts);
    if (facts) this.recordParseErrors(file, facts.parseErrors);
    return facts;
  }

  /**
   * A projection of a script's facts, kept in the fact cache beside them
   * (keyed by `name` and the facts' own key): an analysis that needs a little
   * of every file's facts reads that little, and a run that finds the parts
   * it needs never loads the whole facts of unchanged files. `name` must name
   * every input of `project` besides the facts (bump it when `project`
   * changes), and the value must be plain JSON data. The file counts as
   * loaded, as facts() would, and its parse errors are recorded the same.
   * A projection that read other files too says so through `kept`: a value
   * it returns false for is computed again by every run. Null where facts() is.
   */
  factPart<T>(file: string, name: string, project: (facts: FileFacts) => T, kept: (value: T) => boolean = () => true): T | null {
    if (!this.tracking) return this.loadPart('script', file, name, project, kept);
    const value = this.access(`part ${name}`, file, () => this.loadPart('script', file, name, project, kept), 'part');
    if (value !== null) this.log.loaded(file);
    return value;
  }

  /** factPart for the facts of a Markdown file (whose facts count as no script's: nothing is loaded). Null where markdownFacts() is. */
  markdownPart<T>(file: string, name: string, project: (facts: MarkdownFacts) => T): T | null {
    return this.access(`markdown part ${name}`, file, () => this.loadPart('markdown', file, name, project, () => true), 'part');
  }

  /** A part's table, opened once per kind and name: a run loads a part of nearly every file, and the name is the same for all of them. */
  private partTable(memoName: string, script: boolean, name: string): FactTable | undefined {
    if (!this.partTables.has(memoName)) this.partTables.set(memoName, this.cache?.table(script ? `part ${name}\0${this.callNames.join(',')}` : `markdown part ${name}`));
    return this.partTables.get(memoName);
  }

  private loadPart<T, F extends FileFacts | MarkdownFacts>(kind: F['kind'], file: string, name: string, project: (facts: F) => T, kept: (value: T) => boolean): T | null {
    const memoName = `${kind} ${name}`;
    let memo = this.partsMemo.get(memoName);
    if (!memo) this.partsMemo.set(memoName, (memo = new Map()));
    const known = memo.get(file);
    if (known !== undefined) return known === null ? null : (known.value as T);
    const script = kind === 'script';
    const id = script ? (isScriptFile(file) && this.reachable.has(file) ? this.knownId(file) : null) : isMarkdownFile(file) && this.fileSet.has(file) ? this.knownId(file) : null;
    // The recorded callee names are in a script's facts, so in every part of them.
    const table = id === null ? undefined : this.partTable(memoName, script, name);
    const loaded = script ? this.factsMemo.has(file) : this.markdownMemo.has(file);
    const hit = loaded ? undefined : table?.get(file, id ?? '');
    if (Array.isArray(hit) && hit.length === 2 && Array.isArray(hit[1])) {
      this.recordParseErrors(file, hit[1] as FileFacts['parseErrors']);
      memo.set(file, { value: hit[0] });
      if (script) this.partLoaded.add(file);
      return hit[0] as T;
    }
    // Each kind's reader gives that kind's facts (or null), charging what reading them recorded (a parse error) even when another computation read them first.
    const facts = (script ? this.facts(file) : this.markdownFacts(file)) as F | null;
    const value = facts === null ? null : project(facts);
    memo.set(file, facts === null ? null : { value });
    if (facts !== null && value !== null && kept(value)) table?.set(file, id ?? '', [value, facts.parseErrors]);
    return value;
  }

  /**
   * Facts with what a frozen test pins of its body (PinnedFacts): the frozen
   * layer asks for them for the files its manifests name, so the rest of the
   * repository never pays for hashing test bodies. Null where facts() is.
   */
  pinnedFacts(file: string): PinnedFacts | null {
    return this.access('pinned', file, () => this.loadPinnedFacts(file));
  }

  private loadPinnedFacts(file: string): PinnedFacts | null {
    if (this.pinnedMemo.has(file)) return this.pinnedMemo.get(file) ?? null;
    // facts() first: its parse errors are recorded once, and an unreadable file has no pinned facts either.
    const facts = this.facts(file) === null ? null : this.timed(() => this.extract(file, this.knownId(file), undefined, true) as PinnedFacts | null);
    this.pinnedMemo.set(file, facts);
    return facts;
  }

  /**
   * The scripts and Markdown files among `files` whose facts neither this run
   * nor the fact cache holds, each with its text: what facts() and
   * markdownFacts() would have to extract. Nothing is recorded here: the read
   * is kept for text(), which records what it finds (a file too large,
   * unreadable) only if a rule asks for the file.
   */
  toExtract(files: Iterable<string>): { file: string; text: string }[] {
    const out: { file: string; text: string }[] = [];
    for (const file of files) {
      const script = isScriptFile(file);
      if (script ? !this.reachable.has(file) || this.factsMemo.has(file) : !isMarkdownFile(file) || !this.fileSet.has(file) || this.markdownMemo.has(file)) continue;
      // Overlays, files git reports oversized and unfollowed links are text()'s to decide, on the main thread.
      if (this.readAhead.has(file) || this.overlays.has(file) || this.oversized.has(file) || this.unfollowed.has(file) || this.textMemo.has(file)) continue;
      // Told from the cache's index: a warm run's entries are read as its rules ask for them, not here.
      const key = (id: string): string => (script ? this.scriptKey(file, id, false) : markdownKey(id));
      const known = this.knownId(file);
      if (known !== null && this.cache?.has(key(known)) === true) continue;
      const text = this.readAheadText(file);
      if (text === null) continue;
      if (known === null && this.cache?.has(key(blobId(text))) === true) continue;
      out.push({ file, text });
    }
    return out;
  }

  /**
   * The scripts whose content git does not know (edited, untracked), and with
   * `staged` those the diff changed, with the text this run reads for them:
   * what a run with a warm fact cache may still have to parse. Null when
   * there are more than `max`.
   */
  changedScripts(max: number, staged: boolean): { file: string; text: string }[] | null {
    const out: { file: string; text: string }[] = [];
    const inDiff = new Set(staged ? (this.diffInput?.changes ?? []).filter((change) => change.status !== 'deleted').map((change) => change.path) : []);
    for (const file of this.files) {
      if (this.knownId(file) !== null && !inDiff.has(file)) continue;
      if (!isScriptFile(file) || this.oversized.has(file) || this.unfollowed.has(file) || this.factsMemo.has(file) || this.readAhead.has(file)) continue;
      if (out.length === max) return null;
      const overlay = this.overlays.get(file);
      if (overlay !== undefined) {
        out.push({ file, text: overlay });
        continue;
      }
      const text = this.readAheadText(file);
      if (text !== null) out.push({ file, text });
    }
    return out;
  }

  /** A script's text read ahead of text(), which takes the read as its own (and records what it finds then); null when it cannot be read. */
  private readAheadText(file: string): string | null {
    const read = this.readDisk(file);
    const text = read.ok ? read.bytes.toString('utf8') : null;
    this.readAhead.set(file, text ?? read);
    return text;
  }

  /** Whether the fact cache is on and holds a file from an earlier run: a warm run's. */
  get warmFactCache(): boolean {
    const file = this.cache?.file ?? null;
    return file !== null && existsSync(file);
  }

  /** Facts being extracted on another thread (facts/ahead.ts): extract() takes them for the same text instead of extracting the file. */
  extractingAhead(source: FactsAhead): void {
    this.ahead = source;
  }

  /** The callee names whose calls facts record (tests.ids and tests.selfGate): what an extraction on another thread must be told. */
  extractionCalls(): readonly string[] {
    return this.callNames;
  }

  /** With `--base`: pinnedFacts() of a changed script file as it was at the merge base. */
  oldPinnedFacts(path: string): PinnedFacts | null {
    if (this.tracking) this.log.file(DIFF);
    return this.access('old pinned', path, () => this.loadOldPinnedFacts(path), 'base');
  }

  private loadOldPinnedFacts(path: string): PinnedFacts | null {
    if (this.oldPinnedMemo.has(path)) return this.oldPinnedMemo.get(path) ?? null;
    const text = this.oldFacts(path) === null ? null : this.oldText(path);
    const facts = text === null ? null : this.timed(() => this.extract(path, null, text, true) as PinnedFacts | null);
    this.oldPinnedMemo.set(path, facts);
    return facts;
  }

  /** With `--base`: the text a changed file had at the merge base (by its path there); null otherwise. */
  oldText(path: string): string | null {
    if (this.tracking) this.log.file(DIFF);
    return this.access('old text', path, () => this.readOldText(path), 'base');
  }

  private readOldText(path: string): string | null {
    const oversized = this.oldOversized.get(path);
    // Over the limit at the base: git's size of it is known, its bytes were never read.
    if (oversized !== undefined) this.tooLarge(path, oversized, ' at the merge base');
    return this.oldTexts.get(path) ?? null;
  }

  /** With `--base`: the facts of a changed script file as it was at the merge base. */
  oldFacts(path: string): FileFacts | null {
    if (this.tracking) this.log.file(DIFF);
    return this.access('old facts', path, () => this.loadOldFacts(path), 'base');
  }

  private loadOldFacts(path: string): FileFacts | null {
    if (this.oldFactsMemo.has(path)) return this.oldFactsMemo.get(path) ?? null;
    let text = this.oldText(path);
    if (text !== null && isScriptFile(path) && Buffer.byteLength(text) > this.maxFileBytes) {
      this.tooLarge(path, Buffer.byteLength(text), ' at the merge base');
      text = null;
    }
    const facts = text !== null && isScriptFile(path) ? this.timed(() => this.extract(path, null, text)) : null;
    this.oldFactsMemo.set(path, facts);
    return facts;
  }

  /** The GitHub Actions workflow files (`.github/workflows/*.yml|yaml`, not in subdirectories: GitHub runs no other). */
  workflowFiles(): string[] {
    return this.files.filter((file) => WORKFLOW_FILE.test(file));
  }

  /** Facts of a workflow file, cached with the facts by its content; null when it cannot be read. */
  workflowFacts(file: string): WorkflowFacts | null {
    if (!WORKFLOW_FILE.test(file)) return null;
    return this.timed(() => this.derived(file, 'workflow-facts:3', extractWorkflowFacts));
  }

  /** Facts of a Markdown file (by extension); null for other files and for files that cannot be read. */
  markdownFacts(file: string): MarkdownFacts | null {
    return this.access('markdown', file, () => this.loadMarkdown(file));
  }

  private loadMarkdown(file: string): MarkdownFacts | null {
    if (this.markdownMemo.has(file)) return this.markdownMemo.get(file) ?? null;
    const facts = this.timed(() => this.loadMarkdownFacts(file));
    if (facts) this.recordParseErrors(file, facts.parseErrors);
    this.markdownMemo.set(file, facts);
    return facts;
  }

  private loadMarkdownFacts(file: string): MarkdownFacts | null {
    let facts: MarkdownFacts | null = null;
    const known = isMarkdownFile(file) && this.fileSet.has(file) ? this.knownId(file) : null;
    const cached = known === null ? undefined : this.cache?.get(markdownKey(known));
    if (cached?.kind === 'markdown') {
      this.stats.cached++;
      facts = cached;
    } else {
      const text = isMarkdownFile(file) && this.fileSet.has(file) ? this.text(file) : null;
      // Without a cache (--no-cache) there is no key to hash the text for.
      const key = text === null || !this.cache ? null : markdownKey(blobId(text));
      const byContent = key === null || known !== null ? undefined : this.cache?.get(key);
      if (byContent?.kind === 'markdown') {
        this.stats.cached++;
        facts = byContent;
      } else if (text !== null) {
        // Facts a worker extracted from this very text: the same the line below would give.
        facts = this.ahead?.takeMarkdown?.(file, text) ?? extractMarkdownFacts(text);
        this.stats.parsed++;
        if (key !== null && facts.outOfStack !== true) this.cache?.set(key, facts);
      }
    }
    return facts;
  }

  /** Runs one file's fact lookup, adding its time to `stats.factsMs`, and tells `onFacts`. */
  private timed<T>(lookup: () => T): T {
    const started = performance.now();
    try {
      return lookup();
    } finally {
      this.stats.factsMs += performance.now() - started;
      this.onFacts?.();
    }
  }

  /**
   * A value computed from a file's text by `compute`, cached with the facts:
   * keyed by `purpose` and the file's blob id, so an unchanged file is not even
   * read. `purpose` must name every input of `compute` other than the text
   * (a scan's token list, say), and the value must be plain JSON data. Null
   * when the file cannot be read.
   */
  derived<T>(file: string, purpose: string, compute: (text: string) => T): T | null {
    return this.access(`derived ${purpose}`, file, () => this.loadDerived(file, purpose, compute), 'part');
  }

  private loadDerived<T>(file: string, purpose: string, compute: (text: string) => T): T | null {
    const table = this.cache?.table(`derived ${purpose}`);
    const known = this.knownId(file);
    // Most likely new to the table: computed, the table unread (it is megabytes at 10k files).
    const fresh = this.freshFiles().has(file);
    if (known !== null && !fresh) {
      const hit = table?.get(file, known);
      if (hit !== undefined) return hit as T;
    }
    const text = this.text(file);
    if (text === null) return null;
    // Without a cache (--no-cache) there is no key to hash the text for.
    if (!table) return compute(text);
    const id = blobId(text);
    const hit = known === null && !fresh ? table.get(file, id) : undefined;
    if (hit !== undefined) return hit as T;
    const value = compute(text);
    table.set(file, id, value);
    return value;
  }

  /**
   * The files whose content the caches most likely never saw, when there are
   * no more than FRESH_FILES (else none): those git knows no content id of
   * (edited, untracked) and those the diff changed. A value derived from one
   * is computed rather than looked up: it is the same either way, and a
   * commit's few changed files cost less to compute than a table to read.
   */
  private freshFiles(): ReadonlySet<string> {
    if (this.freshMemo) return this.freshMemo;
    const fresh = new Set((this.diffInput?.changes ?? []).filter((change) => change.status !== 'deleted').map((change) => change.path));
    for (const file of this.files) {
      if (fresh.size > FRESH_FILES) break;
      if (this.knownId(file) === null) fresh.add(file);
    }
    return (this.freshMemo = fresh.size > FRESH_FILES ? new Set() : fresh);
  }

  /**
   * The problems to report. A parse error counts only in a file a contract
   * reads as code or as checked text (see `checkedFiles`): a deliberately
   * malformed fixture that a test only reads as data is not a defect.
   */
  reportedProblems(): FileProblem[] {
    if (!this.problems.some((problem) => problem.kind === 'parse-error')) return this.problems;
    // Taken first: walking the imports reads files the rules did not, and what they did not read is not reported.
    const problems = [...this.problems];
    const checked = this.checkedFiles();
    return problems.filter((problem) => problem.kind !== 'parse-error' || checked.has(problem.file));
  }

  /**
   * Tests, shipped files, the configuration and the map files, and every
   * local module one of them imports, transitively: the files whose syntax a
   * verdict depends on. File level on purpose: a helper that does not parse
   * is broken for every test that loads it, whatever the test uses of it.
   */
  private checkedFiles(): Set<string> {
    const checked = new Set(this.checkRoots());
    const queue = [...checked];
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i] ?? '';
      for (const fact of this.facts(current)?.imports ?? []) {
        const target = this.resolve(current, fact.specifier);
        if (target.kind !== 'file' || checked.has(target.path)) continue;
        checked.add(target.path);
        queue.push(target.path);
      }
    }
    return checked;
  }

  /** Where the files whose syntax a verdict depends on start (checkedFiles): tests, shipped files, the map files and the configuration. */
  checkRoots(): string[] {
    return [...this.testFiles(), ...this.matching(this.config.shipped.include), ...mapRefs(this.config).map((ref) => ref.file), ...paidListRefFiles(this.config), ...(this.configFile === null ? [] : [this.configFile])];
  }

  /** One problem per file however many errors the parser found, and however many rules or passes read it. */
  private recordParseErrors(file: string, errors: readonly { message: string; loc: Loc }[]): void {
    const first = errors[0];
    if (first === undefined) return;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    this.addProblem({ kind: 'parse-error', file, message: `cannot parse ${file}: ${first.message}${more}`, loc: first.loc });
  }

  /** Records that a file a contract reads as text holds no text (binary content), once per file. */
  recordNotText(file: string): void {
    this.log.file(file);
    this.addProblem({
      kind: 'read-error',
      messageId: 'notText',
      file,
      message: `${file} is not text (mostly NUL, control or invalid UTF-8 bytes), so nothing in it was checked: give it the extension of its format, or leave it out of the configured globs`,
      loc: NO_LOC,
    });
  }

  /** Files whose facts this run has loaded, parsed or cached. */
  loadedFiles(): string[] {
    const loaded = [...this.factsMemo.keys()].filter((file) => this.factsMemo.get(file));
    for (const file of this.partLoaded) if (!this.factsMemo.has(file)) loaded.push(file);
    // A reused verdict loaded its files' facts in the run that computed it: this run checks their comments as that run did.
    // Their suppression comments are read where they are checked (a script without facts has none): not here too.
    for (const file of this.replayedLoaded) if (!this.factsMemo.has(file) && !this.partLoaded.has(file)) loaded.push(file);
    return loaded;
  }

  /** The suppression comments of a script, from its facts or the part kept of them; null where facts() is. */
  suppressions(file: string): FileFacts['suppressions'] | null {
    // Outside every computation (the last pass over the loaded scripts) no read is recorded: the part is simply loaded.
    if (!this.log.recording) return this.loadPart('script', file, SUPPRESSIONS_NAME, suppressionsOf, () => true);
    return SUPPRESSIONS(this, file);
  }

  /**
   * The identity of one part of a file as this run sees it (`kind` as a
   * computation's reads name it: Reads.partial), or null when it has none or
   * the part cannot be computed again from its kind alone (not registered):
   * then only the file's content id says whether it is unchanged. A short
   * value is its own identity.
   */
  partDigest(kind: string, file: string, params: unknown = this.partParams.get(kind)): string | null {
    const exact = REDERIVABLE.get(kind);
    const family = exact ? undefined : REDERIVABLE.get(kind.slice(0, kind.indexOf('\0') + 1));
    if (!exact && (!family || params === undefined)) return null;
    const known = this.partValues.get(kind);
    const value = known?.has(file) ? known.get(file) : (exact ?? family)?.(this, file, params);
    if (value === null || value === undefined) return null;
    // Most parts of most files are empty: their identity needs no JSON.
    if (Array.isArray(value) && value.length === 0) return '=[]';
    const json = JSON.stringify(value);
    return json.length <= 64 ? `=${json}` : `#${sha1(json)}`;
  }

  /** The blob id git recorded for an unchanged file, which spares reading it; null when the content must be read. */
  private knownId(file: string): string | null {
    return this.overlays.has(file) ? null : (this.blobIds.get(file) ?? null);
  }

  /**
   * Facts of a script: from the cache by `known` (a blob id) when given,
   * else from `text` (read here when not passed); null when unreadable.
   */
  private extract(file: string, known: string | null, given?: string, pinned = false): FileFacts | null {
    if (known !== null) {
      const cached = this.cache?.get(this.scriptKey(file, known, pinned));
      if (cached?.kind === 'script') {
        this.stats.cached++;
        return cached;
      }
    }
    const text = given ?? this.text(file);
    if (text === null) return null;
    // Without a cache (--no-cache) there is no key to hash the text for.
    const cache = this.cache;
    const key = cache ? this.scriptKey(file, blobId(text), pinned) : null;
    const cached = known === null && key !== null ? cache?.get(key) : undefined;
    if (cached?.kind === 'script') {
      this.stats.cached++;
      return cached;
    }
    // Facts a worker extracted from this very text: the same the line below would give.
    const facts = (pinned ? undefined : this.ahead?.take(file, text)) ?? (pinned ? extractPinnedFacts : extractScriptFacts)(file, text, { calls: this.callNames });
    this.stats.parsed++;
    if (key !== null && facts.outOfStack !== true) cache?.set(key, facts);
    return facts;
  }

  private scriptKey(file: string, id: string, pinned: boolean): string {
    // The path is part of the key (the script kind depends on it), and so are
    // the recorded callee names, the only configuration the facts depend on.
    // The blob id comes first and whole: what tells a live entry (liveContent).
    const key = `${id}:${createHash('sha1').update(file).update('\0').update(this.callNames.join(',')).digest('hex')}`;
    return pinned ? `pinned:${key}` : key;
  }

  /** Writes this model's fact cache, keeping the entries made from content still in the listing (FactCache.save). */
  saveCache(): void {
    if (this.cache) saveFactCache(this.cache, (id) => this.liveContent(id));
  }

  /**
   * Whether content with this blob id is that of a file in the listing: a
   * fact cache entry made from it is kept when the cache is rewritten, though
   * this run did not happen to read it; one no run reads any more is dropped.
   */
  liveContent(id: string): boolean {
    this.liveIds ??= new Set(this.blobIds.values());
    return this.liveIds.has(id);
  }

  /** A manifest or tsconfig file the resolver reads: every resolution may depend on it. */
  private resolverText(file: string): string | undefined {
    this.resolverInputs.add(file);
    return this.text(file) ?? undefined;
  }

  resolve(fromFile: string, specifier: string): Resolution {
    if (this.tracking) this.log.resolved();
    const workspace = this.workspace;
    if (workspace === undefined || workspace.prefix === '') {
      this.resolver ??= createResolver(this.root, this.reachable, (file) => this.resolverText(file));
      return this.resolver.resolve(fromFile, specifier);
    }
    // Resolved as the workspace root sees it (its package.json names the workspace packages), named back from the root.
    const { prefix } = workspace;
    this.resolver ??= createResolver(
      join(this.root, ...prefix.split('/').map(() => '..')),
      new Set([...this.reachable].map((file) => posix.join(prefix, file))),
      (file) => this.resolverText(posix.relative(prefix, file)),
    );
    const found = this.resolver.resolve(posix.join(prefix, fromFile), specifier);
    return found.kind === 'file' ? { kind: 'file', path: posix.relative(prefix, found.path) } : found;
  }
}

function markdownKey(id: string): string {
  return `markdown:${id}`;
}

