import { defineErrors } from './api-error.js';

/** cargohold's error catalogue: assets. */
export const cargoholdErrors = defineErrors({
  assetNotFound: { status: 404, label: 'not-found', message: 'Asset not found' },
  unauthorised: { status: 403, label: 'unauthorised', message: 'Unauthorised operation' },
  assetTooLarge: { status: 413, label: 'client-error', message: 'Asset too large' },
  invalidLength: { status: 400, label: 'invalid-length', message: 'Invalid content length' },
  incompleteBody: {
    status: 400,
    label: 'incomplete-body',
    message: 'HTTP content-length header does not match body size',
  },
  malformedUpload: { status: 400, label: 'client-error', message: 'Malformed multipart upload' },
  unverifiedUser: { status: 403, label: 'unverified-user', message: 'Unverified user' },
  userNotFound: { status: 403, label: 'not-found', message: 'User not found' },
  fileSharingDisabled: {
    status: 403,
    label: 'file-sharing-disabled',
    message: 'File sharing is disabled for this team',
  },
  invalidToken: { status: 400, label: 'bad-request', message: 'Invalid asset token' },
  storageFailure: { status: 500, label: 'server-error', message: 'Server Error.' },
  federationNotImplemented: {
    status: 422,
    label: 'federation-not-implemented',
    message: 'Federation is not yet implemented for this endpoint',
  },
});
