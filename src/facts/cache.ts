import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheSecret, MAC_HEX, sealed, sealedFile, unsealed, unsealedRecord, type CacheSecret } from '../util/cache-secret.js';
import { appendLines, fileStamp, writeFileAtomic } from '../util/fs.js';
import { eachRecord, fieldEnd } from '../util/records.js';

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
  /**
   * Whether an entry is stored under `key`, told from the index alone: the
   * entry is neither read nor verified (one that fails to verify is a miss
   * when it is asked for) nor counted as used.
   */
  has(key: string): boolean;
  set(key: string, value: T): void;
  /**
   * Writes what this run added, if anything: appended to a log next to the
   * file, or, once a quarter of the entries is dead or the log grew, the file
   * rewritten with the entries this run used and those made from content
   * `live` keeps (every key names the blob id it was made from, first; without
   * `live`, an entry this run did not use is dead). Tables this run changed
   * are rewritten the same way. Never throws.
   */
  save(live?: (id: string) => boolean): void;
  readonly stats: { hits: number; misses: number };
  /** The cache file, null when the cache is disabled. */
  readonly file: string | null;
  /**
   * A table of small values per file, read whole the first time it is asked
   * for: what a run asks of nearly every file (a part of its facts, a scan of
   * its text) costs one read instead of a record per file. `name` says what
   * the values are and everything they depend on besides the file's content.
   */
  table(name: string): FactTable;
  /** Removes a table's files: one no version of the model opens any more. */
  drop(name: string): void;
}

/** Values by file path, each held for one content id of that file (its blob id): another id is a miss. */
export interface FactTable {
  get(file: string, id: string): unknown;
  set(file: string, id: string, value: unknown): void;
}

const NO_TABLE: FactTable = { get: () => undefined, set() {} };

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
    has: () => false,
    set() {},
    save() {},
    stats,
    file: null,
    table: () => NO_TABLE,
    drop() {},
  };
}

/**
 * A per-file fact cache: a file of records, one per entry mapping a
 * caller-supplied content key to a JSON-serializable value, plus a log of
 * entries added since (one record per line). What invalidates an entry: a
 * different key (the content changed), a different `version` (another file
 * name), or being dead when the file is rewritten (made from content no file
 * in the listing has, and not used by that run: see save).
 *
 * The file starts with an index (each key's offset and length); opening it
 * reads only that, and a record is read, verified and parsed when it is first
 * asked for: a run that reads the facts of a few files pays for those, not
 * for the whole repository's.
 *
 * Each record is sealed with an HMAC under the user's cache secret, bound to
 * its key: a record whose MAC does not verify (forged, torn, written under
 * another key) or whose value fails validation is a miss, and the file is
 * rewritten at the next save. Without a secret that outlives the run nothing
 * could be verified later, so nothing is read or written.
 */
