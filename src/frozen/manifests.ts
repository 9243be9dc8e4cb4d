import { join } from 'node:path';
import {
  EMPTY_FROZEN,
  EMPTY_LOCKS,
  formatFrozen,
  formatLocks,
  frozenManifestSchema,
  locksManifestSchema,
  parseManifest,
  parseOldManifest,
  type FrozenManifest,
  type LocksManifest,
  type Manifest,
} from '../config/manifest.js';
import type { PinnedTestFact } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import type { FileChange } from '../repo/diff.js';
import { writeFileAtomic } from '../util/fs.js';

export type { FrozenEntry, FrozenManifest, FrozenRunner, LocksManifest } from '../config/manifest.js';

/** Writes the frozen manifest as a human reviews it, atomically (a reader never sees half of it). */
export function writeFrozen(root: string, path: string, manifest: FrozenManifest): void {
  writeFileAtomic(join(root, path), formatFrozen(manifest));
}

export function writeLocks(root: string, path: string, manifest: LocksManifest): void {
  writeFileAtomic(join(root, path), formatLocks(manifest));
}

export function frozenManifest(model: RepoModel): Manifest<FrozenManifest> {
  const path = model.config.frozen;
  return parseManifest(frozenManifestSchema, model.root, path, readIfExists(model, path), EMPTY_FROZEN);
}

export function locksManifest(model: RepoModel): Manifest<LocksManifest> {
  const path = model.config.locks;
  return parseManifest(locksManifestSchema, model.root, path, readIfExists(model, path), EMPTY_LOCKS);
}

/** With `--base`: the manifests as they were at the merge base. */
export function oldFrozenManifest(model: RepoModel): FrozenManifest {
  return parseOldManifest(frozenManifestSchema, model.root, model.config.frozen, textAtBase(model, model.config.frozen), EMPTY_FROZEN);
}

export function oldLocksManifest(model: RepoModel): LocksManifest {
  return parseOldManifest(locksManifestSchema, model.root, model.config.locks, textAtBase(model, model.config.locks), EMPTY_LOCKS);
}

function readIfExists(model: RepoModel, path: string): string | null {
  return model.optionalText(path);
}

/** The text a path (as it is named now) had at the merge base: the current text when the diff did not touch it. */
function textAtBase(model: RepoModel, path: string): string | null {
  const change = model.diff?.changes.find((c) => c.path === path);
  if (!change) return readIfExists(model, path);
  if (change.status === 'added') return null;
  return model.oldText(change.oldPath ?? change.path);
}

/** What the diff did to a path as it was named at the merge base; undefined when it left it alone. */
export function changeOfOldPath(model: RepoModel, oldPath: string): FileChange | undefined {
  return model.diff?.changes.find((c) => c.status !== 'added' && (c.oldPath ?? c.path) === oldPath);
}

export function sha256OfFile(model: RepoModel, path: string): string | null {
  return model.sha256(path);
}

/** `path/to/file.test.ts::suite > test` → its file and its name within the file. */
export function splitId(id: string): { file: string; name: string } {
  const at = id.indexOf('::');
  return { file: id.slice(0, at), name: id.slice(at + 2) };
}

export function testId(file: string, name: string): string {
  return `${file}::${name}`;
}

/** The tests of a file with that name; several when titles repeat. */
export function testsNamed(model: RepoModel, file: string, name: string): PinnedTestFact[] {
  return (model.fileSet.has(file) ? (model.pinnedFacts(file)?.tests ?? []) : []).filter((test) => test.kind === 'test' && test.name === name);
}

/** The test an id names, preferring the one whose body still matches when titles repeat. */
export function pickTest(candidates: readonly PinnedTestFact[], hash: string): PinnedTestFact | undefined {
  return candidates.find((test) => test.hash === hash) ?? candidates[0];
}
