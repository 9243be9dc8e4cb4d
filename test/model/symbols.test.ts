import { describe, expect, it } from 'vitest';
import { SymbolGraph } from '../../src/analysis/symbols.js';
import { buildModel } from '../../src/engine/index.js';
import { makeGitRepo } from '../support/repo.js';

// The symbol graph is built a batch at a time (each free test adds what its
// imports reach) and solved only for the nodes a batch added: a node made
// earlier never points to one made later, so its distance to the nearest
// sink stands. These cases ask across batches, as the paid-call rule does.

const FILES = {
  'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid: ['test/live/**/*.test.ts'] } }),
  'test/helpers/long.ts': "import { a } from './a';\nexport function viaLong() {\n  return a();\n}\n",
  'test/helpers/a.ts': "import { b } from './b';\nexport function a() {\n  return b();\n}\n",
  'test/helpers/b.ts': "import OpenAI from 'openai';\nexport function b() {\n  return new OpenAI();\n}\n",
  'test/helpers/short.ts': "import OpenAI from 'openai';\nexport function viaShort() {\n  return new OpenAI();\n}\n",
  'test/helpers/both.ts': "import { viaLong } from './long';\nimport { viaShort } from './short';\nimport { gone } from './gone';\nexport function both() {\n  return [viaLong(), viaShort(), gone()];\n}\n",
  'test/helpers/quiet.ts': 'export function quiet() {\n  return 1;\n}\n',
};

async function graph(): Promise<SymbolGraph> {
  const { model } = await buildModel({ cwd: makeGitRepo(FILES), cache: false });
  return new SymbolGraph(model, { site: () => null, package: (name) => name });
}

const labels = (chain: { label: string }[] | null): string | null => chain?.map((step) => step.label).join(' → ') ?? null;

describe('SymbolGraph across batches', () => {
  it('a later batch that reaches a sink both through nodes solved before and through its own takes the shorter way', async () => {
    const symbols = await graph();
    const long = symbols.importTarget('test/one.test.ts', './helpers/long', 'viaLong') ?? '';
    expect(labels(symbols.chain(long))).toBe('viaLong (test/helpers/long.ts) → a (test/helpers/a.ts) → b (test/helpers/b.ts) → openai');
    const both = symbols.importTarget('test/two.test.ts', './helpers/both', 'both') ?? '';
    // Through long.ts is four steps; through short.ts, two: the first edge (viaLong) is not the shorter.
    expect(labels(symbols.chain(both))).toBe('both (test/helpers/both.ts) → viaShort (test/helpers/short.ts) → openai');
    // And the earlier start keeps its chain.
    expect(labels(symbols.chain(long))).toBe('viaLong (test/helpers/long.ts) → a (test/helpers/a.ts) → b (test/helpers/b.ts) → openai');
  });

  it('a start that reaches no sink has no chain, in any batch', async () => {
    const symbols = await graph();
    symbols.chain(symbols.importTarget('test/one.test.ts', './helpers/long', 'viaLong') ?? '');
    expect(symbols.chain(symbols.importTarget('test/two.test.ts', './helpers/quiet', 'quiet') ?? '')).toBeNull();
  });

  it('whether a start can reach a sink through a file counts the nodes solved in earlier batches', async () => {
    const symbols = await graph();
    const throughB = (file: string): boolean => file === 'test/helpers/b.ts';
    const long = symbols.importTarget('test/one.test.ts', './helpers/long', 'viaLong') ?? '';
    expect(symbols.mayChainThrough(long, throughB)).toBe(true);
    // both.ts is new, and reaches b.ts only through long.ts's nodes, made before it.
    const both = symbols.importTarget('test/two.test.ts', './helpers/both', 'both') ?? '';
    expect(symbols.mayChainThrough(both, throughB)).toBe(true);
    const short = symbols.importTarget('test/three.test.ts', './helpers/short', 'viaShort') ?? '';
    expect(symbols.mayChainThrough(short, throughB)).toBe(false);
    expect(labels(symbols.chainThrough(both, throughB))).toBe('both (test/helpers/both.ts) → viaLong (test/helpers/long.ts) → a (test/helpers/a.ts) → b (test/helpers/b.ts) → openai');
  });

  it('reach names the files on the way and the imports that could not be followed, whoever built the nodes', async () => {
    const symbols = await graph();
    symbols.chain(symbols.importTarget('test/one.test.ts', './helpers/long', 'viaLong') ?? '');
    const both = symbols.importTarget('test/two.test.ts', './helpers/both', 'both') ?? '';
    const { files, unresolved } = symbols.reach([both]);
    expect([...files].sort()).toEqual(['test/helpers/a.ts', 'test/helpers/b.ts', 'test/helpers/both.ts', 'test/helpers/long.ts', 'test/helpers/short.ts']);
    expect(unresolved).toEqual([{ file: 'test/helpers/both.ts', specifier: './gone' }]);
  });
});
