import { defineErrors } from './api-error.js';

const proof = (label: string, message: string) => ({ status: 400 as const, label, message });

/** brig's end-to-end identity errors: DPoP proofs and access tokens (labels as wire's certificate enrollment has them). */
export const e2eiErrors = defineErrors({
  notATeamUser: proof('not-a-team-user', 'Only team users can request a DPoP access token'),
  missingHandle: proof('missing-handle', 'The user has no handle'),
  missingName: proof('missing-name', 'The user has no display name'),
  missingProof: proof('missing-dpop-header', 'The DPoP proof is missing its typ or jwk header'),
  malformedProof: proof('jwt-simple-error', 'The DPoP proof is not a compact JWS'),
  badType: proof('client-token-type-error', "The client JWT DPoP 'typ' must be 'dpop+jwt'"),
  unsupportedAlg: proof('client-token-unsupported-alg', 'The DPoP proof is signed with an unsupported algorithm'),
  badJwk: proof('client-token-parse-error', "The DPoP proof's jwk is not a public key of its algorithm"),
  badSignature: proof('client-token-bad-signature', "The DPoP proof's signature does not verify with its jwk"),
  badClientId: proof('client-token-bad-client-id', "The DPoP proof's sub does not name this client"),
  badNonce: proof(
    'client-token-bad-nonce',
    'The backend nonce does not correspond to the (nonce) claim in DPoP token (base64url encoded)',
  ),
  jtiMissing: proof('client-token-jti-missing', 'The DPoP proof has no jti'),
  chalMissing: proof('client-token-chal-missing', 'The DPoP proof has no chal (ACME challenge)'),
  iatMissing: proof('client-token-iat-missing', 'The DPoP proof has no iat'),
  badIat: proof('client-token-bad-iat', "The DPoP proof's iat is in the future"),
  expMissing: proof('client-token-exp-missing', 'The DPoP proof has no exp'),
  expTooLarge: proof('client-token-exp-too-large', 'The DPoP proof outlives the access token it asks for'),
  expTooSmall: proof('client-token-exp-too-small', 'The DPoP proof has expired'),
  notYetValid: proof('not-yet-valid', "The DPoP proof's nbf is in the future"),
  htmMismatch: proof('dpop-htm-mismatch', "The DPoP proof's htm is not POST"),
  htuMismatch: proof('dpop-htu-mismatch', "The DPoP proof's htu is not this endpoint"),
  handleMismatch: proof('dpop-handle-mismatch', "The DPoP proof's handle is not the user's"),
  teamMismatch: proof('dpop-team-mismatch', "The DPoP proof's team is not the user's"),
  displayNameMismatch: proof('dpop-display-name-mismatch', "The DPoP proof's name is not the user's display name"),
  missingClaim: proof(
    'internal-error',
    'The DPoP proof lacks a claim (nbf, aud, sub, nonce, htm, htu, handle or name)',
  ),
  noKeyBundle: {
    status: 404,
    label: 'no-server-key-bundle',
    message: 'The server has no key to sign access tokens with',
  },
});
