/** The first line of a thrown error's message (or the thrown value), for one-line reports and warnings. */
export function describeError(cause: unknown): string {
  return cause instanceof Error ? cause.message.split('\n')[0]! : String(cause);
}

/** A case's error for a call that threw: at its checked first call, or `whileTimed`, after it. */
export function threwError(cause: unknown, whileTimed = false): string {
  return `${whileTimed ? 'threw while timed' : 'threw'}: ${describeError(cause)}`;
}

/** Whether a case's error is a call that threw (threwError), rather than wrong bytes or a refusal. */
export const isThrow = (error: string): boolean => error.startsWith('threw');
