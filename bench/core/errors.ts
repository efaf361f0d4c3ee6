/** The first line of a thrown error's message (or the thrown value), for one-line reports and warnings. */
export function describeError(cause: unknown): string {
  return cause instanceof Error ? cause.message.split('\n')[0]! : String(cause);
}
