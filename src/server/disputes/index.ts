// Disputes and the Delivery Guarantee (issue 36, decision 032): 'Report a problem', the response, the moderators'
// decisions posted to the ledger, and claims paid from the guarantee's reserve.
export { createClaimJobs, GUARANTEE_CLAIM_JOB, GUARANTEE_REFUND_JOB, payClaim } from './claims';
export { adminDisputeRoutes, bookingDisputeRoutes, DISPUTE_UPLOAD_PATH, disputePhotoRoutes } from './routes';
export { createDisputeService, type DisputeService } from './service';
export { mayReport } from './rules';
export { latestDispute } from './view';
