import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FileProblem, RepoModel } from '../model/model.js';
import type { Reads, Recorded } from '../model/reads.js';
import { cacheSecret, sealedFile, unsealedRecord, type CacheSecret } from '../util/cache-secret.js';
import { fileStamp, writeFileAtomic } from '../util/fs.js';
import { VERSION } from '../version.js';
import { toolFingerprint } from './fingerprint.js';
import { sha1 } from '../util/hash.js';
import { compareText } from '../util/compare.js';
import type { Revive, Units } from '../rule.js';

// Verdicts a later run reuses, rule by rule. A rule's findings are a function
// of the model's state (configuration, listing, workspace: RepoModel.stateDigest),
// the rule's options and the content of the files it read, which the model
// records (model/reads.ts). A run stores each rule's findings with the files
// it read and the problems those reads recorded; a later run in the same
// state takes them back while every one of those files has the same content,
// and evaluates only the rules that read a changed file, or read it only
// through parts (RepoModel.partDigest) that changed. A new, deleted or renamed
// file changes the listing, and with it every key. Each state has its own
// files, `verdicts-<version>-<state>.json` (rule verdicts) and one
// `….units-<key>.json` per rule that keeps unit verdicts, so a run reads only
// its state's, and of those only the tables of the rules it evaluates.

// 3: with the scripts each verdict loaded the facts of, and the state of each entry.
// 4: with per-unit verdicts (`tables`); 5: a unit's own file and the files it read without loading them.
// 6: units stored as tuples, keyed by listing index (a 10k store was 3.4 MB per state, half of it unit entries).
// 7: a rule's listed files it read only through parts, with the identity of each part and a snapshot of their
//    content ids per state; one pair of files per state.
// 8: what a rule with units read besides them (`preamble`), the order of its findings and units (`plan`), a
//    unit's context itself when it is short, a unit's reads through parts; a file per unit table.
const FORMAT = 8;
/** Lines of a verdict's digest hashed at a time (digestOf). */
const DIGEST_SLICE = 512;
/** A unit's context up to this length is kept as it is (a unit can be computed again from it), a longer one as its digest. */
const KEPT_CONTEXT = 8192;
/**
 * States whose verdicts are kept, the most recently used first: the listings
 * a user moves between (before and after adding a file, another branch) and,
 * at a workspace root, one per package with its own configuration.
 */
const MAX_STATES = 16;
/**
 * States whose unit verdicts are kept: a table holds a verdict per free test or
 * shipped file, so it is large, and what it serves most is the next commit
 * in the same listing.
 */
const MAX_UNIT_STATES = 2;

/** What a computation read, as a verdict keeps it. */
interface ReadsEntry {
  /** The files read, as indexes into the listing (the key fixes it) or, outside it, as paths. */
  listed: number[];
  other: string[];
  /** Of every read file with its content id: what must be the same for the findings to be. */
  digest: string;
  /**
   * Listed files it read only through parts of them (Reads.partial), outside
   * `digest`; null when there are none. A file whose content changed since
   * still holds while every one of those parts is the same.
   */
  partial: PartialReads | null;
  /** The parameters of the families of derived values among those parts (RepoModel.noteParams), by kind. */
  params: [kind: string, params: unknown][];
  /** The scripts whose facts it loaded, as `listed` names files: a run checks their suppression comments. */
  loaded: (number | string)[];
  problems: FileProblem[];
}

interface Entry extends ReadsEntry {
  key: string;
  /** The state the key was made under (its first part). */
  state: string;
  rule: string;
  /** The rule's findings (or the core checks'), as it produced them. */
  findings: unknown[];
  /**
   * Of a rule that can compute its units alone (TripwireRule.resume), what it
   * read besides its units: while that is unchanged, a run takes the order of
   * its findings and units from its table (Table.plan) and computes only the
   * units that read a change.
   */
  preamble?: ReadsEntry;
}

/**
 * Files a verdict read only through parts, compactly: a 10k repository's
 * tests are read this way by two rules, and the store is read on every run.
 * Their content ids are the state's snapshot (Snapshot), which every save
 * writes for the verdicts it found or computed.
 */
interface PartialReads extends Parts {
  /** The save whose snapshot holds these files' content ids as the verdict read them. */
  stamp: string;
}

/** Listed files read only through parts of them, and the identity of each part. */
interface Parts {
  /** Listing indexes, ascending, each written as its difference from the one before. */
  files: number[];
  /** Per file, an index into `combos`: the kind and identity of each part read of it (RepoModel.partDigest). */
  parts: number[];
  combos: [kind: string, digest: string][][];
}

/** Each file of `parts` by listing index, with the kind and identity of each part read of it, until `visit` says false. */
function eachPart(parts: Parts, visit: (at: number, combo: readonly [string, string][]) => boolean): boolean {
  let at = 0;
  for (let i = 0; i < parts.files.length; i++) {
    at += parts.files[i] ?? 0;
    if (visit(at, parts.combos[parts.parts[i] ?? -1] ?? []) === false) return false;
  }
  return true;
}

/** The content id of each listed file a verdict read through parts, by listing index (0: none recorded), as of the save `stamp`. */
interface Snapshot {
  state: string;
  stamp: string;
  ids: (string | null | 0)[];
}

