// How much of tripwire's code this process has run, for the CLI's launcher
// (cli/launch.ts): it keeps the compiled code of the broadest run, so that a
// run answered from the result cache (which runs little of the bundle) never
// leaves the compiled code every evaluating run then starts from.

/** Answered without evaluating: help, a usage error, a verdict the result cache served. */
export const ANSWERED = 0;
/** Evaluated: opened the project and ran the rules. */
export const EVALUATED = 1;

let reached = ANSWERED;

export function noteBreadth(breadth: number): void {
  if (breadth > reached) reached = breadth;
}

export function breadth(): number {
  return reached;
}
