import { describe, expect, it } from 'vitest';
import { parseListing } from '../../src/repo/listing.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);
const E = 'e'.repeat(40);

/** One `git ls-files -z -s -t` record per entry. */
const listing = (...records: string[]): string => records.map((record) => `${record}\0`).join('');

describe('parseListing', () => {
  const output = listing(
    `H 100644 ${A} 0\tsrc/same.ts`,
    `H 100644 ${B} 0\tsrc/edited.ts`,
    `C 100644 ${B} 0\tsrc/edited.ts`,
    `H 100644 ${C} 0\tsrc/gone.ts`,
    `R 100644 ${C} 0\tsrc/gone.ts`,
    `C 100644 ${C} 0\tsrc/gone.ts`,
    `H 120000 ${D} 0\tsrc/link.ts`,
    `M 100644 ${E} 2\tsrc/conflict.ts`,
    `M 100644 ${A} 3\tsrc/conflict.ts`,
    `H 160000 ${A} 0\tvendor/submodule`,
    '? src/new.ts',
    '? nested-repo/',
  );

  it('lists tracked files present in the work tree and untracked files, not deleted files, submodules or nested repositories', () => {
    expect(parseListing('', output, false).files).toEqual(['src/conflict.ts', 'src/edited.ts', 'src/link.ts', 'src/new.ts', 'src/same.ts']);
  });

  it('lists submodules (mode 160000) apart from the files, relative to the listed directory', () => {
    expect(parseListing('', output, false).gitlinks).toEqual(['vendor/submodule']);
    expect(parseListing('vendor', listing(`H 160000 ${A} 0\tvendor/submodule`), false).gitlinks).toEqual(['submodule']);
  });

  it('names the symbolic links: tracked ones by mode 120000, untracked ones as the probe says', () => {
    expect(parseListing('', output, false).links).toEqual(['src/link.ts']);
    expect(parseListing('', output, false, (fullName) => fullName === 'src/new.ts').links).toEqual(['src/link.ts', 'src/new.ts']);
  });

  it('gives a blob id only where reading the path returns that blob: not for edits, links, conflicts or untracked files', () => {
    expect(parseListing('', output, true).blobIds).toEqual(new Map([['src/same.ts', A]]));
    // Without --modified nothing says which files are unchanged: no ids at all.
    expect(parseListing('', output, false).blobIds).toEqual(new Map());
  });

  it('makes paths relative to the listed subdirectory', () => {
    expect(parseListing('src', listing(`H 100644 ${A} 0\tsrc/same.ts`, '? src/new.ts'), true)).toEqual({ files: ['new.ts', 'same.ts'], blobIds: new Map([['same.ts', A]]), links: [], gitlinks: [] });
  });
});