/** A unit's verdict (Units): its findings, with what computing them read. */
interface UnitEntry {
  /** Index into the table's `sets`: the listed files it read besides the unit's own, which the units of a rule seldom share. */
  set: number;
  /** Whether it read the unit's own file (a unit named by a listed path). */
  self: boolean;
  /** Files read outside the listing (and the diff), with their content id then. */
  other: [string, string | null][];
  /** The files it read without loading their facts (as `listed` names files); it loaded the facts of every other file it read. */
  unloaded: (number | string)[];
  findings: unknown[];
  problems: FileProblem[];
  /** The context the unit was computed in (Units.of), when it was given one: `=` and the context, or `#` and its digest when it is long. */
  context?: string;
  /** Listed files it read only through parts of them (their content ids then are the table's `ids`). */
  partial?: Parts;
  /** The parameters of the families of derived values among those parts, by kind. */
  params?: [kind: string, params: unknown][];
}

/** A rule's findings in order (Table.plan): a unit's, by its key (its listing index when it names a listed file), or one it found itself. */
type PlanItem = [kind: 0, unit: string | number] | [kind: 1, finding: unknown];

/** One rule's unit verdicts in one state: the content id each read file had, and each unit's entry. */
interface Table {
  key: string;
  state: string;
  rule: string;
  /** Content id of every listed file a unit read, by listing index. */
  ids: [number, string | null][];
  /** The distinct sets of listed files the units read (most units share one with their neighbours). */
  sets: number[][];
  units: StoredUnit[];
  /** The rule's findings in the order it returned them, each unit's in its place (Entry.preamble); absent when they were not in unit order. */
  plan?: PlanItem[];
}

/**
 * A unit's entry as written: its key (its listing index when it names a
 * listed file, which the state fixes), its set, whether it read its own file
 * (1 or 0), then unloaded, other, findings, problems, context, its reads
 * through parts and their parameters, the trailing empty ones (null, []) left
 * out.
 */
type StoredUnit = [
  key: string | number,
  set: number,
  self: number,
  unloaded?: (number | string)[],
  other?: [string, string | null][],
  findings?: unknown[],
  problems?: FileProblem[],
  context?: string | null,
  partial?: Parts | null,
  params?: [string, unknown][],
];

function storedUnit(key: string | number, entry: UnitEntry): StoredUnit {
  const unit: StoredUnit = [key, entry.set, entry.self ? 1 : 0, entry.unloaded, entry.other, entry.findings, entry.problems, entry.context ?? null, entry.partial ?? null, entry.params ?? []];
  while (unit.length > 3) {
    const last = unit.at(-1);
    if (last === undefined || last === null || (Array.isArray(last) && last.length === 0)) unit.pop();
    else break;
  }
  return unit;
}

function unitEntry(unit: StoredUnit, files: readonly string[]): [string, UnitEntry] {
  const [key, set, self, unloaded = [], other = [], findings = [], problems = [], context, partial, params] = unit;
  const entry = withOptional({ set, self: self === 1, unloaded, other, findings, problems }, typeof context === 'string' ? context : undefined, partial ?? undefined, params && params.length > 0 ? params : undefined);
  return [typeof key === 'number' ? (files[key] ?? '') : key, entry];
}

/** A unit's entry with its set's index in the table this run stores. */
function withSet(entry: UnitEntry, set: number): UnitEntry {
  if (entry.set === set) return entry;
  return withOptional({ set, self: entry.self, unloaded: entry.unloaded, other: entry.other, findings: entry.findings, problems: entry.problems }, entry.context, entry.partial, entry.params);
}

/** `entry` with the fields a unit has only sometimes, each set when present: built field by field, not spread (a 10k table holds 7,500 units, read on every run that evaluates the rule). */
function withOptional(entry: UnitEntry, context: string | undefined, partial: Parts | undefined, params: [string, unknown][] | undefined): UnitEntry {
  if (context !== undefined) entry.context = context;
  if (partial) entry.partial = partial;
  if (params) entry.params = params;
  return entry;
}

/** A table as a run uses it. */
interface LiveTable {
  key: string;
  state: string;
  rule: string;
  ids: Map<number, string | null>;
  sets: number[][];
  units: Map<string, UnitEntry>;
  plan?: PlanItem[];
}

export interface VerdictStore {
  /** The findings `rule` gave with these options when every file it read had its content now; its problems are recorded again in the model. */
  reuse<T>(rule: string, options: unknown): T[] | null;
  /** Keeps a rule's findings with what computing them read, and (for a rule that can resume) what it read besides its units. */
  keep(rule: string, options: unknown, findings: readonly unknown[], reads: Reads<FileProblem>, preamble?: Reads<FileProblem>): void;
  /**
   * The units of a rule that evaluates unit by unit: each taken from the last
   * run that stored it while what it read is unchanged, else computed and
   * kept. Of a rule that can `resume`, short contexts are kept as they are,
   * and the plan (StoreUnits.finish).
   */
  units(rule: string, options: unknown, resumable?: boolean): StoreUnits;
  /** Writes the kept verdicts; never throws. */
  save(): void;
}

/** A rule's units as the store evaluates them (VerdictStore.units). */
export interface StoreUnits extends Units {
  /** What the units computed or taken back read, kept apart from what the rule read besides them. */
  readonly recorded: Recorded<FileProblem>;
  /**
   * The rule's findings without running it, when nothing it read besides its
   * units changed since a run stored its plan (Table.plan): the findings it
   * found itself as they were, and each unit's taken back or computed by
   * `revive`; null, having done nothing, otherwise.
   */
  resume<T>(revive: () => Revive): T[] | null;
  /**
   * Notes the order of what the rule returned (Table.plan): each unit's
   * findings whole and in the order it asked for them, or no plan; and
   * charges `recorded` with what the units taken back read, each set once.
   */
  finish(findings: readonly unknown[]): void;
}

