import { join } from 'node:path';
import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import * as z from 'zod';
import { FILE_START, lineIndex, rangeLoc } from '../model/positions.js';
import type { Loc } from '../types.js';
import { forbiddenJsonKeys, forbiddenKeyMessage, formatKeyPath } from '../util/json-keys.js';
import { ConfigError, issuesFromZod } from './errors.js';

const SHA256 = /^sha256:[0-9a-f]{64}$/;
const sha256 = () => z.string().regex(SHA256, { message: 'expected "sha256:" and 64 lowercase hex digits' });

export const FROZEN_STATUSES = ['frozen', 'thawed'] as const;

const frozenEntrySchema = z.strictObject({
  hash: sha256().meta({ description: 'Hash of the test body: its syntax tree without positions, comments or formatting.' }),
  assertions: z.int().min(0).meta({ description: 'Assertions in the body when it was pinned; fewer is a finding.' }),
  timeout: z.number().min(0).optional().meta({ description: 'Timeout in ms when it was pinned; a larger one is a finding.' }),
  retry: z.int().min(0).optional().meta({ description: 'Retry count when it was pinned; a larger one is a finding.' }),
  reads: z
    .record(z.string().min(1), sha256())
    .optional()
    .meta({ description: 'What the test reads besides its body, when it was pinned: each top-level declaration of its file (by name, transitively) and each function or value it imports from a local module (`path#name`), with the hash of its syntax tree. A change to one is a finding.' }),
  reason: z.string().min(1).meta({ description: 'Why the test is frozen, for the reviewer who is asked to change it.' }),
  owner: z.string().min(1).meta({ description: 'Who may re-pin or unfreeze it.' }),
  status: z.enum(FROZEN_STATUSES).meta({
    description: '"frozen": enforced. "thawed": the owner opened it for an intended change; the next diff may edit and re-pin it, but not delete or skip it.',
  }),
});

const frozenRunnerSchema = z.strictObject({
  assert: z.array(z.string().regex(/^[A-Za-z_*][\w*]*$/, { message: 'expected a name, with * for any run of word characters' })).min(1).meta({ description: 'The names whose calls are its assertion sites (shell commands, Python calls; `*` matches any run of word characters).' }),
  assertions: z.int().min(0).meta({ description: 'Assertion call sites when it was pinned; fewer is a finding.' }),
  rosters: z.array(z.string().min(1)).meta({ description: 'Files that named the runner when it was pinned (a runner script, a CI workflow); one that stops naming it is a finding.' }),
  reason: z.string().min(1).meta({ description: 'Why the runner is frozen, for the reviewer who is asked to change it.' }),
  owner: z.string().min(1).meta({ description: 'Who may re-pin or unfreeze it.' }),
  status: z.enum(FROZEN_STATUSES).meta({ description: 'As for a frozen test.' }),
});

export const frozenManifestSchema = z.strictObject({
  version: z.literal(1),
  tests: z.record(
    z.string().regex(/^.+?::.+$/, { message: 'expected a test id "path/to/file.test.ts::suite > test"' }),
    frozenEntrySchema,
  ),
  runners: z.record(z.string().min(1), frozenRunnerSchema).optional().meta({ description: 'Frozen runners that are not JavaScript (shell, Python), by path: their assertion sites and rosters are pinned.' }),
});

export const locksManifestSchema = z.strictObject({
  version: z.literal(1),
  files: z.record(z.string().min(1), sha256()),
});

export type FrozenEntry = z.infer<typeof frozenEntrySchema>;
export type FrozenRunner = z.infer<typeof frozenRunnerSchema>;
export type FrozenManifest = z.infer<typeof frozenManifestSchema>;
export type LocksManifest = z.infer<typeof locksManifestSchema>;

export interface Manifest<T> {
  /** Repository-relative path of the manifest. */
  path: string;
  /** False when the file does not exist: the data is then empty. */
  exists: boolean;
  data: T;
  /** Where a key path sits in the file (the key of a property), for findings; the file start when unknown. */
  locate(keyPath: readonly string[]): Loc;
}

