/**
 * The error of httpRangeSource's requests (http-fetch.ts), apart from the
 * code that makes them: fourfold/age exports it for `instanceof`, and a
 * page that never reads over HTTP loads only this class (the requests'
 * code is imported at the first httpRangeSource, range-calls.ts).
 */

/** What went wrong with a Range request: `reason` tells which kind. */
export class RangeRequestError extends Error {
  /**
   * 'status': the server answered with an error status (404, 500...);
   * 'no-ranges': it sent the whole file (200) for a part of it: it does not serve ranges;
   * 'length': what it sent does not match what was asked or the size it said before
   *   (a Content-Range or a body of another length, the file's size changed, 416);
   * 'network': the request or its body failed (the connection was cut).
   */
  readonly reason: 'status' | 'no-ranges' | 'length' | 'network';
  /** The response's status, where there was a response. */
  readonly status: number | undefined;
  /** An error whose message says what the server did. */
  constructor(
    message: string,
    reason: RangeRequestError['reason'],
    status?: number,
    options?: {
      /** The failure underneath (a fetch's TypeError, a body's read error), as Error's `cause`. */
      cause?: unknown;
    },
  ) {
    super(message, options);
    this.name = 'RangeRequestError';
    this.reason = reason;
    this.status = status;
  }
}
