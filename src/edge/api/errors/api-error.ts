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

  constructor(spec: ErrorSpec, message?: string, headers: Record<string, string> = {}) {
    super(message ?? spec.message);
    this.name = 'ApiError';
    this.spec = spec;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { code: this.spec.status, label: this.spec.label, message: this.message };
  }
}

export function defineErrors<const T extends Record<string, ErrorSpec>>(catalogue: T): T {
  return catalogue;
}
