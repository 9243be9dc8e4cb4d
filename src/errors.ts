/** A mistake in how tripwire was called: the CLI exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
