// The API's error bodies, as values: every failure a route raises becomes one of these.

/** One item of an error body: `{ type, field?, message? }`. */
export interface ErrorItem {
  type: string;
  field?: string;
  message?: string;
}

/** A failure that already knows its HTTP status and the error body it answers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly items: ErrorItem[],
  ) {
    super(items.map((item) => [item.type, item.field, item.message].filter(Boolean).join(': ')).join('; '));
    this.name = 'ApiError';
  }

  /** The JSON body the service sends for this failure. */
  body(): { errors: ErrorItem[] } {
    return { errors: this.items };
  }
}

/** 400: a query or path parameter, or the request's shape, is wrong. */
export function parameterInvalid(field: string, message: string): ApiError {
  return new ApiError(400, [{ type: 'parameter_invalid', field, message }]);
}

/** 422: the record is well-formed but one of its attributes is wrong. */
export function attributeInvalid(field: string, message: string): ApiError {
  return new ApiError(422, [{ type: 'attribute_invalid', field, message }]);
}

/** 422 carrying several attribute problems at once. */
export function attributesInvalid(items: Array<{ field: string; message: string }>): ApiError {
  return new ApiError(
    422,
    items.map((item) => ({ type: 'attribute_invalid', ...item })),
  );
}

/** 401: the spec says this item has no field and no message. */
export function unauthorized(): ApiError {
  return new ApiError(401, [{ type: 'unauthorized' }]);
}

/** 403: the spec says this item has no field and no message. */
export function forbidden(): ApiError {
  return new ApiError(403, [{ type: 'forbidden' }]);
}

/** 404 record_missing. */
export function recordMissing(message: string): ApiError {
  return new ApiError(404, [{ type: 'record_missing', message }]);
}

/** 429 body; the message names the limit so a human reading a log knows which one. */
export function rateLimitExceeded(limit: number, windowSeconds: number): ApiError {
  return new ApiError(429, [{ type: 'rate_limit_exceeded', message: `Rate limit exceeded: ${limit} requests per ${windowSeconds} seconds` }]);
}

/** The documented endpoints whose payloads the API document does not show. */
export function notEmulated(): ApiError {
  return new ApiError(501, [{ type: 'not_emulated', message: "not emulated: the API document does not show this endpoint's payloads" }]);
}
