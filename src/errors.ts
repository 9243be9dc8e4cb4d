/** A mistake in how tripwire was called: the CLI exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * tripwire cannot do what it was asked for a reason outside the repository
 * and the arguments (an output file it cannot write): the CLI prints the
 * message alone, without a stack, and exits 2.
 */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

export const GIT_MISSING = 'git is not on PATH: tripwire lists the repository and reads its history with git. Install git, or add its directory to PATH.';

/** Whether `error` (or its cause) is the failure to start git at all: `spawn git ENOENT`. */
export function isGitMissing(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = 'code' in current ? current.code : undefined;
    const spawned = ('path' in current && current.path === 'git') || ('syscall' in current && current.syscall === 'spawn git');
    if (code === 'ENOENT' && spawned) return true;
    if (current.message.includes('spawn git ENOENT')) return true;
  }
  return false;
}
