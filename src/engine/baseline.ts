import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import * as z from 'zod';
import { ConfigError } from '../config/errors.js';
import { forbiddenJsonKeys, forbiddenKeyMessage, formatKeyPath } from '../util/json-keys.js';
import type { RepoModel } from '../model/model.js';
import { FILE_START, lineIndex, rangeLoc } from '../model/positions.js';
import type { Finding, Loc } from '../types.js';
import { formatBytes, MAX_INPUT_BYTES, readBounded } from '../repo/read.js';
import { writeFileAtomic } from '../util/fs.js';
import { compareText } from '../util/compare.js';

const entry = { ruleId: z.string(), file: z.string(), fingerprint: z.string(), count: z.int().min(1), message: z.string() };

// Version 2 keys each entry on its message id too; a version 1 file (no ids) still reads, matching any kind.
const baselineSchema = z.discriminatedUnion('version', [
  z.strictObject({ version: z.literal(1), findings: z.array(z.strictObject(entry)) }),
  z.strictObject({ version: z.literal(2), findings: z.array(z.strictObject({ ...entry, messageId: z.string() })) }),
]);

type BaselineEntry = z.output<typeof baselineSchema>['findings'][number];

/** The message id of an entry, or '' for a version 1 entry that recorded none. */
function messageIdOf(entry: BaselineEntry): string {
  return 'messageId' in entry ? entry.messageId : '';
}

/**
 * Identifies a finding without its position: the rule, the file, the message
 * with numbers removed, and the trimmed text of the line it is on. An edit
 * above a finding moves it; it does not make it new.
 */
export function fingerprint(model: RepoModel, finding: Finding): string {
  const lineText = (model.text(finding.file) ?? '').split('\n')[finding.line - 1]?.trim() ?? '';
  const message = finding.message.replace(/\d+/g, '#');
  return createHash('sha1').update(`${finding.ruleId}\0${finding.file}\0${message}\0${lineText}`).digest('hex').slice(0, 16);
}

/** A baseline entry the change being checked added (or whose count it raised): it suppresses nothing. */
export interface AddedEntry {
  entry: BaselineEntry;
  /** Where the entry is in the baseline file. */
  loc: Loc;
  /** How many of the findings it counts the change added. */
  added: number;
  /** The findings the added part would have hidden, reported instead. */
  unsuppressed: Finding[];
}

export interface BaselineResult {
  kept: Finding[];
  baselined: number;
  /** Baseline entries that match nothing any more: the baseline can shrink. */
  fixed: number;
  /** With a base to compare with: the entries the change added. */
  added: AddedEntry[];
}

/**
 * Drops the findings the baseline knows (as many of each as it recorded). A
 * missing baseline file knows nothing. With `atBase` (`--base`: the
 * baseline's text at the merge base, null where it did not exist), only what
 * the baseline already held there suppresses anything: a change cannot accept
 * its own finding, so in a change the baseline only shrinks, and every entry
 * (or count) it added is returned in `added`.
 */
export function applyBaseline(model: RepoModel, findings: readonly Finding[], file: string, atBase?: string | null, scope?: BaselineScope): BaselineResult {
  const current = readBaselineFile(model.root, file);
  if (current === null) return { kept: [...findings], baselined: 0, fixed: 0, added: [] };
  const { entries, text } = current;
  const allowed = atBase === undefined ? null : allowance(atBase === null ? [] : (parseBaselineAtBase(atBase) ?? []));
  const budget = new Map<string, number>();
  /** Per key, the part of its count the change added, and where that entry is. */
  const grown = new Map<string, AddedEntry>();
  const locate = locator(text);
  for (const [index, entry] of entries.entries()) {
    const k = key(entry.ruleId, messageIdOf(entry), entry.file, entry.fingerprint);
    const held = allowed === null ? entry.count : allowed(entry);
    budget.set(k, (budget.get(k) ?? 0) + held);
    if (held < entry.count) grown.set(k, { entry, loc: locate(index), added: entry.count - held, unsuppressed: [] });
  }
  const spare = new Map([...grown].map(([k, added]) => [k, added.added]));
  const kept: Finding[] = [];
  let baselined = 0;
  for (const finding of findings) {
    const print = fingerprint(model, finding);
    const candidates = [key(finding.ruleId, finding.messageId, finding.file, print), key(finding.ruleId, '', finding.file, print)];
    const k = candidates.find((candidate) => (budget.get(candidate) ?? 0) > 0);
    if (k !== undefined) {
      budget.set(k, (budget.get(k) ?? 0) - 1);
      baselined++;
      continue;
    }
    kept.push(finding);
    // What an added entry would have hidden: named with it, so that the two findings read together.
    const g = candidates.find((candidate) => (spare.get(candidate) ?? 0) > 0);
    if (g !== undefined) {
      spare.set(g, (spare.get(g) ?? 0) - 1);
      grown.get(g)?.unsuppressed.push(finding);
    }
  }
  // Only entries the run speaks for can be called fixed: a `--rule` run did not look for the others' findings.
  const inScope = new Set(entries.filter((entry) => scope === undefined || scope(entry)).map((entry) => key(entry.ruleId, messageIdOf(entry), entry.file, entry.fingerprint)));
  const fixed = [...budget].reduce((sum, [k, left]) => sum + (inScope.has(k) ? left : 0), 0);
  return { kept, baselined, fixed, added: [...grown.values()] };
}