/**
 * The store in the cache directory `dir`, for this model's state and the
 * configuration file's bytes (`config`: its blob id, or null without one);
 * null when the user's cache secret does not outlive the run.
 */
export function openVerdicts(model: RepoModel, dir: string, config: string | null, secret: CacheSecret = cacheSecret()): VerdictStore | null {
  if (!secret.persistent) return null;
  const state = createHash('sha1').update(`${FORMAT} ${VERSION} ${toolFingerprint()}\0${model.stateDigest()}\0${config ?? '-'}`).digest('hex');
  // Files per state: a run reads only its own state's verdicts, and a rule's unit verdicts only when the rule is evaluated.
  const prefix = `verdicts-${VERSION.replace(/[^\w.-]/g, '_')}-`;
  const file = join(dir, `${prefix}${state.slice(0, 16)}.json`);
  /** A rule's unit verdicts have a file of their own: a run reads the tables of the rules it evaluates, and writes those. */
  const unitsFile = (key: string): string => join(dir, `${prefix}${state.slice(0, 16)}.units-${key.slice(0, 16)}.json`);
  const context = `tripwire-verdicts ${basename(file)}`;
  const unitsContext = (key: string): string => `tripwire-verdicts ${basename(unitsFile(key))}`;
  const index = new Map(model.files.map((path, i) => [path, i]));
  /** Each listed file's content id, once, by listing index: the checks of every file a verdict read (tens of thousands at 10k) look up no path. */
  const idsAt: (string | null | undefined)[] = new Array<string | null | undefined>(model.files.length);
  const idAt = (i: number): string | null => {
    let id = idsAt[i];
    if (id === undefined) idsAt[i] = id = model.contentId(model.files[i] ?? '');
    return id;
  };
  /** A file's content id, once: a listed one's by its index, one outside the listing by its path. */
  const outsideIds = new Map<string, string | null>();
  const idOf = (path: string): string | null => {
    const at = index.get(path);
    if (at !== undefined) return idAt(at);
    if (!outsideIds.has(path)) outsideIds.set(path, model.contentId(path));
    return outsideIds.get(path) ?? null;
  };
  const pathsOf = (listed: readonly number[], other: readonly string[]): string[] => [...listed.map((i) => model.files[i] ?? ''), ...other];
  const lineOf = (path: string, id: string | null): string => `${path}\0${id ?? '-'}\n`;
  /** Each listed file's line of a digest, once: the verdicts of most rules read the same thousands of files. */
  const lines: (string | undefined)[] = new Array<string | undefined>(model.files.length);
  const lineAt = (i: number): string => (lines[i] ??= lineOf(model.files[i] ?? '', idAt(i)));
  /** What must be the same for what a verdict read to be: each file read, listed files then others, with its content id. */
  const digestOf = (listed: readonly number[], other: readonly string[]): string => {
    const hash = createHash('sha1');
    // Slice by slice: one text of ten thousand lines costs two to three times more to build and encode.
    for (let at = 0; at < listed.length; at += DIGEST_SLICE) hash.update(listed.slice(at, at + DIGEST_SLICE).map(lineAt).join(''));
    return hash.update(other.map((path) => lineOf(path, idOf(path))).join('')).digest('hex');
  };
  const keyOf = (rule: string, options: unknown): string => sha1(`${state}\0${rule}\0${JSON.stringify(options ?? null)}`);
  /** This run's save: the verdicts it keeps have their partial reads in its snapshot. */
  const stamp = randomBytes(8).toString('hex');
  /** The files the kept verdicts read through parts, by listing index (1: in it): this run's snapshot holds their content ids. */
  const inSnapshot = new Uint8Array(model.files.length);
  let snapshotSize = 0;
  const toSnapshot = (i: number): void => {
    if (inSnapshot[i] === 1) return;
    inSnapshot[i] = 1;
    snapshotSize++;
  };
  /** Each part's identity by kind and file, told once per run: the rules that read every test through the same part share them. */
  const digests = new Map<string, Map<string, string | null>>();
  const digestsOf = (kind: string): Map<string, string | null> => {
    let byFile = digests.get(kind);
    if (!byFile) digests.set(kind, (byFile = new Map()));
    return byFile;
  };
  /**
   * The parts stored verdicts told whose identity this run confirmed (partsStill), the first `files` files of each:
   * what a verdict kept from this run's reads takes without computing them. Told into `digests` only once a part's
   * identity is asked for (most runs never ask: a 10k run confirms the parts of some 26,000 files).
   */
  const confirmed: { parts: Parts; files: number }[] = [];
  const tellConfirmed = (): void => {
    for (const { parts, files } of confirmed.splice(0)) {
      let visited = 0;
      eachPart(parts, (at, combo) => {
        if (visited++ === files) return false;
        const path = model.files[at] ?? '';
        for (const [kind, digest] of combo) {
          const byFile = digestsOf(kind);
          if (!byFile.has(path)) byFile.set(path, digest);
        }
        return true;
      });
    }
  };
  const digestOfPart = (kind: string, path: string): string | null => {
    tellConfirmed();
    const byFile = digestsOf(kind);
    let digest = byFile.get(path);
    if (digest === undefined) byFile.set(path, (digest = model.partDigest(kind, path)));
    return digest;
  };
  /** A part's identity now, its parameters (if any) kept in `params`; null when it has none (the file counts as read whole). */
  const identityOf = (kind: string, path: string, params: Map<string, unknown>): string | null => {
    const digest = digestOfPart(kind, path);
    if (digest !== null && !params.has(kind)) {
      const given = model.paramsOf(kind);
      if (given !== undefined) params.set(kind, given);
    }
    return digest;
  };
  /**
   * Whether an entry's files read through parts still give what it read:
   * each has the content id the snapshot holds for it, or its parts are the
   * same, and neither the verdict nor this run recorded a problem in it (which
   * a part's identity does not cover). A verdict the state's snapshot does
   * not describe (stored by an earlier save) does not hold.
   */
  const partsHold = (entry: ReadsEntry): boolean => {
    const partial = entry.partial;
    if (!partial) return true;
    const snapshot = storedSnapshots.find((candidate) => candidate.state === state);
    if (!snapshot || snapshot.stamp !== partial.stamp) return false;
    const seen: number[] = [];
    const same = (at: number): boolean | null => {
      const then = snapshot.ids[at];
      seen.push(at);
      return then === idAt(at) ? true : then === 0 || then === undefined ? null : false;
    };
    if (!partsStill(partial, entry.params, entry.problems, same)) return false;
    for (const i of seen) toSnapshot(i);
    return true;
  };
  /**
   * Whether the files of `parts` still give what a verdict read of them:
   * `same` tells whether a file has the content id it had (null: unknown,
   * which does not hold); one that changed holds while every part is the same
   * and neither the verdict (`problems`) nor this run recorded a problem in it.
   * The identity of each part of a file that holds is known from here on (confirmed).
   */
  const partsStill = (parts: Parts, paramsList: readonly [string, unknown][] | undefined, problems: readonly FileProblem[], same: (at: number, path: string) => boolean | null): boolean => {
    const params = new Map(paramsList);
    let holding = 0;
    const still = eachPart(parts, (at, combo) => {
      const path = model.files[at] ?? '';
      const unchanged = same(at, path);
      if (unchanged === null) return false;
      if (!unchanged && (problems.some((problem) => problem.file === path) || !combo.every(([kind, digest]) => model.partDigest(kind, path, params.get(kind)) === digest) || model.hasProblemIn(path))) return false;
      holding++;
      return true;
    });
    // A family's kind names its parameters: the identity of each part that holds is that of the part as this run would compute it.
    if (holding > 0) confirmed.push({ parts, files: holding });
    return still;
  };
  /** Charges the computation running now with the parts a verdict read, and notes their families' parameters as this run's (a verdict kept from these reads computes such parts again). */
  const chargeParts = (parts: Parts | null | undefined, paramsList: readonly [string, unknown][] | undefined, visit?: (at: number, path: string) => void): void => {
    for (const [kind, params] of paramsList ?? []) if (model.paramsOf(kind) === undefined) model.noteParams(kind, params);
    if (!parts) return;
    eachPart(parts, (at, combo) => {
      const path = model.files[at] ?? '';
      for (const [kind] of combo) model.chargePart(path, kind);
      visit?.(at, path);
      return true;
    });
  };
  /**
   * The partial reads of a computation, with the identity of each part; a
   * file whose parts cannot be told again goes to `whole`. `noteAt` is told
   * each file kept (a verdict's go into this run's snapshot).
   */
  const partialOf = (reads: Reads<FileProblem>, params: Map<string, unknown>, whole: number[], noteAt: (at: number, path: string) => void): Parts | null => {
    /** Combination index by listing index: a sparse array, read in index order. */
    const comboAt: number[] = [];
    const combos: [string, string][][] = [];
    // By kind, then identity, for the one-part files (nearly all); by JSON for the others.
    const single = new Map<string, Map<string, number>>();
    const several = new Map<string, number>();
    /** The combination of one part, without a list made per file. */
    const one = (path: string, kind: string): number | undefined => {
      const digest = identityOf(kind, path, params);
      if (digest === null) return undefined;
      let byDigest = single.get(kind);
      if (!byDigest) single.set(kind, (byDigest = new Map()));
      let combo = byDigest.get(digest);
      if (combo === undefined) byDigest.set(digest, (combo = combos.push([[kind, digest]]) - 1));
      return combo;
    };
    const many = (path: string, kinds: readonly string[]): number | undefined => {
      const parts: [string, string][] = [];
      for (const kind of [...kinds].sort()) {
        const digest = identityOf(kind, path, params);
        if (digest === null) return undefined;
        parts.push([kind, digest]);
      }
      const key = JSON.stringify(parts);
      let combo = several.get(key);
      if (combo === undefined) several.set(key, (combo = combos.push(parts) - 1));
      return combo;
    };
    let count = 0;
    for (const [path, kinds] of reads.partial) {
      const at = index.get(path);
      if (at === undefined) continue;
      const combo = typeof kinds === 'string' ? one(path, kinds) : many(path, kinds);
      if (combo === undefined) {
        whole.push(at);
        continue;
      }
      comboAt[at] = combo;
      count++;
      noteAt(at, path);
    }
    if (count === 0) return null;
    const files: number[] = [];
    const parts: number[] = [];
    let previous = 0;
    comboAt.forEach((combo, at) => {
      files.push(at - previous);
      parts.push(combo);
      previous = at;
    });
    return { files, parts, combos };
  };
  // Stamped before the read: a file replaced after it has another stamp, and save reads it again.
  const readStamp = fileStamp(file);
  const { entries: stored, snapshots: storedSnapshots } = readStore(file, context, secret);
  /** The table a run stored for a rule's key, if one verifies. */
  const storedTable = (key: string): Table | undefined => readStore(unitsFile(key), unitsContext(key), secret).tables.find((candidate) => candidate.key === key);
  const kept: Entry[] = [];
  const keptTables: LiveTable[] = [];
  /** A file a verdict names by listing index, or by path outside the listing. */
  const pathOf = (at: number | string): string => (typeof at === 'number' ? (model.files[at] ?? '') : at);
  const pathsOfLoaded = (loaded: readonly (number | string)[]): string[] => loaded.map(pathOf);
  /** Whether what a rule read besides its units still gives what it read (Entry.preamble). */
  const preambleHolds = (preamble: ReadsEntry): boolean => digestOf(preamble.listed, preamble.other) === preamble.digest && partsHold(preamble);
  /** A verdict this run found to hold, with its parts in this run's snapshot. */
  const restamped = <E extends ReadsEntry>(entry: E): E => (entry.partial ? { ...entry, partial: { ...entry.partial, stamp } } : entry);
  /** What a computation read, as a verdict keeps it. */
  const readsEntry = (reads: Reads<FileProblem>): ReadsEntry => {
    const listed: number[] = [];
    const other: string[] = [];
    const params = new Map<string, unknown>();
    for (const path of reads.files) {
      const at = index.get(path);
      if (at === undefined) other.push(path);
      else if (!reads.partial.has(path)) listed.push(at);
    }
    // A file whose parts cannot be told again is read whole (partialOf adds it to `listed`).
    const parts = partialOf(reads, params, listed, toSnapshot);
    listed.sort((a, b) => a - b);
    other.sort();
    return { listed, other, digest: digestOf(listed, other), partial: parts && { ...parts, stamp }, params: [...params], loaded: [...reads.loaded].map((path) => index.get(path) ?? path), problems: [...reads.problems] };
  };

  return {
    reuse<T>(rule: string, options: unknown): T[] | null {
      const key = keyOf(rule, options);
      const entry = stored.find((candidate) => candidate.key === key);
      if (!entry) return null;
      if (digestOf(entry.listed, entry.other) !== entry.digest) return null;
      if (!partsHold(entry)) return null;
      model.replayVerdict(entry.problems, pathsOfLoaded(entry.loaded));
      for (const path of entry.other) model.noteOutside(path, idOf(path));
      // The preamble is kept while it holds too (its parts are in this run's snapshot only once checked).
      const preamble = entry.preamble && preambleHolds(entry.preamble) ? restamped(entry.preamble) : undefined;
      const next: Entry = { ...restamped(entry) };
      if (preamble) next.preamble = preamble;
      else delete next.preamble;
      kept.push(next);
      return entry.findings as T[];
    },
    keep(rule, options, findings, reads, preamble) {
      kept.push({ key: keyOf(rule, options), state, rule, ...readsEntry(reads), findings: [...findings], ...(preamble && { preamble: readsEntry(preamble) }) });
    },
    units(rule, options, resumable = false) {
      const key = keyOf(rule, options);
      const found = storedTable(key);
      const before = found && { ids: new Map(found.ids), sets: found.sets, units: new Map(found.units.map((unit) => unitEntry(unit, model.files))) };
      const table: LiveTable = { key, state, rule, ids: new Map(), sets: [], units: new Map() };
      const setIndex = new Map<string, number>();
      const noteId = (i: number): void => {
        if (!table.ids.has(i)) table.ids.set(i, idAt(i));
      };
      const intern = (listed: readonly number[]): number => {
        const id = listed.join(',');
        let at = setIndex.get(id);
        if (at === undefined) {
          at = table.sets.push([...listed]) - 1;
          setIndex.set(id, at);
          for (const i of listed) noteId(i);
        }
        return at;
      };
      const sameId = (i: number): boolean => before?.ids.has(i) === true && idAt(i) === before.ids.get(i);
      /** Per stored set: whether every file in it has the content id it had. */
      const unchanged = new Map<number, boolean>();
      /** Per stored set: its files' paths, and its index in the table this run stores. */
      const setPaths = new Map<number, string[]>();
      const remapped = new Map<number, number>();
      const holds = (unit: string, entry: UnitEntry, context: string | undefined): boolean => {
        if (!before || entry.context !== context) return false;
        let same = unchanged.get(entry.set);
        if (same === undefined) {
          const listed = before.sets[entry.set];
          same = listed !== undefined && listed.every(sameId);
          unchanged.set(entry.set, same);
        }
        const self = index.get(unit);
        // Its files read through parts have their content ids then in the table's ids.
        return (
          same &&
          (!entry.self || (self !== undefined && sameId(self))) &&
          entry.other.every(([path, id]) => idOf(path) === id) &&
          (!entry.partial || partsStill(entry.partial, entry.params, entry.problems, (at) => (sameId(at) ? true : before.ids.has(at) ? false : null)))
        );
      };
      const counts = { evaluated: 0, reused: 0 };
      const recorded: Recorded<FileProblem> = { resolved: false };
      /**
       * Of the units taken back that read only their set and their own file: the
       * sets and the own files, grouped by the files they read without loading
       * (most units of a rule share those: the same manifests), by that list's key.
       */
      const settled = new Map<string, { unloaded: readonly (number | string)[]; sets: Set<number>; own: string[] }>();
      /** The units in the order the rule asked for them, and the unit each finding they gave came from: the plan (finish). */
      const asked: string[] = [];
      const owner = new Map<unknown, string>();
      const results = new Map<string, readonly unknown[]>();
      let ordered = true;
      const note = <T>(unit: string, findings: readonly T[]): T[] => {
        asked.push(unit);
        if (findings.length === 0) return findings as T[];
        results.set(unit, findings);
        for (const finding of findings) {
          // A finding given twice has no one place in the findings.
          if (owner.has(finding)) ordered = false;
          owner.set(finding, unit);
        }
        return findings as T[];
      };
      /** A unit's findings with its context as kept (UnitEntry.context). */
      const of = <T>(unit: string, compute: () => T[], context: string | undefined): T[] => {
        // Kept from its first unit: a rule that never asks stores no table.
        if (table.units.size === 0 && !keptTables.includes(table)) keptTables.push(table);
        // A unit asked twice has no one place in the findings.
        else if (table.units.has(unit)) ordered = false;
        const self = index.get(unit);
        const previous = before?.units.get(unit);
        if (previous && before && holds(unit, previous, context)) {
          const own = previous.self && self !== undefined;
          if (own) noteId(self);
          // Nearly every unit taken back read only its set and its own file: those are charged once per set (finish).
          const plain = previous.other.length === 0 && previous.problems.length === 0 && !previous.partial && !previous.params;
          if (plain) {
            const group = JSON.stringify(previous.unloaded);
            let settledGroup = settled.get(group);
            if (!settledGroup) settled.set(group, (settledGroup = { unloaded: previous.unloaded, sets: new Set(), own: [] }));
            settledGroup.sets.add(previous.set);
            if (own) settledGroup.own.push(unit);
          }
          const unloaded = plain || previous.unloaded.length === 0 ? null : new Set(pathsOfLoaded(previous.unloaded));
          if (!plain) model.chargedTo(recorded, () => {
            // Neighbouring units share a set: its paths are found once.
            let paths = setPaths.get(previous.set);
            if (paths === undefined) setPaths.set(previous.set, (paths = (before.sets[previous.set] ?? []).map((i) => model.files[i] ?? '')));
            const files = previous.other.length === 0 && !own ? paths : [...paths, ...previous.other.map(([path]) => path), ...(own ? [unit] : [])];
            model.chargeVerdict(files, previous.problems, unloaded === null ? files : files.filter((path) => !unloaded.has(path)));
            // The files it read through parts are read through the same parts again (the parts that load a script's facts load it).
            const loaded: string[] = [];
            chargeParts(previous.partial, previous.params, (at, path) => {
              noteId(at);
              if (!unloaded?.has(path)) loaded.push(path);
            });
            model.chargeVerdict([], [], loaded);
          });
          for (const [path, id] of previous.other) model.noteOutside(path, id);
          let set = remapped.get(previous.set);
          if (set === undefined) remapped.set(previous.set, (set = intern(before.sets[previous.set] ?? [])));
          table.units.set(unit, withSet(previous, set));
          counts.reused++;
          return note(unit, previous.findings as T[]);
        }
        counts.evaluated++;
        const computed = model.recording(compute, true);
        (recorded.parts ??= new Set()).add(computed.recorded);
        const reads = model.readsOf(computed.recorded);
        const listed: number[] = [];
        const other: [string, string | null][] = [];
        const unloaded: (number | string)[] = [];
        let own = false;
        for (const path of reads.files) {
          const at = index.get(path);
          if (!reads.loaded.has(path)) unloaded.push(at ?? path);
          if (at === undefined) other.push([path, idOf(path)]);
          else if (reads.partial.has(path)) continue;
          else if (at === self) own = true;
          else listed.push(at);
        }
        // A file whose parts cannot be told again is read whole (partialOf adds it to `listed`).
        const params = new Map<string, unknown>();
        const partial = reads.partial.size === 0 ? null : partialOf(reads, params, listed, (at) => noteId(at));
        if (self !== undefined && listed.includes(self)) {
          own = true;
          listed.splice(listed.indexOf(self), 1);
        }
        if (own && self !== undefined) noteId(self);
        listed.sort((a, b) => a - b);
        other.sort(([a], [b]) => compareText(a, b));
        table.units.set(unit, {
          set: intern(listed),
          self: own,
          other,
          unloaded,
          findings: [...computed.value],
          problems: [...reads.problems],
          ...(context !== undefined && { context }),
          ...(partial && { partial }),
          ...(params.size > 0 && { params: [...params] }),
        });
        return note(unit, computed.value);
      };
      return {
        counts,
        recorded,
        of: (unit, compute, given) => of(unit, compute, given === undefined ? undefined : resumable && given.length <= KEPT_CONTEXT ? `=${given}` : `#${sha1(given)}`),
        resume<T>(revive: () => Revive): T[] | null {
          const preamble = stored.find((candidate) => candidate.key === key)?.preamble;
          const plan = found?.plan;
          if (!preamble || !plan || !before) return null;
          // Every unit that read a change must be computable from what is kept of its context.
          for (const item of plan) {
            if (item[0] !== 0) continue;
            const unit = pathOf(item[1]);
            const previous = before.units.get(unit);
            if (!previous || (previous.context?.startsWith('#') === true && !holds(unit, previous, previous.context))) return null;
          }
          if (!preambleHolds(preamble)) return null;
          // What the rule read besides its units, charged as if it had read it again.
          model.chargeVerdict(pathsOf(preamble.listed, preamble.other), preamble.problems, pathsOfLoaded(preamble.loaded));
          for (const path of preamble.other) model.noteOutside(path, idOf(path));
          chargeParts(preamble.partial, preamble.params);
          let computeUnit: Revive | null = null;
          const findings: T[] = [];
          for (const item of plan) {
            if (item[0] === 1) {
              findings.push(item[1] as T);
              continue;
            }
            const unit = pathOf(item[1]);
            const context = before.units.get(unit)?.context;
            const given = context?.startsWith('=') === true ? context.slice(1) : undefined;
            findings.push(...of(unit, () => (computeUnit ??= revive())(unit, given) as T[], context));
          }
          return findings;
        },
        finish(findings: readonly unknown[]): void {
          table.plan = resumable && ordered ? planOf(findings, asked, owner, results) : undefined;
          model.chargedTo(recorded, () => {
            for (const group of settled.values()) {
              // Each file once: neighbouring sets share most of their files (at 10k, 12,500 members of 1,000 sets are 2,100 files).
              const charged = new Uint8Array(model.files.length);
              const files: string[] = [];
              const charge = (at: number | undefined, path: string): void => {
                if (at !== undefined && charged[at] === 1) return;
                if (at !== undefined) charged[at] = 1;
                files.push(path);
              };
              for (const set of group.sets) for (const at of before?.sets[set] ?? []) charge(at, model.files[at] ?? '');
              for (const unit of group.own) charge(index.get(unit), unit);
              // The files none of these units loaded stay unloaded: the group shares them (a unit's charge is its files, less those).
              const unloaded = new Set(pathsOfLoaded(group.unloaded));
              model.chargeVerdict(files, [], unloaded.size === 0 ? files : files.filter((path) => !unloaded.has(path)));
            }
          });
        },
      };
    },
    save() {
      // Read again when another run (a workspace package's, a concurrent one) has stored its own since.
      if (kept.length > 0) {
        const current = fileStamp(file) === readStamp ? { entries: stored, snapshots: storedSnapshots } : readStore(file, context, secret);
        const keys = new Set(kept.map((entry) => entry.key));
        const entries = [...kept, ...current.entries.filter((entry) => entry.state === state && !keys.has(entry.key))];
        // The snapshot is this run's when a kept verdict read through parts; the verdicts an earlier save stamped then no longer hold.
        const snapshots: Snapshot[] = snapshotSize === 0 ? current.snapshots.filter((snapshot) => snapshot.state === state) : [{ state, stamp, ids: model.files.map((_, i) => (inSnapshot[i] === 1 ? idAt(i) : 0)) }];
        write(file, context, { format: FORMAT, entries, snapshots });
      }
      // The tables of the rules not evaluated stay as they are, in their own files.
      for (const table of keptTables) write(unitsFile(table.key), unitsContext(table.key), { format: FORMAT, tables: [toStored(table, index)] });
      if (kept.length > 0 || keptTables.length > 0) prune(dir, prefix);
    },
  };

  function write(target: string, sealedAs: string, data: object): void {
    try {
      writeFileAtomic(target, sealedFile(secret, sealedAs, JSON.stringify(data)));
    } catch {
      // An unusable cache directory: the next run evaluates every rule.
    }
  }
}

