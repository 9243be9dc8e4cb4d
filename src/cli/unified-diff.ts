type Op = { kind: ' ' | '-' | '+'; line: string };

const CONTEXT = 2;

/** A unified diff of two texts (`--- a/file`, `+++ b/file`, `@@` hunks with two lines of context). */
export function unifiedDiff(file: string, before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  // Lines in common at both ends are not diffed: fixes are few and local, the maps can be long.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [
    ...a.slice(0, head).map((line): Op => ({ kind: ' ', line })),
    ...myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line })),
  ];
  return `--- a/${file}\n+++ b/${file}\n${hunks(ops).join('')}`;
}

function hunks(ops: readonly Op[]): string[] {
  const changes = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const groups: [number, number][] = [];
  for (const index of changes) {
    const last = groups[groups.length - 1];
    if (last && index - last[1] <= CONTEXT * 2 + 1) last[1] = index;
    else groups.push([index, index]);
  }
  return groups.map(([first, lastChange]) => {
    const start = Math.max(0, first - CONTEXT);
    const end = Math.min(ops.length, lastChange + 1 + CONTEXT);
    const before = ops.slice(0, start);
    const slice = ops.slice(start, end);
    const oldStart = before.filter((o) => o.kind !== '+').length + 1;
    const newStart = before.filter((o) => o.kind !== '-').length + 1;
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n${slice.map((o) => `${o.kind}${o.line}\n`).join('')}`;
  });
}

/** The shortest edit script between two line lists (Myers, O((N+M)·D)). */
function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Array<number>(2 * max + 3).fill(0);
  const trace: number[][] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[k - 1 + offset] ?? 0) < (v[k + 1 + offset] ?? 0));
      let x = down ? (v[k + 1 + offset] ?? 0) : (v[k - 1 + offset] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + offset] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset);
    }
  }
  return [];
}

function backtrack(a: readonly string[], b: readonly string[], trace: readonly number[][], offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d] ?? [];
    const k = x - y;
    const down = k === -d || (k !== d && (v[k - 1 + offset] ?? 0) < (v[k + 1 + offset] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[prevK + offset] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x] ?? '' });
      y--;
    }
    if (d === 0) break;
    if (down) ops.push({ kind: '+', line: b[--y] ?? '' });
    else ops.push({ kind: '-', line: a[--x] ?? '' });
  }
  return ops.reverse();
}
