import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BATCH, SHARED_MIN_FILES, threadsFor } from '../../src/facts/pool.js';

// How many threads extract a run's facts (the main one included): the CLI's
// --concurrency, unset or as given. The worker's start is worth it only for
// a cold run's many files (SHARED_MIN_FILES), unless a number is given.

describe('threadsFor', () => {
  const cores = availableParallelism();

  it('off, or too few files for a worker to take any: the main thread alone', () => {
    expect(threadsFor('off', 50_000)).toBe(1);
    for (const concurrency of [undefined, 'auto', 8] as const) expect(threadsFor(concurrency, BATCH)).toBe(1);
  });

  it('a number is taken as given, but never more threads than batches of files', () => {
    expect(threadsFor(3, 50_000)).toBe(3);
    expect(threadsFor(8, BATCH * 2)).toBe(2);
  });

  it('unset or auto, below the threshold: the main thread alone; from it, up to 2 threads unset and 4 with auto, no more than the cores', () => {
    expect(threadsFor(undefined, SHARED_MIN_FILES - 1)).toBe(1);
    expect(threadsFor('auto', SHARED_MIN_FILES - 1)).toBe(1);
    expect(threadsFor(undefined, SHARED_MIN_FILES)).toBe(Math.min(cores, 2));
    expect(threadsFor('auto', SHARED_MIN_FILES)).toBe(Math.min(cores, 4));
  });
});
