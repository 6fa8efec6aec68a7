import { defineErrors } from './api-error.js';

/** MLS errors, shared by brig (key packages) and galley (the delivery service), as in wire-server. */
export const mlsErrors = defineErrors({
  mlsNotEnabled: {
    status: 400,
    label: 'mls-not-enabled',
    message: 'MLS is not configured on this backend. See docs.wire.com for instructions on how to enable it',
  },
  mlsProtocolError: { status: 400, label: 'mls-protocol-error', message: 'MLS protocol error' },
  mlsInvalidLeafNodeSignature: {
    status: 400,
    label: 'mls-invalid-leaf-node-signature',
    message: 'Invalid leaf node signature',
  },
  mlsMissingGroupInfo: {
    status: 404,
    label: 'mls-missing-group-info',
    message: 'The conversation has no group information',
  },
  mlsFederatedOne2OneNotSupported: {
    status: 400,
    label: 'mls-federated-one2one-not-supported',
    message: 'Federated One2One MLS conversations are only supported in API version >= 6',
  },
});
