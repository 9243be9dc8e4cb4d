import { describe, expect, it } from 'vitest';
import { extractPinnedFacts } from '../../src/facts/extract-script.js';
import type { PinnedTestFact } from '../../src/facts/types.js';

function tests(code: string, path = 'probe.test.ts'): PinnedTestFact[] {
  return extractPinnedFacts(path, code).tests;
}

/** `name [own modifiers] [inherited]` per test or suite, in source order. */
function shapes(code: string, path?: string): string[] {
  return tests(code, path).map((t) => `${t.kind} ${t.name} [${t.modifiers.join(',')}] [${t.inherited.join(',')}]`);
}

function hashOf(code: string, name: string): string {
  const test = tests(code).find((t) => t.name === name);
  if (!test) throw new Error(`no test '${name}'`);
  return test.hash;
}

describe('test ids', () => {
  it('joins suite and test titles with " > ", from literals, templates with constant parts and constants', () => {
    expect(
      shapes(`import { describe, test } from 'vitest';
const AREA = 'ledger';
const VERSION = 2;
describe(\`\${AREA} v\${VERSION}\`, () => {
  describe('parse' + 'r', () => {
    test('reads a line', () => {});
  });
});`),
    ).toEqual(['suite ledger v2 [] []', 'suite ledger v2 > parser [] []', 'test ledger v2 > parser > reads a line [] []']);
  });

  it('keeps the placeholders of parametrized titles, and the source text of what cannot be resolved', () => {
    const found = tests(`test.each([[1, 2]])('adds %i and %i', (a, b) => {});
test.each\`
  a    | b
  \${1} | \${2}
\`('adds $a and $b', ({ a, b }) => {});
describe.for(['x'])('suite %s', (x) => {});
for (const item of items) test(\`case \${item.name}\`, () => {});`);
    expect(found.map((t) => [t.name, t.dynamic, t.modifiers])).toEqual([
      ['adds %i and %i', false, ['each']],
      ['adds $a and $b', false, ['each']],
      ['suite %s', false, ['for']],
      ['case ${item.name}', true, []],
    ]);
  });

  it('titles a suite by the name of the function or class it describes', () => {
    expect(shapes(`class Parser {}\ndescribe(Parser, () => { it('works', () => {}); });`)).toEqual(['suite Parser [] []', 'test Parser > works [] []']);
  });

  it('follows renamed framework imports and does not mistake other calls for tests', () => {
    expect(
      shapes(`import { test as check, describe as group } from 'vitest';
group('g', () => { check('c', () => {}); });
items.skip(1);
table.each(rows);
run.only('x');
const it2 = test.extend({});`),
    ).toEqual(['suite g [] []', 'test g > c [] []']);
  });
});

