import type { Io } from './io.js';

/** A cache the checked change could have written is not used: said once, on stderr, since it is not a finding. */
export function warnCacheRefused(io: Pick<Io, 'stderr'>, refused: string | null): void {
  if (refused !== null) io.stderr(`tripwire: warning: ${refused}\n`);
}
