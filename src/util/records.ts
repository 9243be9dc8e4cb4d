/**
 * Each non-empty record of `text` between `separator`s, as its start and end
 * offsets: read in place, with no list of records and no copy of each (git's
 * listing of a 10k repository and the fact cache's index are 13,000–15,000).
 */
export function eachRecord(text: string, separator: string, visit: (at: number, end: number) => void): void {
  for (let from = 0; from < text.length; ) {
    let end = text.indexOf(separator, from);
    if (end === -1) end = text.length;
    const at = from;
    from = end + 1;
    if (end > at) visit(at, end);
  }
}

/** Where the space-separated field at `from` ends: the next space before `limit`, else `limit`. */
export function fieldEnd(text: string, from: number, limit: number): number {
  const space = text.indexOf(' ', from);
  return space === -1 || space > limit ? limit : space;
}
