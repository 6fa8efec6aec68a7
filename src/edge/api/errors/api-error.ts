/** An entry of an error catalogue: the stable status and label clients match on. */
export interface ErrorSpec {
  readonly status: number;
  readonly label: string;
  readonly message: string;
}

/** Wire's error body. */
export interface ErrorBody {
  code: number;
  label: string;
  message: string;
}

/** Thrown anywhere in a handler; the one error handler renders it as Wire's error body. */
export class ApiError extends Error {
  readonly spec: ErrorSpec;
  readonly headers: Record<string, string>;
  /** Keys some errors carry beside code, label and message (e.g. `expires_in` of pending-delete). */
  readonly extra: Record<string, unknown>;

  constructor(
    spec: ErrorSpec,
    message?: string,
    headers: Record<string, string> = {},
    extra: Record<string, unknown> = {},
  ) {
    super(message ?? spec.message);
    this.name = 'ApiError';
    this.spec = spec;
    this.headers = headers;
    this.extra = extra;
  }

  body(): ErrorBody & Record<string, unknown> {
    return { code: this.spec.status, label: this.spec.label, message: this.message, ...this.extra };
  }
}

export function defineErrors<const T extends Record<string, ErrorSpec>>(catalogue: T): T {
  return catalogue;
}