/**
 * Keeps the verdicts of the MAX_STATES states used last and the unit
 * verdicts of the MAX_UNIT_STATES used last (by the time each file was
 * written), and removes the single store earlier versions wrote.
 */
function prune(dir: string, prefix: string): void {
  try {
    const byAge = (names: string[]): string[] =>
      names
        .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
        .sort((a, b) => b.at - a.at)
        .map(({ name }) => name);
    const names = readdirSync(dir).filter((name) => name.startsWith(prefix) && name.endsWith('.json'));
    const isUnits = (name: string): boolean => name.includes('.units');
    // A state's unit tables go together: the state of the newest table of each counts.
    const unitStates = [...new Set(byAge(names.filter(isUnits)).map((name) => name.slice(0, name.indexOf('.units'))))];
    const staleUnits = names.filter((name) => isUnits(name) && !unitStates.slice(0, MAX_UNIT_STATES).includes(name.slice(0, name.indexOf('.units'))));
    const states = byAge(names.filter((name) => !isUnits(name)));
    // `….units.json`: all of a state's tables in one file, as format 7 kept them.
    const oneFile = names.filter((name) => name.endsWith('.units.json'));
    for (const name of [...staleUnits, ...oneFile, ...states.slice(MAX_STATES)]) rmSync(join(dir, name), { force: true });
    rmSync(join(dir, `${prefix.slice(0, -1)}.json`), { force: true });
  } catch {
    // Another run pruned first, or the directory is unusable: nothing to keep tidy.
  }
}

