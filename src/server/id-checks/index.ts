// ID checks (issue 37, docs/verification.md): a photo of a government ID and a selfie, encrypted at rest and read by
// moderators only, deleted in the transaction of the decision.
export { createIdDocumentKeys, ID_DOCUMENTS_SECRET, type IdDocumentKeys } from './keys';
export { adminIdCheckRoutes, ID_CHECK_UPLOAD_PATH, idCheckRoutes } from './routes';
export { createIdCheckService, type IdCheckService } from './service';
