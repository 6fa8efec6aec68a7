import { defineErrors } from './api-error.js';

/** MLS errors, shared by brig (key packages) and galley (the delivery service), as in wire-server. */
export const mlsErrors = defineErrors({
  mlsNotEnabled: {
    status: 400,
    label: 'mls-not-enabled',
    message: 'MLS is not configured on this backend. See docs.wire.com for instructions on how to enable it',
  },
  mlsProtocolError: { status: 400, label: 'mls-protocol-error', message: 'MLS protocol error' },
  mlsStaleMessage: {
    status: 409,
    label: 'mls-stale-message',
    message: 'The conversation epoch in a message is too old',
  },
  mlsProposalNotFound: {
    status: 404,
    label: 'mls-proposal-not-found',
    message: 'A proposal referenced in a commit message could not be found',
  },
  mlsCommitMissingReferences: {
    status: 400,
    label: 'mls-commit-missing-references',
    message: 'The commit is not referencing all pending proposals',
  },
  mlsClientMismatch: {
    status: 409,
    label: 'mls-client-mismatch',
    message: 'A proposal of type Add or Remove does not apply to the full list of clients for a user',
  },
  mlsSelfRemovalNotAllowed: {
    status: 400,
    label: 'mls-self-removal-not-allowed',
    message: 'Self removal from group is not allowed',
  },
  mlsInvalidLeafNodeIndex: {
    status: 400,
    label: 'mls-invalid-leaf-node-index',
    message: 'A referenced leaf node index points to a blank or non-existing node',
  },
  mlsClientSenderUserMismatch: {
    status: 400,
    label: 'mls-client-sender-user-mismatch',
    message: "User ID resolved from Client ID does not match message's sender user ID",
  },
  mlsUnsupportedMessage: {
    status: 422,
    label: 'mls-unsupported-message',
    message: 'Attempted to send a message with an unsupported combination of content type and wire format',
  },
  mlsIdentityMismatch: {
    status: 403,
    label: 'mls-identity-mismatch',
    message: 'Key package credential does not match qualified client ID',
  },
  mlsSubconvUnsupportedConvType: {
    status: 403,
    label: 'mls-subconv-unsupported-convtype',
    message: 'MLS subconversations are only supported for regular conversations',
  },
  mlsMigrationCriteriaNotSatisfied: {
    status: 400,
    label: 'mls-migration-criteria-not-satisfied',
    message: 'The migration criteria for mixed to MLS protocol transition are not satisfied for this conversation',
  },
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
