/** An error SES answers a request with: its type (v2 `x-amzn-errortype`, v1 `Code`), HTTP status and message. */
export class SesError extends Error {
  constructor(
    readonly type: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new SesError('BadRequestException', 400, message);

/**
 * A message SES does not send for what it holds. SES API v2 reference, SendEmail, "Errors":
 * MessageRejected, HTTP 400, "The message can't be sent because it contains invalid content."
 */
export const messageRejected = (message: string) => new SesError('MessageRejected', 400, message);
