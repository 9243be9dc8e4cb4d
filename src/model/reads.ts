/**
 * What a computation over the model read: the files whose content it
 * depended on, the problems those reads recorded (a file that does not parse,
 * is too large, is not text), and whether it resolved an import (which
 * depends on the manifests the resolver read). A verdict computed once is
 * reused by a later run only while every one of these is unchanged
 * (engine/verdicts.ts).
 */
export interface Reads<Problem> {
  files: Set<string>;
  /** The scripts whose facts it loaded: what a run checks the suppression comments of. */
  loaded: Set<string>;
  problems: Set<Problem>;
  resolved: boolean;
  /**
   * The files among `files` it read only through parts (RepoModel.factPart,
   * markdownPart, derived), with the kinds of part read: a change to such a
   * file that leaves those parts the same cannot change what it computed.
   */
  partial: Map<string, Kinds>;
}

/**
 * The kinds of part read of one file: one kind (nearly always) as itself,
 * several as a list; never changed once a computation's reads are flattened.
 */
export type Kinds = string | readonly string[];

/**
 * One computation's reads as recorded: its own, and the recorded reads of the
 * computations it ran or whose memoized value it took (`parts`), kept by
 * reference and flattened once, when the reads are wanted. A set is made at
 * its first member: most recordings are of one file access that read that
 * file and nothing else, and a run makes tens of thousands of them.
 */
export interface Recorded<Problem> {
  files?: Set<string>;
  loaded?: Set<string>;
  problems?: Set<Problem>;
  resolved: boolean;
  parts?: Set<Recorded<Problem>>;
  /** Files read through a part of them, with the kinds of part (one Kinds per file: a computation reads thousands). */
  partial?: Map<string, string | string[]>;
  /** The file this is the computation of a part of: its reads of that file, however deep, are the part's input, not the reader's. */
  own?: string;
}

function recording<Problem>(): Recorded<Problem> {
  return { resolved: false };
}

/**
 * The reads of the computations running now, innermost last. A read is noted
 * in the innermost one; what a computation read is read by the one around it
 * too, and a memo hit charges the reads its value was computed from, so a
 * value shared between computations is charged to each of them.
 */
export class ReadLog<Problem> {
  private readonly stack: Recorded<Problem>[] = [];
  /** The innermost computation, read at every file access. */
  private top: Recorded<Problem> | undefined;

  /**
   * Runs `compute`, recording what it reads; `own` names the file it computes
   * a part of (Recorded.own). A `detached` recording is not charged to the
   * computation around it: its caller charges it where it belongs.
   */
  record<T>(compute: () => T, own?: string, detached = false): { value: T; reads: Recorded<Problem> } {
    const reads = recording<Problem>();
    if (own !== undefined) reads.own = own;
    this.stack.push(reads);
    this.top = reads;
    try {
      return { value: compute(), reads };
    } finally {
      this.stack.pop();
      this.top = this.stack.at(-1);
      if (!detached && !isEmpty(reads)) this.replay(reads);
    }
  }

  /** Whether a computation is running: what is read now is recorded. */
  get recording(): boolean {
    return this.top !== undefined;
  }

  /** Runs `compute` with `reads` as the computation running now: a recording its caller keeps, charged to no other. */
  within<T>(reads: Recorded<Problem>, compute: () => T): T {
    this.stack.push(reads);
    this.top = reads;
    try {
      return compute();
    } finally {
      this.stack.pop();
      this.top = this.stack.at(-1);
    }
  }

  file(file: string): void {
    const top = this.top;
    if (top) (top.files ??= new Set()).add(file);
  }

  /** A read of one part of a file (Reads.partial): of what the file holds, only that part is an input. */
  part(file: string, kind: string): void {
    const top = this.top;
    if (!top) return;
    const partial = (top.partial ??= new Map());
    const known = partial.get(file);
    if (known === undefined) partial.set(file, kind);
    else if (typeof known === 'string') {
      if (known !== kind) partial.set(file, [known, kind]);
    } else if (!known.includes(kind)) known.push(kind);
  }

  loaded(file: string): void {
    const top = this.top;
    if (top) (top.loaded ??= new Set()).add(file);
  }

  problem(problem: Problem): void {
    const top = this.top;
    if (top) (top.problems ??= new Set()).add(problem);
  }

  resolved(): void {
    if (this.top) this.top.resolved = true;
  }

  /** Charges reads recorded earlier to the computation running now, if any. */
  replay(reads: Recorded<Problem>): void {
    const top = this.top;
    if (top && top !== reads) (top.parts ??= new Set()).add(reads);
  }
}

/** The kinds of both, as one Kinds (a new list when they differ). */
function union(a: Kinds, b: Kinds): Kinds {
  if (a === b) return a;
  const all = new Set([...(typeof a === 'string' ? [a] : a), ...(typeof b === 'string' ? [b] : b)]);
  return all.size === 1 ? a : [...all];
}

/** Whether a recording holds nothing: no file, problem, resolution or part. */
export function isEmpty<Problem>(reads: Recorded<Problem>): boolean {
  return reads.files === undefined && reads.loaded === undefined && reads.problems === undefined && !reads.resolved && reads.parts === undefined && reads.partial === undefined;
}

/**
 * Everything a recording read, its parts' reads included, each part counted
 * once. A file read through parts is in `files` too (what every reader of
 * `files` must treat as an input), and in `partial` unless it was also read
 * whole.
 */
export function flatten<Problem>(reads: Recorded<Problem>): Reads<Problem> {
  const out: Reads<Problem> = { files: new Set(), loaded: new Set(), problems: new Set(), resolved: false, partial: new Map() };
  // A recording can be reached both inside a part of a file and outside it: it is visited once per set of absorbed files.
  const seen = new Set<Recorded<Problem>>();
  const seenInside = new Map<Recorded<Problem>, Set<string>>();
  const queue: [Recorded<Problem>, ReadonlySet<string> | null, string][] = [[reads, null, '']];
  for (let i = 0; i < queue.length; i++) {
    const item = queue[i];
    if (item === undefined) continue;
    const [current, outer, outerKey] = item;
    let absorbed = outer;
    let key = outerKey;
    if (current.own !== undefined && !outer?.has(current.own)) {
      absorbed = new Set([...(outer ?? []), current.own]);
      key = [...absorbed].sort().join('\0');
    }
    if (key === '') {
      if (seen.has(current)) continue;
      seen.add(current);
    } else {
      const visited = seenInside.get(current);
      if (visited?.has(key)) continue;
      if (visited) visited.add(key);
      else seenInside.set(current, new Set([key]));
    }
    for (const file of current.files ?? []) if (!absorbed?.has(file)) out.files.add(file);
    for (const file of current.loaded ?? []) out.loaded.add(file);
    for (const problem of current.problems ?? []) out.problems.add(problem);
    if (current.resolved) out.resolved = true;
    if (current.partial && out.partial.size === 0 && !absorbed) {
      // The first (most often the only) recording with parts: its list as a whole.
      out.partial = new Map(current.partial);
    } else {
      for (const [file, kinds] of current.partial ?? []) {
        if (absorbed?.has(file)) continue;
        const known = out.partial.get(file);
        out.partial.set(file, known === undefined ? kinds : union(known, kinds));
      }
    }
    for (const part of current.parts ?? []) if (key !== '' || !seen.has(part)) queue.push([part, absorbed, key]);
  }
  for (const file of out.partial.keys()) {
    if (out.files.has(file)) out.partial.delete(file);
    else out.files.add(file);
  }
  return out;
}
