import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Temporary directories for one test file, all removed after its tests:
 * `tempDir()` makes one named `tripwire-<prefix>-…`; `track(dir)` hands in
 * one made elsewhere (a fixture repository) and returns it.
 */
export function temporaryDirs(prefix: string): { tempDir(): string; track(dir: string): string } {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const track = (dir: string): string => {
    dirs.push(dir);
    return dir;
  };
  return { tempDir: () => track(mkdtempSync(join(tmpdir(), `tripwire-${prefix}-`))), track };
}