/**
 * How much of each current entry's count the baseline at the merge base
 * already held. A version 1 entry there (no message id) covers an entry of
 * any kind with the same rule, file and fingerprint, as it does when applied.
 */
function allowance(before: readonly BaselineEntry[]): (entry: BaselineEntry) => number {
  const left = new Map<string, Map<string, number>>();
  for (const entry of before) {
    const group = key(entry.ruleId, '', entry.file, entry.fingerprint);
    const kinds = left.get(group) ?? new Map<string, number>();
    kinds.set(messageIdOf(entry), (kinds.get(messageIdOf(entry)) ?? 0) + entry.count);
    left.set(group, kinds);
  }
  return (entry) => {
    const kinds = left.get(key(entry.ruleId, '', entry.file, entry.fingerprint));
    if (!kinds) return 0;
    const id = messageIdOf(entry);
    // An entry without a message id draws on every kind; one with an id on its own kind, then on id-less ones.
    const sources = id === '' ? [...kinds.keys()] : [id, ''];
    let wanted = entry.count;
    for (const source of sources) {
      const take = Math.min(wanted, kinds.get(source) ?? 0);
      kinds.set(source, (kinds.get(source) ?? 0) - take);
      wanted -= take;
    }
    return entry.count - wanted;
  };
}

/** The location of each entry of the baseline's `findings` array, by index. */
function locator(text: string): (index: number) => Loc {
  const tree = parseTree(text);
  const position = lineIndex(text);
  return (index) => {
    const node = tree && findNodeAtLocation(tree, ['findings', index]);
    return node ? rangeLoc(position, node.offset, node.offset + node.length) : FILE_START;
  };
}

/** The entries of a baseline as it was at the merge base; null when that text is not a valid baseline (it then held nothing). */
function parseBaselineAtBase(text: string): BaselineEntry[] | null {
  try {
    const parsed = baselineSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.findings : null;
  } catch {
    return null;
  }
}

/** The part of the baseline a run speaks for: a run narrowed by `--rule` or paths neither rewrites nor judges the rest. */
export type BaselineScope = (entry: { ruleId: string; file: string }) => boolean;

/**
 * Writes every current finding as known, atomically, in a stable order. With
 * a scope, the entries outside it are kept as they are (a `--rule` run does
 * not delete the other rules' entries), and `findings` are those of the scope.
 */
export function writeBaseline(model: RepoModel, findings: readonly Finding[], file: string, scope?: BaselineScope): number {
  const counts = new Map<string, BaselineEntry & { messageId: string }>();
  if (scope !== undefined) {
    for (const entry of readBaselineFile(model.root, file)?.entries ?? []) {
      if (scope(entry)) continue;
      const kept = { ...entry, messageId: messageIdOf(entry) };
      counts.set(key(kept.ruleId, kept.messageId, kept.file, kept.fingerprint), kept);
    }
  }
  for (const finding of findings) {
    const print = fingerprint(model, finding);
    const k = key(finding.ruleId, finding.messageId, finding.file, print);
    const entry = counts.get(k);
    if (entry) entry.count++;
    else counts.set(k, { ruleId: finding.ruleId, messageId: finding.messageId, file: finding.file, fingerprint: print, count: 1, message: finding.message });
  }
  // Code-unit order, not the locale's: the file must not depend on who wrote it.
  const sorted = [...counts.values()].sort((a, b) => compareText(a.file, b.file) || compareText(a.ruleId, b.ruleId) || compareText(a.messageId, b.messageId) || compareText(a.fingerprint, b.fingerprint));
  writeFileAtomic(join(model.root, file), `${JSON.stringify({ version: 2, findings: sorted }, null, 2)}\n`);
  return sorted.length;
}

function key(ruleId: string, messageId: string, file: string, print: string): string {
  return `${ruleId}\0${messageId}\0${file}\0${print}`;
}

function readBaselineFile(root: string, file: string): { entries: BaselineEntry[]; text: string } | null {
  const read = readBounded(join(root, file), MAX_INPUT_BYTES);
  if (!read.ok && read.tooLarge) throw new ConfigError(join(root, file), [{ path: '', message: `the baseline is larger than ${formatBytes(MAX_INPUT_BYTES)}` }], file);
  if (!read.ok) return null;
  const text = read.bytes.toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(join(root, file), [{ path: '', message: 'the baseline is not valid JSON; regenerate it with --update-baseline' }], file);
  }
  const forbidden = forbiddenJsonKeys(text);
  if (forbidden.length > 0) throw new ConfigError(join(root, file), forbidden.map((key) => ({ path: formatKeyPath(key.path), message: forbiddenKeyMessage(key.key) })), file);
  const parsed = baselineSchema.safeParse(data);
  if (!parsed.success) throw new ConfigError(join(root, file), parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })), file);
  return { entries: parsed.data.findings, text };
}