export function openFactCache<T>(options: FactCacheOptions<T>): FactCache<T> {
  if (!options.enabled) return noCache();
  const secret = options.secret ?? cacheSecret();
  if (!secret.persistent) return noCache();
  const stats = { hits: 0, misses: 0 };

  const dir = cacheDirectory(options.root, options.location);
  const base = `facts-${options.version.replace(/[^\w.-]/g, '_')}`;
  const file = path.join(dir, `${base}.facts`);
  // Entries added since the file was last written: a run that parsed a few
  // files appends them instead of rewriting every entry.
  const log = path.join(dir, `${base}.log`);
  // What each MAC is bound to besides the record: one version's entries cannot pass for another's.
  const context = `tripwire-facts ${base}`;
  // Without a validator the version in the file name is the contract: the
  // caller bumps it whenever the shape of T changes.
  const accept = options.validate ?? ((value: unknown): value is T => value !== undefined);
  /** Each key's last record, still sealed and unparsed (read, or where it lies in the file): the file's, then the log's. */
  let records: Map<string, Buffer | Slot> | undefined;
  /** The cache file as it was indexed, open until it is rewritten: a concurrent rewrite replaces the name, not what this run reads. */
  let fd: number | null = null;
  /** Entries in the log when it was read: past a quarter of the file, the next save rewrites the file. */
  let logged = 0;
  /** Entries this run used or produced: what a rewrite keeps, with the live ones it did not read. */
  const touched = new Map<string, T>();
  /** Entries this run produced or changed: what an append writes, and what a rewrite seals again. */
  const fresh = new Map<string, T>();
  let corrupt = false;
  const tables = new Map<string, Table>();

  function index(): Map<string, Buffer | Slot> {
    if (records) return records;
    records = new Map();
    const indexed = readIndexed(file, records);
    if (indexed !== null) {
      fd = indexed.fd;
      // Kept open while the cache is in use (an editor session reads on after a save); closed once it is unreachable.
      closing.register(cache, indexed.fd, cache);
      if (indexed.malformed) corrupt = true;
    }
    // A torn log line (a write cut short) costs only its own entry.
    const logLines = readLines(log);
    logged = logLines?.count ?? 0;
    for (const [key, record] of logLines?.records ?? []) records.set(key, record);
    return records;
  }

  /** The stored value of `key`, verified and parsed now; undefined when there is none or it does not verify. */
  function lookup(key: string): T | undefined {
    const known = touched.get(key);
    if (known !== undefined) return known;
    const stored = index().get(key);
    if (stored === undefined) return undefined;
    const record = Buffer.isBuffer(stored) ? stored : readSlot(stored);
    const value = record === null ? undefined : decode(key, record);
    if (value === undefined) {
      // Not ours or not whole: a miss now, and the file is replaced at the next save.
      records?.delete(key);
      corrupt = true;
    }
    return value;
  }

  function readSlot(slot: Slot): Buffer | null {
    if (fd === null) return null;
    const record = Buffer.allocUnsafe(slot.length);
    try {
      return readSync(fd, record, 0, slot.length, slot.at) === slot.length ? record : null;
    } catch {
      return null;
    }
  }

  function decode(key: string, record: Buffer): T | undefined {
    const body = unsealedRecord(secret, context, record);
    if (body === null) return undefined;
    const tab = body.indexOf(TAB);
    // The index is not sealed: a record is taken only for the key it was sealed with.
    if (body.toString('latin1', 0, tab) !== key) return undefined;
    try {
      const value: unknown = JSON.parse(body.toString('latin1', tab + 1));
      return accept(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** After a rewrite, which holds every record it kept in memory. */
  function closeFile(): void {
    if (fd === null) return;
    closing.unregister(cache);
    closeQuietly(fd);
    fd = null;
  }

  function seal(key: string, value: T): string {
    return sealed(secret, context, `${key}\t${asciiJson(value)}`);
  }

  function rewrite(known: Map<string, Buffer | Slot>, live: (id: string) => boolean): void {
    try {
      // An entry this run read unchanged, or kept unread, is written back as it was read: never sealed again.
      const kept = new Map<string, Buffer>();
      const asRead = (key: string): Buffer | null => {
        const stored = known.get(key);
        return stored === undefined ? null : Buffer.isBuffer(stored) ? stored : readSlot(stored);
      };
      for (const [key, value] of touched) kept.set(key, (fresh.has(key) ? null : asRead(key)) ?? Buffer.from(seal(key, value), 'latin1'));
      for (const key of known.keys()) {
        if (kept.has(key) || !live(idInKey(key))) continue;
        const record = asRead(key);
        if (record !== null) kept.set(key, record);
      }
      // A concurrent run reads the old file or the new one, never half of one.
      writeFileAtomic(file, indexedFile(kept));
      rmSync(log, { force: true });
      // The forms written before records were indexed: never read again.
      for (const old of ['json', 'jsonl']) rmSync(path.join(dir, `${base}.${old}`), { force: true });
      closeFile();
      records = kept;
      logged = 0;
      corrupt = false;
    } catch {
      // The directory itself is unusable; the cache is skipped for this run.
    }
  }

  const tableFile = (name: string): string => path.join(dir, `${base}.table-${createHash('sha1').update(name).digest('hex').slice(0, 16)}.json`);
  const cache: FactCache<T> = {
    get(key) {
      const value = lookup(key);
      if (value === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      touched.set(key, value);
      return value;
    },
    has(key) {
      return touched.has(key) || index().has(key);
    },
    set(key, value) {
      // A key with a break or a space could not be read back from the index or as one record.
      if (/[\t\n ]/.test(key)) return;
      const previous = lookup(key);
      if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(value)) fresh.set(key, value);
      touched.set(key, value);
    },
    save(live = () => false) {
      for (const table of tables.values()) table.save(live);
      const known = index();
      if (fresh.size === 0 && !corrupt) return;
      // Rewrite (which prunes the dead entries) when a quarter of the entries
      // is dead or the log has grown past a quarter of the file; else append.
      // Keys name their content, so whatever a concurrent run appends or
      // rewrites meanwhile is still right: at worst an entry is lost.
      let dead = 0;
      for (const key of known.keys()) if (!touched.has(key) && !live(idInKey(key))) dead++;
      if (corrupt || known.size === 0 || dead * 4 > known.size || (logged + fresh.size) * 4 > known.size) {
        rewrite(known, live);
      } else {
        try {
          const lines = [...fresh].map(([key, value]) => seal(key, value));
          appendLines(log, lines);
          for (const [at, key] of [...fresh.keys()].entries()) known.set(key, Buffer.from(lines[at] ?? '', 'latin1'));
          logged += fresh.size;
        } catch {
          // Unwritable: the entries are parsed again next time.
        }
      }
      fresh.clear();
    },
    stats,
    file,
    table(name) {
      let table = tables.get(name);
      if (!table) tables.set(name, (table = openTable(secret, tableFile(name), `tripwire-facts-table ${base}\0${name}`)));
      return table;
    },
    drop(name) {
      for (const file of [tableFile(name), `${tableFile(name)}.log`, tableVerifiedFile(tableFile(name))]) {
        try {
          rmSync(file, { force: true });
        } catch {
          // An unusable cache directory: nothing to tidy.
        }
      }
    },
  };
  return cache;
}

const closing = new FinalizationRegistry<number>(closeQuietly);

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/** Where a record lies in the cache file. */
interface Slot {
  at: number;
  length: number;
}

const FORMAT = 'tripwire-facts-1';

/**
 * `<FORMAT> <index bytes>\n`, the index (`<key> <offset> <length>\n` per
 * record), then the records (`<mac> <key>\t<json>\n`), offsets counted from
 * the first record.
 */
function indexedFile(records: ReadonlyMap<string, Buffer>): Buffer {
  const index: string[] = [];
  let offset = 0;
  for (const [key, record] of records) {
    index.push(`${key} ${offset} ${record.length}\n`);
    offset += record.length + 1;
  }
  const header = index.join('');
  return Buffer.concat([Buffer.from(`${FORMAT} ${header.length}\n${header}`, 'latin1'), ...[...records.values()].flatMap((record) => [record, NEWLINE])]);
}

/**
 * The index of a cache file, each key's slot set in `into`, and the file open
 * to read its records; `malformed` when it is not that form (another format,
 * cut short).
 */
function readIndexed(file: string, into: Map<string, Buffer | Slot>): { fd: number; malformed: boolean } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(64);
    const got = readSync(fd, head, 0, head.length, 0);
    const line = head.toString('latin1', 0, got);
    const match = new RegExp(`^${FORMAT} (\\d{1,12})\n`).exec(line);
    if (!match) return { fd, malformed: true };
    const length = Number(match[1]);
    const start = match[0].length;
    const header = Buffer.alloc(length);
    if (readSync(fd, header, 0, length, start) !== length) return { fd, malformed: true };
    const first = start + length;
    let malformed = false;
    // `<key> <offset> <length>` per line, read in place (a 10k repository's index has 13,000 lines).
    const text = header.toString('latin1');
    eachRecord(text, '\n', (at, end) => {
      const keyEnd = fieldEnd(text, at, end);
      const offsetEnd = keyEnd === end ? end : fieldEnd(text, keyEnd + 1, end);
      const offset = keyEnd === end ? -1 : digitsAt(text, keyEnd + 1, offsetEnd);
      const size = offsetEnd === end ? -1 : digitsAt(text, offsetEnd + 1, fieldEnd(text, offsetEnd + 1, end));
      if (offset === -1 || size === -1) malformed = true;
      else into.set(text.slice(at, keyEnd), { at: first + offset, length: size });
    });
    return { fd, malformed };
  } catch {
    return { fd, malformed: true };
  }
}

/** The number the decimal digits from `from` to `to` write; -1 when there are none, or anything else. */
function digitsAt(text: string, from: number, to: number): number {
  if (to <= from) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The blob id a key names first; '' when it names none. */
function idInKey(key: string): string {
  return /(?:^|:)([0-9a-f]{40,64})(?::|$)/.exec(key)?.[1] ?? '';
}

/**
 * How many entries a run may set in a table it never read and append them
 * unread: a commit's few changed files. More are a run's that recomputed
 * many entries, most of them as they were: it reads the table, and writes
 * only those that changed.
 */
const UNREAD_SETS = 32;

/** Whether a table's entry is already `id` and `value`: setting it again changes nothing to write. */
function sameEntry(entry: [string, unknown] | undefined, id: string, value: unknown): boolean {
  return entry !== undefined && entry[0] === id && JSON.stringify(entry[1]) === JSON.stringify(value);
}

interface Table extends FactTable {
  save(live: (id: string) => boolean): void;
}

/**
 * One sealed JSON file of `[path, id, value]` triples, read on first use,
 * and beside it a log of the entries later runs set (`<file>.log`, a sealed
 * triple per line, the later line winning): a run that changed a few entries
 * appends them rather than writing the whole table again. The table is
 * rewritten, dropping each entry whose path this run did not ask for and
 * whose id `live` does not keep, when the log has grown past a quarter of
 * it, when a run changed more, or when either does not verify. A run that
 * only sets a few entries (the parts of the files a commit changed) appends
 * them without parsing the table (UNREAD_SETS), once its seal verifies: the
 * very file a run wrote or verified (`<file>.verified` names it, sealed) is
 * not verified again.
 */
function openTable(secret: CacheSecret, file: string, context: string): Table {
  const logFile = `${file}.log`;
  const verifiedFile = tableVerifiedFile(file);
  const verifiedContext = `${context}\0verified`;
  /** Notes that the table file now on disk verifies (it was just written, or its seal checked); never throws. */
  function noteVerified(): void {
    const stamp = fileStamp(file);
    if (stamp === null) return;
    try {
      writeFileAtomic(verifiedFile, sealed(secret, verifiedContext, stamp));
    } catch {
      // Unwritable: the next run checks the seal again.
    }
  }
  let entries: Map<string, [string, unknown]> | undefined;
  /** Entries set this run with a new id or value: what is appended or written. */
  const fresh = new Set<string>();
  const asked = new Set<string>();
  /** Whether the files on disk must be replaced whatever changed (unreadable, forged, malformed). */
  let corrupt = false;
  let logged = 0;
  /** Entries set before the table was read, by path: written (appended) as they are unless a read comes first. */
  const unread = new Map<string, [string, unknown]>();
  function load(): Map<string, [string, unknown]> {
    if (entries) return entries;
    entries = read();
    for (const [path, entry] of unread) {
      const previous = entries.get(path);
      if (sameEntry(previous, entry[0], entry[1])) fresh.delete(path);
      entries.set(path, entry);
    }
    unread.clear();
    return entries;
  }
  function read(): Map<string, [string, unknown]> {
    const found = new Map<string, [string, unknown]>();
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch {
      return found;
    }
    const data = unsealedJson(secret, context, text);
    if (!Array.isArray(data)) {
      // Forged, torn or not ours: every entry is a miss, and the table is replaced at save.
      corrupt = true;
      return found;
    }
    for (const entry of data) {
      if (isTriple(entry)) found.set(entry[0], [entry[1], entry[2]]);
      else corrupt = true;
    }
    let log: string;
    try {
      log = readFileSync(logFile, 'latin1');
    } catch {
      return found;
    }
    for (const line of log.split('\n')) {
      if (line === '') continue;
      logged++;
      const entry = unsealedJson(secret, context, line);
      // A line cut short by a crash, or not ours: the table is rewritten without it.
      if (isTriple(entry)) found.set(entry[0], [entry[1], entry[2]]);
      else corrupt = true;
    }
    return found;
  }
  /**
   * Whether the table on disk verifies: the file a run wrote or verified
   * (same inode, size and modification time), else its seal checked, its
   * JSON not parsed (most of what reading it costs: 20-30 ms for a 10k
   * repository's tables).
   */
  function intact(): boolean {
    const stamp = fileStamp(file);
    if (stamp === null) return false;
    try {
      if (unsealed(secret, verifiedContext, readFileSync(verifiedFile, 'latin1')) === stamp) return true;
    } catch {
      // None noted: the seal is checked.
    }
    try {
      if (unsealed(secret, context, readFileSync(file, 'latin1')) === null) return false;
    } catch {
      return false;
    }
    noteVerified();
    return true;
  }
  /** Appends the entries set unread to the log, the table unread: a later read takes them over the table's. */
  function appendUnread(): void {
    if (unread.size === 0) return;
    try {
      const lines = [...unread].map(([path, [id, value]]) => sealed(secret, context, asciiJson([path, id, value])));
      appendLines(logFile, lines);
      unread.clear();
      fresh.clear();
    } catch {
      // Unwritable: computed again next time.
    }
  }
  return {
    get(path, id) {
      const entry = load().get(path);
      if (entry === undefined || entry[0] !== id) return undefined;
      asked.add(path);
      return entry[1];
    },
    set(path, id, value) {
      asked.add(path);
      if (!entries) {
        unread.set(path, [id, value]);
        fresh.add(path);
        return;
      }
      const previous = entries.get(path);
      if (sameEntry(previous, id, value)) return;
      entries.set(path, [id, value]);
      fresh.add(path);
    },
    save(live) {
      // Many entries set unread, or no table that verifies (none yet, forged, torn): read it, and write as a run that read it does.
      if (!entries && unread.size > 0 && (unread.size > UNREAD_SETS || !intact())) load();
      if (!entries) {
        appendUnread();
        return;
      }
      if (fresh.size === 0 && !corrupt) return;
      try {
        if (!corrupt && entries.size > 0 && (logged + fresh.size) * 4 <= entries.size) {
          const lines = [...fresh].map((path) => sealed(secret, context, asciiJson([path, ...(entries?.get(path) ?? [])])));
          appendLines(logFile, lines);
          logged += fresh.size;
        } else {
          const kept: [string, string, unknown][] = [];
          for (const [path, [id, value]] of entries) if (asked.has(path) || live(id)) kept.push([path, id, value]);
          writeFileAtomic(file, sealedFile(secret, context, asciiJson(kept)));
          rmSync(logFile, { force: true });
          noteVerified();
          logged = 0;
          corrupt = false;
        }
        fresh.clear();
      } catch {
        // Unwritable: computed again next time.
      }
    },
  };
}

/** Where a table's note of the file it last wrote or verified is kept. */
function tableVerifiedFile(file: string): string {
  return `${file}.verified`;
}

/** The JSON value of a sealed text (a table, or a line of its log); undefined when it does not verify or does not parse. */
function unsealedJson(secret: CacheSecret, context: string, text: string): unknown {
  const json = unsealed(secret, context, text);
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

function isTriple(value: unknown): value is [string, string, unknown] {
  return Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && typeof value[1] === 'string';
}

const TAB = 0x09;
const NEWLINE_BYTE = 0x0a;
const NEWLINE = Buffer.from('\n');

/**
 * The records of a cache log by key, unverified: `<mac> <key>\t<json>` per
 * line; a line without that form (cut short, or not ours) is skipped, and
 * counted. Null when there is no file.
 */
function readLines(file: string): { records: [string, Buffer][]; count: number } | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const records: [string, Buffer][] = [];
  let count = 0;
  for (let start = 0; start < bytes.length; ) {
    const found = bytes.indexOf(NEWLINE_BYTE, start);
    const end = found === -1 ? bytes.length : found;
    if (end > start) {
      count++;
      const tab = bytes.indexOf(TAB, start + MAC_HEX + 1);
      if (end - start > MAC_HEX + 1 && bytes[start + MAC_HEX] === 0x20 && tab !== -1 && tab < end) records.push([bytes.toString('latin1', start + MAC_HEX + 1, tab), bytes.subarray(start, end)]);
    }
    start = end + 1;
  }
  return { records, count };
}

/**
 * JSON with every character past ASCII written as a `\\u` escape: the same
 * value once parsed, and a file whose bytes are its characters, so it can be
 * read without UTF-8 decoding.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
