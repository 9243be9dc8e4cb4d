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
}

/**
 * One computation's reads as recorded: its own, and the recorded reads of the
 * computations it ran or whose memoized value it took (`parts`), kept by
 * reference and flattened once, when the reads are wanted.
 */
export interface Recorded<Problem> extends Reads<Problem> {
  parts: Set<Recorded<Problem>>;
}

function recording<Problem>(): Recorded<Problem> {
  return { files: new Set(), loaded: new Set(), problems: new Set(), resolved: false, parts: new Set() };
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

  record<T>(compute: () => T): { value: T; reads: Recorded<Problem> } {
    const reads = recording<Problem>();
    this.stack.push(reads);
    this.top = reads;
    try {
      return { value: compute(), reads };
    } finally {
      this.stack.pop();
      this.top = this.stack.at(-1);
      if (!isEmpty(reads)) this.replay(reads);
    }
  }

  file(file: string): void {
    this.top?.files.add(file);
  }

  loaded(file: string): void {
    this.top?.loaded.add(file);
  }

  problem(problem: Problem): void {
    this.top?.problems.add(problem);
  }

  resolved(): void {
    if (this.top) this.top.resolved = true;
  }

  /** Charges reads recorded earlier to the computation running now, if any. */
  replay(reads: Recorded<Problem>): void {
    if (this.top && this.top !== reads) this.top.parts.add(reads);
  }
}

/** Whether a recording holds nothing: no file, problem, resolution or part. */
export function isEmpty<Problem>(reads: Recorded<Problem>): boolean {
  return reads.files.size === 0 && reads.loaded.size === 0 && reads.problems.size === 0 && !reads.resolved && reads.parts.size === 0;
}

/** Everything a recording read, its parts' reads included, each part counted once. */
export function flatten<Problem>(reads: Recorded<Problem>): Reads<Problem> {
  const out: Reads<Problem> = { files: new Set(), loaded: new Set(), problems: new Set(), resolved: false };
  const seen = new Set<Recorded<Problem>>();
  const queue = [reads];
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i];
    if (current === undefined || seen.has(current)) continue;
    seen.add(current);
    for (const file of current.files) out.files.add(file);
    for (const file of current.loaded) out.loaded.add(file);
    for (const problem of current.problems) out.problems.add(problem);
    if (current.resolved) out.resolved = true;
    for (const part of current.parts) if (!seen.has(part)) queue.push(part);
  }
  return out;
}
