/**
 * A one-line progress report on a terminal's standard error for a long cold
 * run. Nothing is written before `afterMs` (a warm run stays silent), at most
 * one update per `everyMs`, and the line is erased when the run ends, so
 * nothing of it is left in the output. The run is synchronous once its files
 * are listed, so updates are driven by the work (`update`), not by a timer.
 */
export interface Progress {
  /** The run reached a phase (`checking no-paid-calls-in-free-tests`). */
  phase(name: string): void;
  /** The count of files whose facts are loaded so far. */
  facts(count: number): void;
  /** Erases the line, if one was written. */
  done(): void;
}

export interface ProgressOptions {
  write: (text: string) => void;
  afterMs?: number;
  everyMs?: number;
  now?: () => number;
}

export function terminalProgress({ write, afterMs = 2000, everyMs = 100, now = () => performance.now() }: ProgressOptions): Progress {
  const started = now();
  let shownAt: number | null = null;
  let phase = 'listing files';
  let shownPhase = '';
  let facts = 0;
  const show = (): void => {
    const at = now();
    if (at - started < afterMs) return;
    if (shownAt !== null && at - shownAt < everyMs && phase === shownPhase) return;
    shownAt = at;
    shownPhase = phase;
    write(`\r\x1b[2Ktripwire: ${phase} · facts of ${facts} file(s) · ${((at - started) / 1000).toFixed(1)} s`);
  };
  return {
    phase(name) {
      phase = name;
      show();
    },
    facts(count) {
      facts = count;
      show();
    },
    done() {
      if (shownAt !== null) write('\r\x1b[2K');
    },
  };
}

/** Whether a run shows progress: only when standard error is a terminal, and never in CI (the `CI` variable CI services set). */
export function wantsProgress(stderrIsTTY: boolean, env: Record<string, string | undefined>): boolean {
  if (!stderrIsTTY) return false;
  const ci = env.CI;
  return ci === undefined || ci === '' || ci === '0' || ci === 'false';
}
