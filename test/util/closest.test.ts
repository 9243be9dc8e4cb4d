import { describe, expect, it } from 'vitest';
import { closest, nearby } from '../../src/util/closest.js';

describe('nearby', () => {
  it('lists the candidates near enough to be a typo, nearest first, ties in the given order', () => {
    expect(nearby('src/reveiw', ['src/review', 'src/reviews', 'src/qa', 'src/revue'])).toEqual(['src/review', 'src/reviews', 'src/revue']);
  });

  it('starts with what closest picks', () => {
    expect(closest('src/reveiw', ['src/reviews', 'src/review'])).toBe('src/review');
    expect(nearby('src/reveiw', ['src/reviews', 'src/review'])[0]).toBe('src/review');
  });

  it('lists nothing when no candidate is near', () => {
    expect(nearby('skills', ['src/qa', 'test/evals'])).toEqual([]);
  });
});
