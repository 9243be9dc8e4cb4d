import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { ConfigError } from './config/errors.js';
import type { RepoModel } from './model/model.js';
import type { Finding } from './types.js';
import { formatBytes, MAX_INPUT_BYTES, readBounded } from './repo/read.js';

export const DEFAULT_BASELINE = '.tripwire/baseline.json';

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

export interface BaselineResult {
  kept: Finding[];
  baselined: number;
  /** Baseline entries that match nothing any more: the baseline can shrink. */
  fixed: number;
}

/** Drops the findings the baseline knows (as many of each as it recorded). A missing baseline file knows nothing. */
export function applyBaseline(model: RepoModel, findings: readonly Finding[], file: string): BaselineResult {
  const entries = readBaseline(model.root, file);
  if (entries === null) return { kept: [...findings], baselined: 0, fixed: 0 };
  const budget = new Map(entries.map((entry) => [key(entry.ruleId, messageIdOf(entry), entry.file, entry.fingerprint), entry.count]));
  const kept: Finding[] = [];
  let baselined = 0;
  for (const finding of findings) {
    const print = fingerprint(model, finding);
    const k = [key(finding.ruleId, finding.messageId, finding.file, print), key(finding.ruleId, '', finding.file, print)].find((candidate) => (budget.get(candidate) ?? 0) > 0);
    if (k !== undefined) {
      budget.set(k, (budget.get(k) ?? 0) - 1);
      baselined++;
    } else kept.push(finding);
  }
  const fixed = [...budget.values()].reduce((sum, left) => sum + left, 0);
  return { kept, baselined, fixed };
}

/** Writes every current finding as known, atomically, in a stable order. */
export function writeBaseline(model: RepoModel, findings: readonly Finding[], file: string): number {
  const counts = new Map<string, BaselineEntry & { messageId: string }>();
  for (const finding of findings) {
    const print = fingerprint(model, finding);
    const k = key(finding.ruleId, finding.messageId, finding.file, print);
    const entry = counts.get(k);
    if (entry) entry.count++;
    else counts.set(k, { ruleId: finding.ruleId, messageId: finding.messageId, file: finding.file, fingerprint: print, count: 1, message: finding.message });
  }
  const sorted = [...counts.values()].sort((a, b) => a.file.localeCompare(b.file) || a.ruleId.localeCompare(b.ruleId) || a.messageId.localeCompare(b.messageId) || a.fingerprint.localeCompare(b.fingerprint));
  const path = join(model.root, file);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ version: 2, findings: sorted }, null, 2)}\n`);
  renameSync(temp, path);
  return sorted.length;
}

function key(ruleId: string, messageId: string, file: string, print: string): string {
  return `${ruleId}\0${messageId}\0${file}\0${print}`;
}

function readBaseline(root: string, file: string): BaselineEntry[] | null {
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
  const parsed = baselineSchema.safeParse(data);
  if (!parsed.success) throw new ConfigError(join(root, file), parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })), file);
  return parsed.data.findings;
}
