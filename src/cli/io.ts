/** What a command reads and writes of its process: tests pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether standard output is a terminal (colors). */
  isTTY: boolean;
  /** Whether standard error is a terminal (the progress line). */
  stderrIsTTY?: boolean;
  /** How long a run goes before its progress line appears (default 2 s); tests set 0. */
  progressAfterMs?: number;
}

/** This process's own standard streams, directory and environment. */
export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
  };
}

/**
 * Exits with `code` once everything written is out (`last` runs then, before
 * the exit): the command is done, and nothing it left running (a worker, a
 * module still loading) is waited for.
 */
export function exitWhenFlushed(code: number, last?: () => void): void {
  process.exitCode = code;
  process.stdout.write('', () =>
    process.stderr.write('', () => {
      last?.();
      process.exit(code);
    }),
  );
}
