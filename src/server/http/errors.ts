/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent along, e.g. `Retry-After` with a 429. */
    readonly headers: Record<string, string> = {},
    /** More for the client beside `error` (who already holds a claimed card, say). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const forbidden = (message = 'Unauthorized access') => new HttpError(403, message);
export const notFound = (message = 'Resource not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