describe('modifiers', () => {
  it('reads vitest modifiers, chained, applied and conditional', () => {
    expect(
      shapes(`test.skip('a', () => {});
test.only('b', () => {});
test.todo('c');
test.fails('d', () => {});
test.concurrent.skip('e', () => {});
test.sequential('f', () => {});
test.skipIf(process.env.CI)('g', () => {});
test.runIf(true)('h', () => {});
test.skipIf(false).each([1])('i %s', () => {});
test('j');`),
    ).toEqual([
      'test a [skip] []',
      'test b [only] []',
      'test c [todo] []',
      'test d [fails] []',
      'test e [concurrent,skip] []',
      'test f [sequential] []',
      'test g [skipIf] []',
      'test h [runIf] []',
      'test i %s [each,skipIf] []',
      'test j [todo] []',
    ]);
  });

  it('reads jest and mocha globals: x- and f- prefixes, .failing, pending tests', () => {
    expect(
      shapes(`xdescribe('s', () => { it('a', () => {}); });
fdescribe('f', () => { fit('b', () => {}); });
xit('c', () => {});
xtest('d', () => {});
test.failing('e', () => {});
it('pending');
context('ctx', function () { specify('g', function () {}); });`),
    ).toEqual([
      'suite s [skip] []',
      'test s > a [] [skip]',
      'suite f [only] []',
      'test f > b [only] [only]',
      'test c [skip] []',
      'test d [skip] []',
      'test e [fails] []',
      'test pending [todo] []',
      'suite ctx [] []',
      'test ctx > g [] []',
    ]);
  });

  it("reads bun's test.if and test.todoIf", () => {
    expect(shapes(`import { test } from 'bun:test';\ntest.if(isLinux)('a', () => {});\ntest.todoIf(isCI)('b', () => {});`)).toEqual(['test a [runIf] []', 'test b [skipIf] []']);
  });

  it("reads node:test options and run-time skips, and subtests through the context", () => {
    expect(
      shapes(`import test, { describe } from 'node:test';
test('a', { skip: true }, () => {});
test('b', { skip: 'flaky on windows' }, () => {});
test('c', { skip: process.platform === 'win32' }, () => {});
test('d', { todo: true }, () => {});
test('e', { skip: false, only: true }, () => {});
test('f', (t) => { t.skip('not today'); });
test('g', (t) => { if (slow) t.skip(); });
test('h', async (t) => { await t.test('sub', () => {}); });
describe('s', { skip: true }, () => { test('i', () => {}); });`),
    ).toEqual([
      'test a [skip] []',
      'test b [skip] []',
      'test c [skipIf] []',
      'test d [todo] []',
      'test e [only] []',
      'test f [skip] []',
      'test g [skipIf] []',
      'test h [] []',
      'test h > sub [] []',
      'suite s [skip] []',
      'test s > i [] [skip]',
    ]);
  });

  it("reads mocha's this.skip(), vitest's context skip and playwright's run-time annotations", () => {
    expect(
      shapes(`import { test } from '@playwright/test';
it('a', function () { this.skip(); });
it('b', ({ skip }) => { skip(); });
test.describe('pw', () => {
  test.skip(browserName === 'webkit', 'no webkit');
  test('c', async ({ page }) => { test.fixme(); });
  test.fail('d', async () => {});
});`),
    ).toEqual(['test a [skip] []', 'test b [skip] []', 'suite pw [skipIf] []', 'test pw > c [skip] [skipIf]', 'test pw > d [fails] [skipIf]']);
  });

  it('inherits from every enclosing suite and from file-level settings', () => {
    expect(
      shapes(`import { test } from '@playwright/test';
test.skip(isMobile);
describe.skip('outer', () => { describe.concurrent('inner', () => { test('a', () => {}); }); });`),
    ).toEqual(['suite outer [skip] [skipIf]', 'suite outer > inner [concurrent] [skip,skipIf]', 'test outer > inner > a [] [concurrent,skip,skipIf]']);
  });
});

describe('timeouts and retries', () => {
  it('reads a numeric argument, options objects, constants and products', () => {
    const found = tests(`const LONG = 30 * 1000;
test('a', () => {}, 5000);
test('b', { timeout: LONG, retry: 2 }, () => {});
test('c', () => {}, { timeout: 1_000, retries: 1 });
test('d', () => {}, timeoutFor('d'));
describe('s', { timeout: 9000 }, () => { test('e', () => {}); test('f', () => {}, 100); });`);
    expect(found.map((t) => [t.name, t.timeout === undefined ? 'none' : t.timeout, t.retry === undefined ? 'none' : t.retry])).toEqual([
      ['a', 5000, 'none'],
      ['b', 30000, 2],
      ['c', 1000, 1],
      ['d', null, 'none'],
      ['s', 9000, 'none'],
      ['s > e', 9000, 'none'],
      ['s > f', 100, 'none'],
    ]);
  });

  it("reads mocha's this.timeout/this.retries and jest's file-wide settings", () => {
    const found = tests(`jest.retryTimes(3);
jest.setTimeout(20000);
describe('s', function () {
  this.timeout(4000);
  it('a', function () { this.retries(1); });
  it('b', function () {});
});
it('c', () => {});`);
    expect(found.map((t) => [t.name, t.timeout === undefined ? 'none' : t.timeout, t.retry === undefined ? 'none' : t.retry])).toEqual([
      ['s', 4000, 3],
      ['s > a', 4000, 1],
      ['s > b', 4000, 3],
      ['c', 20000, 3],
    ]);
  });
});

