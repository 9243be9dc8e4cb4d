import type { Loc } from '../../src/types.js';

/**
 * A token named many times in one file is one defect, fixed in one pass over
 * that file: its first place stands for the rest, with the count, so a page
 * that repeats a removed flag does not flood the report.
 */
export function firstPerFile<T extends { file: string; loc: Loc }>(items: readonly T[], token: (item: T) => string): { first: T; count: number }[] {
  const groups = new Map<string, { first: T; count: number }>();
  for (const item of items) {
    const key = `${item.file}\0${token(item)}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { first: item, count: 1 });
    else {
      group.count++;
      if (item.loc.line < group.first.loc.line || (item.loc.line === group.first.loc.line && item.loc.column < group.first.loc.column)) group.first = item;
    }
  }
  return [...groups.values()];
}

/** The sentence a grouped finding ends with: how many places it stands for. */
export function timesNamed(count: number): string {
  return count > 1 ? ` Named ${count} times in this file; this is the first.` : '';
}