/**
 * The order of a rule's findings as a plan (Table.plan): the findings it found
 * itself as they are, each unit in the place of its findings, and the units
 * without findings between, in the order they were asked for. Undefined when
 * the findings are not so ordered: a unit's findings split, reordered, left
 * out, or out of the order of the units.
 */
function planOf(findings: readonly unknown[], asked: readonly string[], owner: ReadonlyMap<unknown, string>, results: ReadonlyMap<string, readonly unknown[]>): PlanItem[] | undefined {
  const plan: PlanItem[] = [];
  let next = 0;
  /** Asks up to and including `unit`; every unit before it gave no finding. */
  const reach = (unit: string | null): boolean => {
    while (next < asked.length) {
      const current = asked[next++] ?? '';
      plan.push([0, current]);
      if (current === unit) return true;
      if ((results.get(current)?.length ?? 0) > 0) return false;
    }
    return unit === null;
  };
  for (let i = 0; i < findings.length; ) {
    const finding = findings[i];
    const unit = owner.get(finding);
    if (unit === undefined) {
      plan.push([1, finding]);
      i++;
      continue;
    }
    if (!reach(unit)) return undefined;
    const given = results.get(unit) ?? [];
    for (let k = 0; k < given.length; k++) if (findings[i + k] !== given[k]) return undefined;
    i += given.length;
  }
  return reach(null) ? plan : undefined;
}

