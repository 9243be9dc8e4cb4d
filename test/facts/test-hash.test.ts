import type * as TS from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadTypeScript, parseScript } from '../../src/parse/typescript.js';
import { bodyHasher } from '../../src/facts/test-hash.js';

/** The hash of the first function of `code`: the body of `test('t', <function>)`. */
function hashOf(code: string): string {
  const ts = loadTypeScript();
  const sourceFile = parseScript('body.test.ts', code);
  let fn: TS.Node | undefined;
  const find = (node: TS.Node): void => {
    if (fn === undefined && ts.isFunctionLike(node)) fn = node;
    else ts.forEachChild(node, find);
  };
  find(sourceFile);
  return bodyHasher(ts, sourceFile).hash(fn);
}

describe('bodyHasher', () => {
  it('ignores formatting, comments, quotes, semicolons and redundant parentheses', () => {
    expect(hashOf(`test('t', () => { const a = 'x'; expect(a).toBe("x"); });`)).toBe(
      hashOf(`test('t', () => {
  // the same body, written otherwise
  const a = "x"
  expect((a)).toBe('x')
})`),
    );
  });

  it('changes when a name or a literal changes', () => {
    expect(hashOf(`test('t', () => { const a = 'x'; expect(a).toBe('x'); });`)).not.toBe(hashOf(`test('t', () => { const b = 'x'; expect(b).toBe('x'); });`));
    expect(hashOf(`test('t', () => { expect(1).toBe(1); });`)).not.toBe(hashOf(`test('t', () => { expect(1).toBe(2); });`));
  });

  it("leaves out the body's own timeout, retries and run-time skip statements", () => {
    expect(hashOf(`it('t', function () { this.timeout(5000); this.retries(2); work(); });`)).toBe(hashOf(`it('t', function () { work(); });`));
    expect(hashOf(`test('t', (t) => { t.skip(); work(); });`)).toBe(hashOf(`test('t', (t) => { work(); });`));
  });

  it('keeps a timing call of another object, or one nested in a statement', () => {
    expect(hashOf(`it('t', function () { other.timeout(5000); work(); });`)).not.toBe(hashOf(`it('t', function () { work(); });`));
    expect(hashOf(`it('t', function () { if (slow) this.timeout(5000); work(); });`)).not.toBe(hashOf(`it('t', function () { work(); });`));
  });

  it('hashes an absent body as the empty text', () => {
    const ts = loadTypeScript();
    expect(bodyHasher(ts, parseScript('empty.test.ts', '')).hash(undefined)).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
