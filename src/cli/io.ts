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