function toStored(table: LiveTable, index: ReadonlyMap<string, number>): Table {
  const stored: Table = { key: table.key, state: table.state, rule: table.rule, ids: [...table.ids], sets: table.sets, units: [...table.units].map(([key, entry]) => storedUnit(index.get(key) ?? key, entry)) };
  if (table.plan) stored.plan = table.plan.map((item) => (item[0] === 0 ? [0, index.get(item[1] as string) ?? item[1]] : item));
  return stored;
}

/** A state's file of verdicts (entries and snapshots) or of unit verdicts (tables): what it holds that verifies, the rest empty. */
function readStore(file: string, context: string, secret: CacheSecret): { entries: Entry[]; tables: Table[]; snapshots: Snapshot[] } {
  const none = { entries: [], tables: [], snapshots: [] };
  try {
    // A file that does not verify (forged, torn, another key's, another state's) holds no verdict.
    // The MAC is checked over the bytes as read, and the text decoded once (megabytes at 10k).
    const body = unsealedRecord(secret, context, readFileSync(file));
    if (body === null) return none;
    const data: unknown = JSON.parse(body.toString('utf8'));
    if (typeof data === 'object' && data !== null && 'format' in data && data.format === FORMAT) {
      const list = (key: string): unknown[] => (key in data && Array.isArray((data as Record<string, unknown>)[key]) ? ((data as Record<string, unknown>)[key] as unknown[]) : []);
      return { entries: list('entries').filter(isEntry), tables: list('tables').filter(isTable), snapshots: list('snapshots').filter(isSnapshot) };
    }
  } catch {
    // Missing or corrupt: no verdict is known.
  }
  return none;
}

