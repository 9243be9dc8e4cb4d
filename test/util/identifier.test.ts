import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIdentifierAt } from '../../src/util/identifier.js';

/** Where the tokenizer the search replaces finds `name`: every identifier of the text, left to right. */
function tokenPositions(text: string, name: string): number[] {
  return [...text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)].filter((match) => match[0] === name).map((match) => match.index);
}

function searchPositions(text: string, name: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) if (isIdentifierAt(text, at, name.length)) out.push(at);
  return out;
}

describe('isIdentifierAt', () => {
  it('finds a name where the identifier tokenizer finds it, and nowhere else', () => {
    expect(searchPositions('FOO 9FOO x9FOO FOO_ _FOO FOOx (FOO)', 'FOO')).toEqual([0, 5, 31]);
    expect(searchPositions('FOO 9FOO x9FOO FOO_ _FOO FOOx (FOO)', 'FOO')).toEqual(tokenPositions('FOO 9FOO x9FOO FOO_ _FOO FOOx (FOO)', 'FOO'));
  });

  it('agrees with the tokenizer on any text and any identifier', () => {
    const chars = fc.constantFrom(...'aAzZ_09 \n.-$FOB'.split(''));
    const name = fc.tuple(fc.constantFrom('F', 'O', 'B', '_', 'a'), fc.array(fc.constantFrom('F', 'O', 'B', '_', '0', '9'), { maxLength: 3 })).map(([head, tail]) => head + tail.join(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }).map((list) => list.join('')), name, (text, word) => {
        expect(searchPositions(text, word)).toEqual(tokenPositions(text, word));
      }),
      { numRuns: 2000, seed: 5 },
    );
  });
});