export const EMPTY_FROZEN: FrozenManifest = { version: 1, tests: {} };
export const EMPTY_LOCKS: LocksManifest = { version: 1, files: {} };

/**
 * Parses and validates a manifest's text; null text is a manifest that does
 * not exist. An invalid manifest throws ConfigError naming the key path:
 * tripwire cannot enforce a freeze it cannot read, so it never treats one as empty.
 */
export function parseManifest<T>(schema: z.ZodType<T>, root: string, path: string, text: string | null, empty: T): Manifest<T> {
  if (text === null) return { path, exists: false, data: empty, locate: () => FILE_START };
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const position = lineIndex(text);
  if (errors.length > 0) {
    throw new ConfigError(join(root, path), errors.map((error) => ({ path: '', message: `invalid JSON: ${printParseErrorCode(error.error)}`, ...position(error.offset) })), path);
  }
  const forbidden = forbiddenJsonKeys(text);
  if (forbidden.length > 0) {
    throw new ConfigError(join(root, path), forbidden.map((key) => ({ path: formatKeyPath(key.path), message: `${formatKeyPath(key.path)}: ${forbiddenKeyMessage(key.key)}`, ...position(key.offset) })), path);
  }
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) throw new ConfigError(join(root, path), issuesFromZod(result.error.issues, schema), path);
  const tree = parseTree(text);
  return {
    path,
    exists: true,
    data: result.data,
    locate(keyPath) {
      const node = tree ? findNodeAtLocation(tree, [...keyPath]) : undefined;
      const key = node?.parent?.type === 'property' ? node.parent.children?.[0] : node;
      return key ? rangeLoc(position, key.offset, key.offset + key.length) : FILE_START;
    },
  };
}

/** A manifest as it was at the merge base: one that did not parse there pins nothing. */
export function parseOldManifest<T>(schema: z.ZodType<T>, root: string, path: string, text: string | null, empty: T): T {
  if (text === null) return empty;
  try {
    return parseManifest(schema, root, path, text, empty).data;
  } catch {
    return empty;
  }
}

/** The frozen manifest as a human reviews it: ids sorted, each entry's keys in one order, a trailing newline. */
export function formatFrozen(manifest: FrozenManifest): string {
  const tests: Record<string, FrozenEntry> = {};
  for (const id of Object.keys(manifest.tests).sort()) {
    const entry = manifest.tests[id];
    if (!entry) continue;
    tests[id] = {
      hash: entry.hash,
      assertions: entry.assertions,
      ...(entry.timeout !== undefined && { timeout: entry.timeout }),
      ...(entry.retry !== undefined && { retry: entry.retry }),
      ...(entry.reads !== undefined && Object.keys(entry.reads).length > 0 && { reads: Object.fromEntries(Object.keys(entry.reads).sort().map((name) => [name, entry.reads?.[name] ?? ''])) }),
      reason: entry.reason,
      owner: entry.owner,
      status: entry.status,
    };
  }
  const runners: Record<string, FrozenRunner> = {};
  for (const path of Object.keys(manifest.runners ?? {}).sort()) {
    const runner = manifest.runners?.[path];
    if (!runner) continue;
    runners[path] = { assert: runner.assert, assertions: runner.assertions, rosters: [...runner.rosters].sort(), reason: runner.reason, owner: runner.owner, status: runner.status };
  }
  return `${JSON.stringify({ version: 1, tests, ...(Object.keys(runners).length > 0 && { runners }) }, null, 2)}\n`;
}

export function formatLocks(manifest: LocksManifest): string {
  const files: Record<string, string> = {};
  for (const path of Object.keys(manifest.files).sort()) files[path] = manifest.files[path] ?? '';
  return `${JSON.stringify({ version: 1, files }, null, 2)}\n`;
}