function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const snapshot = value as Partial<Snapshot>;
  return typeof snapshot.state === 'string' && typeof snapshot.stamp === 'string' && Array.isArray(snapshot.ids) && snapshot.ids.every((id) => typeof id === 'string' || id === null || id === 0);
}

function isEntry(value: unknown): value is Entry {
  if (!isReadsEntry(value)) return false;
  const entry = value as Partial<Entry>;
  return typeof entry.key === 'string' && typeof entry.state === 'string' && typeof entry.rule === 'string' && Array.isArray(entry.findings) && (entry.preamble === undefined || isReadsEntry(entry.preamble));
}

function isReadsEntry(value: unknown): value is ReadsEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<ReadsEntry>;
  return (
    typeof entry.digest === 'string' &&
    (entry.partial === null || isPartialReads(entry.partial)) &&
    Array.isArray(entry.params) &&
    entry.params.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string') &&
    Array.isArray(entry.listed) &&
    entry.listed.every((i) => Number.isInteger(i)) &&
    Array.isArray(entry.other) &&
    entry.other.every((path) => typeof path === 'string') &&
    Array.isArray(entry.loaded) &&
    entry.loaded.every((at) => typeof at === 'string' || Number.isInteger(at)) &&
    Array.isArray(entry.problems)
  );
}

