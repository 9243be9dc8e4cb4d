import type * as TS from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadTypeScript, parseScript } from '../../src/parse/typescript.js';
import { countAssertions } from '../../src/facts/test-assertions.js';

/** The assertions of `code` as a whole; a numeric literal is the only number it evaluates. */
function count(code: string): number {
  const ts = loadTypeScript();
  const sourceFile = parseScript('count.test.ts', code);
  const numberOf = (node: TS.Expression): number | null => (ts.isNumericLiteral(node) ? Number(node.text) : null);
  return countAssertions(ts, sourceFile, numberOf);
}

describe('countAssertions', () => {
  it('counts expect chained to a matcher, assert, assert members and should chains', () => {
    expect(count(`expect(a).toBe(1); assert(c); t.assert.ok(d); x.should.equal(1);`)).toBe(4);
  });

  it('does not count a bare expect', () => {
    expect(count(`expect(b);`)).toBe(0);
  });

  it('counts expect.soft and expect.poll chains', () => {
    expect(count(`expect.soft(a).toBe(1); expect.poll(() => b).toBe(2);`)).toBe(2);
  });

  it('raises the count to expect.assertions(n) and t.plan(n)', () => {
    expect(count(`expect.assertions(3); expect(a).toBe(1);`)).toBe(3);
    expect(count(`t.plan(2);`)).toBe(2);
  });

  it('ignores a plan it cannot evaluate', () => {
    expect(count(`expect.assertions(n); expect(a).toBe(1);`)).toBe(1);
  });
});
