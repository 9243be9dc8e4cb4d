import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeDirectories, fingerprintOf } from '../../src/engine/fingerprint.js';

const work = mkdtempSync(join(tmpdir(), 'tripwire-fingerprint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("tripwire's own code, as the caches key it", () => {
  it('is src/ and rules/ beside each other unbundled, and the directory of the bundle', () => {
    expect(codeDirectories('/pkg/dist/src/engine/fingerprint.js')).toEqual(['/pkg/dist/src', '/pkg/dist/rules']);
    expect(codeDirectories('/repo/src/engine/fingerprint.ts')).toEqual(['/repo/src', '/repo/rules']);
    expect(codeDirectories('/pkg/dist/cli/tripwire.cjs')).toEqual(['/pkg/dist/cli']);
  });

  it('changes when a module changes, and matches nothing when there is no module to hash', () => {
    const bundle = join(work, 'cli');
    mkdirSync(bundle);
    writeFileSync(join(bundle, 'bin.js'), 'import "./launch.js";\n');
    writeFileSync(join(bundle, 'tripwire.cjs'), 'exports.a = 1;\n');
    const before = fingerprintOf([bundle]);
    expect(fingerprintOf([bundle])).toBe(before);
    writeFileSync(join(bundle, 'tripwire.cjs'), 'exports.a = 2; // rebuilt\n');
    expect(fingerprintOf([bundle])).not.toBe(before);

    const empty = join(work, 'empty');
    mkdirSync(empty);
    expect(fingerprintOf([empty, join(work, 'missing')])).not.toBe(fingerprintOf([empty, join(work, 'missing')]));
  });
});