function isPartialReads(value: unknown): value is PartialReads {
  return isParts(value) && typeof (value as Partial<PartialReads>).stamp === 'string';
}

function isParts(value: unknown): value is Parts {
  if (typeof value !== 'object' || value === null) return false;
  const partial = value as Partial<Parts>;
  return (
    Array.isArray(partial.files) &&
    partial.files.every((step) => Number.isInteger(step) && step >= 0) &&
    Array.isArray(partial.parts) &&
    partial.parts.length === partial.files.length &&
    partial.parts.every((combo) => Number.isInteger(combo)) &&
    Array.isArray(partial.combos) &&
    partial.combos.every((combo) => Array.isArray(combo) && combo.every((part) => Array.isArray(part) && part.length === 2 && typeof part[0] === 'string' && typeof part[1] === 'string'))
  );
}

function isTable(value: unknown): value is Table {
  if (typeof value !== 'object' || value === null) return false;
  const table = value as Partial<Table>;
  return (
    typeof table.key === 'string' &&
    typeof table.state === 'string' &&
    typeof table.rule === 'string' &&
    Array.isArray(table.ids) &&
    table.ids.every((pair) => Array.isArray(pair) && pair.length === 2 && Number.isInteger(pair[0]) && (typeof pair[1] === 'string' || pair[1] === null)) &&
    Array.isArray(table.sets) &&
    table.sets.every((set) => Array.isArray(set) && set.every((i) => Number.isInteger(i))) &&
    Array.isArray(table.units) &&
    table.units.every(isStoredUnit) &&
    (table.plan === undefined || (Array.isArray(table.plan) && table.plan.every(isPlanItem)))
  );
}

function isPlanItem(value: unknown): value is PlanItem {
  return Array.isArray(value) && value.length === 2 && (value[0] === 1 || (value[0] === 0 && (typeof value[1] === 'string' || Number.isInteger(value[1]))));
}

function isStoredUnit(value: unknown): value is StoredUnit {
  if (!Array.isArray(value) || value.length < 3 || value.length > 10) return false;
  const [key, set, self, unloaded = [], other = [], findings = [], problems = [], context = null, partial = null, params = []]: unknown[] = value;
  return (
    (typeof key === 'string' || Number.isInteger(key)) &&
    Number.isInteger(set) &&
    (self === 0 || self === 1) &&
    Array.isArray(unloaded) &&
    unloaded.every((at) => typeof at === 'string' || Number.isInteger(at)) &&
    Array.isArray(other) &&
    other.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && (typeof pair[1] === 'string' || pair[1] === null)) &&
    Array.isArray(findings) &&
    Array.isArray(problems) &&
    (context === null || typeof context === 'string') &&
    (partial === null || isParts(partial)) &&
    Array.isArray(params) &&
    params.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string')
  );
}
