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
    const top = this.top;
    if (top) (top.files ??= new Set()).add(file);
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

/** Whether a recording holds nothing: no file, problem, resolution or part. */
export function isEmpty<Problem>(reads: Recorded<Problem>): boolean {
  return reads.files === undefined && reads.loaded === undefined && reads.problems === undefined && !reads.resolved && reads.parts === undefined;
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
    for (const file of current.files ?? []) out.files.add(file);
    for (const file of current.loaded ?? []) out.loaded.add(file);
    for (const problem of current.problems ?? []) out.problems.add(problem);
    if (current.resolved) out.resolved = true;
    for (const part of current.parts ?? []) if (!seen.has(part)) queue.push(part);
  }
  return out;
}
