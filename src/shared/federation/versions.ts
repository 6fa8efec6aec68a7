/**
 * The federation API versions this backend speaks (the seed's V0, V1, V2; V2 is final). Two
 * backends use the highest they share, announced by the `api-version` RPC and sent afterwards as
 * `X-Svc-API-Version`.
 */
export const FEDERATION_API_VERSIONS = [0, 1, 2] as const;