describe('assertions', () => {
  it('counts expect chains, soft and poll expects, assert calls and should chains; not a bare expect(x)', () => {
    const [test] = tests(`test('a', async (t) => {
  expect(a).toBe(1);
  expect(b).not.toEqual(2);
  await expect(p).resolves.toBe(3);
  expect(c);
  expect.soft(d).toBeTruthy();
  await expect.poll(() => e).toBe(4);
  expect(f).to.be.true;
  assert(g);
  assert.equal(h, 1);
  t.assert.ok(i);
  j.should.equal(1);
  [1, 2].forEach((n) => expect(n).toBeGreaterThan(0));
  expect.any(Number);
});`);
    expect(test?.assertions).toBe(11);
  });

  it('takes expect.assertions(n) and t.plan(n) when they promise more', () => {
    expect(tests(`test('a', () => { expect.assertions(4); for (const x of xs) expect(x).toBe(1); });`)[0]?.assertions).toBe(4);
    expect(tests(`test('b', (t) => { t.plan(3); t.assert.ok(x); });`)[0]?.assertions).toBe(3);
    expect(tests(`test('c', () => { expect.assertions(1); expect(x).toBe(1); expect(y).toBe(2); });`)[0]?.assertions).toBe(2);
  });
});

describe('the body hash', () => {
  const original = `import { expect, test } from 'vitest';
test('sums', () => {
  const total = add(1, 2);
  expect(total).toBe(3);
});
test('other', () => { expect(1).toBe(1); });
`;

  it('ignores formatting, comments, quotes, semicolons, trailing commas and redundant parentheses', () => {
    const reformatted = `import { expect, test } from "vitest"
test("sums", () => {
    // one plus two
    const total = (add(
        1,
        2,
    ))
    expect(total).toBe(3) /* exactly */
})
test('other', () => { expect(1).toBe(1); });
`;
    expect(hashOf(reformatted, 'sums')).toBe(hashOf(original, 'sums'));
  });

  it('does not change when the test moves in the file, when other tests change, or when its title changes', () => {
    const moved = `import { expect, test } from 'vitest';
test('other', () => { expect(2).toBe(2); });
test('new', () => {});
describe('wrapped', () => {
  test('renamed', () => {
    const total = add(1, 2);
    expect(total).toBe(3);
  });
});
`;
    expect(hashOf(moved, 'wrapped > renamed')).toBe(hashOf(original, 'sums'));
  });

  it('changes with a renamed local, a changed literal, an operator or a declaration kind', () => {
    const base = hashOf(original, 'sums');
    const variants = [
      original.replace('const total = add(1, 2);\n  expect(total)', 'const sum = add(1, 2);\n  expect(sum)'),
      original.replace('add(1, 2)', 'add(1, 3)'),
      original.replace('add(1, 2)', 'add(1, -2)'),
      original.replace('const total', 'let total'),
      original.replace("expect(total).toBe(3);", "expect(total).toBe('3');"),
    ];
    const hashes = variants.map((code) => hashOf(code, 'sums'));
    expect(hashes.every((hash) => hash !== base)).toBe(true);
    expect(new Set(hashes).size).toBe(variants.length);
  });

  it('leaves out what is pinned on its own: this.timeout(n), this.retries(n) and an unconditional t.skip()', () => {
    const plain = hashOf(`it('a', function () { expect(x).toBe(1); });`, 'a');
    expect(hashOf(`it('a', function () { this.timeout(500); this.retries(2); expect(x).toBe(1); });`, 'a')).toBe(plain);
    const node = hashOf(`test('b', (t) => { assert.ok(x); });`, 'b');
    expect(hashOf(`test('b', (t) => { t.skip(); assert.ok(x); });`, 'b')).toBe(node);
    expect(hashOf(`test('b', (t) => { if (slow) t.skip(); assert.ok(x); });`, 'b')).not.toBe(node);
  });

  it('follows a test function declared elsewhere in the file', () => {
    const code = (body: string) => `function check() { ${body} }\ntest('a', check);`;
    expect(hashOf(code('expect(x).toBe(1);'), 'a')).not.toBe(hashOf(code('expect(x).toBe(2);'), 'a'));
    expect(tests(code('expect(x).toBe(1);'))[0]?.assertions).toBe(1);
  });

  it('is sha256 of something for every test, and the empty hash for a test without a body', () => {
    const [todo, real] = tests(`test.todo('later');\ntest('now', () => {});`);
    expect(todo?.hash).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(real?.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
