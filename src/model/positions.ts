import type { Loc } from '../types.js';

/** Offset → 1-based line and column (UTF-16 code units), by binary search over line starts. */
export function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}

export function rangeLoc(position: (offset: number) => { line: number; column: number }, start: number, end: number): Loc {
  const a = position(start);
  const b = position(end);
  return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
}

export const FILE_START: Loc = { line: 1, column: 1, endLine: 1, endColumn: 1 };
