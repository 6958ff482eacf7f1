import * as Op from './generated/operations';
import { body, operation, path, query, Route, schemaRef } from './route';
import {
  desktopUpdateFeedRoute,
  figureRawRoute,
  figureUploadRoute,
  modelCatalogRoute,
  releaseDownloadRoute,
  releaseFileUploadRoute,
  signedBlobRoute,
} from './files';
import { syncUsersRoute, TRAJECTORY_RECORD, trajectoryReadRoute } from './streams';
import { discussStreamRoute } from './events';

/** Appends and cover-writes carry whole batches of records; other bodies are small. */
const RECORD_BATCH_BYTES = 64 * 1024 * 1024;

/** A refused append: the server's head, so the client can tell how far behind it is. */
const APPEND_CONFLICT = schemaRef('AppendConflict', {
  type: 'object',
  description: '`head_uuid` and `count` are there when the append is not a fast-forward (`base_uuid` is not the head).',
  required: ['detail'],
  properties: {
    detail: { type: 'string' },
    head_uuid: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'uuid of the last stored record; null for an empty session' },
    count: { type: 'integer', description: 'Records stored' },
  },
});

/** Too few free credits: how many there are. */
const NOT_ENOUGH_CREDITS = schemaRef('NotEnoughCredits', {
  type: 'object',
  required: ['detail', 'balance_credits'],
  properties: { detail: { type: 'string' }, balance_credits: { type: 'number', description: 'Credits free (not reserved)' } },
});

/**
 * The REST API as data: one row per endpoint. Order matters only where two templates overlap:
 * `/api/labs/preview` must come before `/api/labs/{lab_id}`.
 */
/** A lab's invitation code is shown to its owner only; members' entries leave it out (not null). */
const HIDDEN_LAB_CODE = ['invitation_code', 'code_expires_at'] as const;

export const ROUTES: Route[] = [
  // Auth (contracts §3)
  operation({ method: 'POST', path: '/api/auth/cli/start', auth: 'none', tag: 'auth', summary: 'Start a CLI device login', operation: Op.AuthCliStartDocument, variables: {}, result: 'authCliStart' }),
  operation({ method: 'POST', path: '/api/auth/cli/approve', auth: 'user', tag: 'auth', summary: 'Approve a CLI login by its user code', operation: Op.AuthCliApproveDocument, variables: { input: body() }, result: 'authCliApprove', errors: { FORBIDDEN: null, NOT_FOUND: null } }),
  operation({ method: 'POST', path: '/api/auth/cli/deny', auth: 'user', tag: 'auth', summary: 'Deny a CLI login by its user code (its poll then answers 403)', operation: Op.AuthCliDenyDocument, variables: { input: body() }, result: 'authCliDeny', errors: { FORBIDDEN: null, NOT_FOUND: null } }),
  operation({ method: 'POST', path: '/api/auth/cli/poll', auth: 'none', tag: 'auth', summary: 'Poll a CLI login', operation: Op.AuthCliPollDocument, variables: { input: body() }, result: 'authCliPoll', omitNulls: true, errors: { FORBIDDEN: null, NOT_FOUND: null } }),
  operation({ method: 'POST', path: '/api/auth/refresh', auth: 'none', tag: 'auth', summary: 'Exchange a refresh token for a new pair', operation: Op.AuthRefreshDocument, variables: { input: body() }, result: 'authRefresh', errors: { UNAUTHENTICATED: null } }),
  operation({ method: 'GET', path: '/api/me', auth: 'user', tag: 'auth', summary: 'The caller', operation: Op.MeDocument, variables: {}, result: 'me' }),

  // Labs
  operation({ method: 'POST', path: '/api/labs', auth: 'user', tag: 'labs', summary: 'Create a lab', operation: Op.LabCreateDocument, variables: { input: body() }, result: 'labCreate' }),
  operation({ method: 'GET', path: '/api/labs', auth: 'user', tag: 'labs', summary: 'Labs the caller is in', operation: Op.LabsDocument, variables: {}, result: 'labs', list: true, omitWhenNull: HIDDEN_LAB_CODE }),
  operation({ method: 'GET', path: '/api/labs/preview', auth: 'user', tag: 'labs', summary: 'Team name of an invitation code', operation: Op.LabPreviewDocument, variables: { code: query('code') }, result: 'labPreview' }),
  operation({ method: 'POST', path: '/api/labs/join', auth: 'user', tag: 'labs', summary: 'Ask to join a lab', operation: Op.LabJoinDocument, variables: { input: body() }, result: 'labJoin' }),
  operation({ method: 'GET', path: '/api/labs/{lab_id}', auth: 'user', tag: 'labs', summary: 'A lab', operation: Op.LabDocument, variables: { id: path('lab_id') }, result: 'lab', omitWhenNull: HIDDEN_LAB_CODE }),
  operation({ method: 'GET', path: '/api/labs/{lab_id}/usage', auth: 'user', tag: 'labs', summary: 'Usage report (owner)', operation: Op.LabUsageDocument, variables: { labId: path('lab_id') }, result: 'labUsage' }),
  operation({ method: 'GET', path: '/api/labs/{lab_id}/board', auth: 'user', tag: 'labs', summary: 'Board of shared analyses', operation: Op.LabBoardDocument, variables: { labId: path('lab_id'), limit: query('limit') }, result: 'labBoard' }),
  operation({ method: 'GET', path: '/api/labs/{lab_id}/reviews', auth: 'user', tag: 'labs', summary: 'Open review threads', operation: Op.LabReviewsDocument, variables: { labId: path('lab_id'), limit: query('limit') }, result: 'labReviews' }),
  operation({ method: 'POST', path: '/api/labs/{lab_id}/rotate_code', auth: 'user', tag: 'labs', summary: 'Rotate the invitation code (owner)', operation: Op.LabRotateCodeDocument, variables: { labId: path('lab_id') }, result: 'labRotateCode' }),
  operation({ method: 'DELETE', path: '/api/labs/{lab_id}/membership', auth: 'user', tag: 'labs', summary: 'Leave a lab', operation: Op.LabLeaveDocument, variables: { labId: path('lab_id') }, result: 'labLeave' }),
  operation({ method: 'PATCH', path: '/api/labs/{lab_id}/members/{member_user_id}', auth: 'user', tag: 'labs', summary: 'Approve, reject, revoke or change role (owner)', operation: Op.LabMemberUpdateDocument, variables: { labId: path('lab_id'), memberUserId: path('member_user_id'), input: body() }, result: 'labMemberUpdate' }),

  // Trajectories (contracts §5). `reconcile` is matched before `{session_id}`.
  operation({ method: 'GET', path: '/api/trajectories', auth: 'user', tag: 'trajectories', summary: 'Sessions the caller can see', operation: Op.TrajectoriesDocument, variables: { owner: query('owner'), labId: query('lab_id'), limit: query('limit'), includeArchived: query('include_archived'), sharedOnly: query('shared_only'), source: query('source') }, result: 'trajectories' }),
  operation({ method: 'POST', path: '/api/trajectories/reconcile', auth: 'user', tag: 'trajectories', summary: 'Archive sessions absent from the list, re-activate listed ones', operation: Op.TrajectoryReconcileDocument, variables: { input: body() }, result: 'trajectoryReconcile' }),
  trajectoryReadRoute,
  operation({ method: 'DELETE', path: '/api/trajectories/{session_id}', auth: 'user', tag: 'trajectories', summary: 'Delete a session (owner)', operation: Op.TrajectoryDeleteDocument, variables: { sessionId: path('session_id') }, result: 'trajectoryDelete', status: 204 }),
  operation({ method: 'GET', path: '/api/trajectories/{session_id}/meta', auth: 'user', tag: 'trajectories', summary: 'Session metadata', operation: Op.TrajectoryMetaDocument, variables: { sessionId: path('session_id') }, result: 'trajectoryMeta' }),
  operation({ method: 'PUT', path: '/api/trajectories/{session_id}/append', auth: 'user', tag: 'trajectories', summary: 'Fast-forward append (owner)', operation: Op.TrajectoryAppendDocument, variables: { sessionId: path('session_id'), input: body({ rawArrays: { records: TRAJECTORY_RECORD } }) }, result: 'trajectoryAppend', maxBodyBytes: RECORD_BATCH_BYTES, errors: { CONFLICT: APPEND_CONFLICT } }),
  operation({ method: 'PUT', path: '/api/trajectories/{session_id}/full', auth: 'user', tag: 'trajectories', summary: 'Cover-write (owner)', operation: Op.TrajectoryCoverDocument, variables: { sessionId: path('session_id'), input: body({ rawArrays: { records: TRAJECTORY_RECORD } }) }, result: 'trajectoryCover', maxBodyBytes: RECORD_BATCH_BYTES }),
  operation({ method: 'GET', path: '/api/trajectories/{session_id}/annotations', auth: 'user', tag: 'trajectories', summary: 'Annotations of a session', operation: Op.TrajectoryAnnotationsDocument, variables: { sessionId: path('session_id') }, result: 'trajectoryAnnotations' }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/annotations', auth: 'user', tag: 'trajectories', summary: 'Annotate a record (owner or lab mentor)', operation: Op.TrajectoryAnnotateDocument, variables: { sessionId: path('session_id'), input: body() }, result: 'trajectoryAnnotate', status: 201 }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/annotations/{annotation_id}/resolve', auth: 'user', tag: 'trajectories', summary: 'Resolve an annotation', operation: Op.TrajectoryAnnotationResolveDocument, variables: { sessionId: path('session_id'), annotationId: path('annotation_id') }, result: 'trajectoryAnnotationResolve' }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/critique', auth: 'user', tag: 'trajectories', summary: 'Critique findings: the rules’, then the model’s (with a language model)', operation: Op.TrajectoryCritiqueDocument, variables: { sessionId: path('session_id') }, result: 'trajectoryCritique' }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/fork', auth: 'user', tag: 'trajectories', summary: 'Fork a session', operation: Op.TrajectoryForkDocument, variables: { sessionId: path('session_id'), input: body() }, result: 'trajectoryFork', status: 201 }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/summary', auth: 'user', tag: 'trajectories', summary: 'Append a summary record (owner)', operation: Op.TrajectorySummaryAppendDocument, variables: { sessionId: path('session_id'), input: body() }, result: 'trajectorySummaryAppend', status: 201 }),
  operation({ method: 'GET', path: '/api/trajectories/{session_id}/summary', auth: 'user', tag: 'trajectories', summary: 'The cached summary', operation: Op.TrajectorySummaryDocument, variables: { sessionId: path('session_id') }, result: 'trajectorySummary', omitNulls: true }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/summary/refresh', auth: 'user', tag: 'trajectories', summary: 'Drop the cached summary and queue its making again (owner)', operation: Op.TrajectorySummaryRefreshDocument, variables: { sessionId: path('session_id') }, result: 'trajectorySummaryRefresh' }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/discuss', auth: 'user', tag: 'trajectories', summary: 'Ask the model about a session', operation: Op.TrajectoryDiscussDocument, variables: { sessionId: path('session_id'), input: body() }, result: 'trajectoryDiscuss' }),
  discussStreamRoute,
  operation({ method: 'GET', path: '/api/trajectories/{session_id}/discussions', auth: 'user', tag: 'trajectories', summary: 'Q&A turns of other viewers (owner)', operation: Op.TrajectoryDiscussionsDocument, variables: { sessionId: path('session_id') }, result: 'trajectoryDiscussions' }),
  operation({ method: 'POST', path: '/api/trajectories/{session_id}/figures', auth: 'user', tag: 'trajectories', summary: 'Record figure map rows (owner)', operation: Op.TrajectoryFiguresRecordDocument, variables: { sessionId: path('session_id'), input: body() }, result: 'trajectoryFiguresRecord' }),
  figureUploadRoute,
  figureRawRoute,
  signedBlobRoute,
  operation({ method: 'PATCH', path: '/api/trajectories/{session_id}/visibility', auth: 'user', tag: 'trajectories', summary: 'Set visibility (owner)', operation: Op.TrajectoryVisibilitySetDocument, variables: { sessionId: path('session_id'), input: body() }, result: 'trajectoryVisibilitySet' }),

  // Releases and the model catalog (contracts §7): reading is public, publishing takes the release token.
  modelCatalogRoute,
  operation({ method: 'GET', path: '/admin/api/public/models/manifest', auth: 'none', tag: 'releases', summary: 'Model catalog manifest', operation: Op.ModelCatalogManifestDocument, variables: {}, result: 'modelCatalogManifest' }),
  operation({ method: 'PUT', path: '/api/admin/models', auth: 'admin', tag: 'admin', summary: 'Replace the model catalog', operation: Op.ModelCatalogReplaceDocument, variables: { input: body() }, result: 'modelCatalogReplace' }),
  operation({ method: 'GET', path: '/admin/api/public/app/{product}/manifest', auth: 'none', tag: 'releases', summary: 'Current release manifest (204 when none)', operation: Op.ReleaseManifestDocument, variables: { product: path('product') }, result: 'releaseManifest', noContentWhenNull: true, cacheControl: 'no-cache' }),
  operation({ method: 'PUT', path: '/admin/api/release/{product}/manifest', auth: 'release', tag: 'releases', summary: 'Publish a release manifest (release token)', operation: Op.ReleasePublishDocument, variables: { product: path('product'), input: body() }, result: 'releasePublish' }),
  releaseFileUploadRoute,
  releaseDownloadRoute,
  desktopUpdateFeedRoute,

  // Sandbox compute (contracts §6). `current` is matched before `{lease_id}`.
  operation({ method: 'POST', path: '/api/compute/plans', auth: 'user', tag: 'compute', summary: 'Draft a plan (charged on the token line)', operation: Op.ComputePlanDraftDocument, variables: { input: body() }, result: 'computePlanDraft', status: 201, errors: { UNAVAILABLE: null } }),
  operation({ method: 'GET', path: '/api/compute/plans/current', auth: 'user', tag: 'compute', summary: 'The plan awaiting a decision (204 when none)', operation: Op.ComputePlanCurrentDocument, variables: {}, result: 'computePlanCurrent', noContentWhenNull: true }),
  operation({ method: 'POST', path: '/api/compute/plans/{plan_id}/approve', auth: 'user', tag: 'compute', summary: 'Approve a plan: reserve its ceiling, claim a lease', operation: Op.ComputePlanApproveDocument, variables: { planId: path('plan_id') }, result: 'computePlanApprove', status: 201, errors: { PAYMENT_REQUIRED: NOT_ENOUGH_CREDITS } }),
  operation({ method: 'POST', path: '/api/compute/plans/{plan_id}/decline', auth: 'user', tag: 'compute', summary: 'Decline a plan', operation: Op.ComputePlanDeclineDocument, variables: { planId: path('plan_id') }, result: 'computePlanDecline' }),
  operation({ method: 'POST', path: '/api/compute/sessions', auth: 'user', tag: 'compute', summary: 'Claim a lease without a plan (no ceiling)', operation: Op.ComputeSessionCreateDocument, variables: { input: body() }, result: 'computeSessionCreate', status: 201, errors: { PAYMENT_REQUIRED: NOT_ENOUGH_CREDITS } }),
  operation({ method: 'GET', path: '/api/compute/sessions/current', auth: 'user', tag: 'compute', summary: 'The newest lease that is not over (204 when none)', operation: Op.ComputeSessionCurrentDocument, variables: {}, result: 'computeSessionCurrent', noContentWhenNull: true }),
  operation({ method: 'GET', path: '/api/compute/sessions/{lease_id}', auth: 'user', tag: 'compute', summary: 'A lease, with its idle clock refreshes', operation: Op.ComputeSessionDocument, variables: { leaseId: path('lease_id') }, result: 'computeSession' }),
  operation({ method: 'DELETE', path: '/api/compute/sessions/{lease_id}', auth: 'user', tag: 'compute', summary: 'Release a lease', operation: Op.ComputeSessionReleaseDocument, variables: { leaseId: path('lease_id') }, result: 'computeSessionRelease' }),
  operation({ method: 'POST', path: '/api/compute/sessions/{lease_id}/topup', auth: 'user', tag: 'compute', summary: 'Raise the ceiling; a paused lease resumes', operation: Op.ComputeSessionTopUpDocument, variables: { leaseId: path('lease_id'), input: body() }, result: 'computeSessionTopUp', errors: { PAYMENT_REQUIRED: NOT_ENOUGH_CREDITS } }),
  operation({ method: 'POST', path: '/api/compute/sessions/{lease_id}/heartbeat', auth: 'none', tag: 'compute', summary: 'Sandbox heartbeat (process token)', operation: Op.ComputeHeartbeatDocument, variables: { leaseId: path('lease_id'), input: body() }, result: 'computeHeartbeat', errors: { UNAUTHENTICATED: null } }),
  operation({ method: 'POST', path: '/api/compute/bootstrap', auth: 'none', tag: 'compute', summary: 'Exchange a claim token (single use)', operation: Op.ComputeBootstrapDocument, variables: { input: body() }, result: 'computeBootstrap', errors: { UNAUTHENTICATED: null } }),
  operation({ method: 'GET', path: '/api/compute/credits', auth: 'user', tag: 'compute', summary: 'Credits, reservations, token line and open leases', operation: Op.ComputeCreditsDocument, variables: {}, result: 'computeCredits' }),

  // Outbound A2A agents (spec "A2A outbound registry", contracts §9). An entry's key is masked in every answer.
  operation({ method: 'POST', path: '/api/a2a/agents', auth: 'user', tag: 'agents', summary: 'Register an outbound agent (or replace the entry of that id)', operation: Op.A2aAgentCreateDocument, variables: { input: body() }, result: 'a2aAgentCreate' }),
  operation({ method: 'GET', path: '/api/a2a/agents', auth: 'user', tag: 'agents', summary: 'The caller’s outbound agents', operation: Op.A2aAgentsDocument, variables: {}, result: 'a2aAgents', list: true }),
  operation({ method: 'GET', path: '/api/a2a/agents/{id}', auth: 'user', tag: 'agents', summary: 'An outbound agent', operation: Op.A2aAgentDocument, variables: { id: path('id') }, result: 'a2aAgent' }),
  operation({ method: 'PATCH', path: '/api/a2a/agents/{id}', auth: 'user', tag: 'agents', summary: 'Change an outbound agent', operation: Op.A2aAgentUpdateDocument, variables: { id: path('id'), input: body() }, result: 'a2aAgentUpdate', errors: { CONFLICT: null } }),
  operation({ method: 'DELETE', path: '/api/a2a/agents/{id}', auth: 'user', tag: 'agents', summary: 'Delete an outbound agent', operation: Op.A2aAgentDeleteDocument, variables: { id: path('id') }, result: 'a2aAgentDelete', status: 204 }),
  operation({ method: 'POST', path: '/api/a2a/agents/{id}/test', auth: 'user', tag: 'agents', summary: 'Fetch the agent’s card and record the outcome ({ok: false, error} when it fails)', operation: Op.A2aAgentTestDocument, variables: { id: path('id') }, result: 'a2aAgentTest', omitNulls: true, errors: { RATE_LIMITED: null } }),

  // Admin: users and labs
  syncUsersRoute,
  operation({ method: 'GET', path: '/api/admin/users', auth: 'admin', tag: 'admin', summary: 'Search users', operation: Op.AdminUsersDocument, variables: { q: query('q'), planCode: query('plan_code'), limit: query('limit'), offset: query('offset') }, result: 'adminUsers' }),
  operation({ method: 'POST', path: '/api/admin/users', auth: 'admin', tag: 'admin', summary: 'Create a user', operation: Op.AdminUserCreateDocument, variables: { input: body() }, result: 'adminUserCreate', status: 201 }),
  operation({ method: 'GET', path: '/api/admin/users/{user_id}', auth: 'admin', tag: 'admin', summary: 'A user', operation: Op.AdminUserDocument, variables: { id: path('user_id') }, result: 'adminUser' }),
  operation({ method: 'PATCH', path: '/api/admin/users/{user_id}', auth: 'admin', tag: 'admin', summary: 'Update a user', operation: Op.AdminUserUpdateDocument, variables: { id: path('user_id'), input: body() }, result: 'adminUserUpdate' }),
  operation({ method: 'POST', path: '/api/admin/users/{user_id}/credits', auth: 'admin', tag: 'admin', summary: 'Grant credits', operation: Op.AdminCreditGrantDocument, variables: { userId: path('user_id'), input: body() }, result: 'adminCreditGrant' }),
  operation({ method: 'POST', path: '/api/admin/users/{user_id}/tokens', auth: 'admin', tag: 'admin', summary: 'Mint a personal access token', operation: Op.AdminTokenCreateDocument, variables: { userId: path('user_id'), input: body() }, result: 'adminTokenCreate', status: 201 }),
  operation({ method: 'DELETE', path: '/api/admin/users/{user_id}/tokens/{token_id}', auth: 'admin', tag: 'admin', summary: 'Revoke a token', operation: Op.AdminTokenRevokeDocument, variables: { userId: path('user_id'), tokenId: path('token_id') }, result: 'adminTokenRevoke', status: 204 }),
  operation({ method: 'GET', path: '/api/admin/trajectories', auth: 'admin', tag: 'admin', summary: 'Every session', operation: Op.AdminTrajectoriesDocument, variables: { owner: query('owner'), labId: query('lab_id'), q: query('q'), limit: query('limit') }, result: 'adminTrajectories' }),
  operation({ method: 'GET', path: '/api/admin/storage_summary', auth: 'admin', tag: 'admin', summary: 'Byte usage per user and per lab', operation: Op.AdminStorageSummaryDocument, variables: {}, result: 'adminStorageSummary' }),
  operation({ method: 'GET', path: '/api/admin/stats', auth: 'admin', tag: 'admin', summary: 'Online users, LLM windows, DAU/WAU/MAU, registrations, plans', operation: Op.AdminStatsDocument, variables: {}, result: 'adminStats' }),
  operation({ method: 'GET', path: '/api/admin/segmentation', auth: 'admin', tag: 'admin', summary: 'Users and paying users over institution tier, type and name', operation: Op.AdminSegmentationDocument, variables: { domain: query('domain'), limit: query('limit') }, result: 'adminSegmentation' }),
  operation({ method: 'GET', path: '/api/admin/labs', auth: 'admin', tag: 'admin', summary: 'Search labs', operation: Op.AdminLabsDocument, variables: { q: query('q'), status: query('status'), limit: query('limit'), offset: query('offset') }, result: 'adminLabs' }),
  operation({ method: 'GET', path: '/api/admin/labs/{lab_id}', auth: 'admin', tag: 'admin', summary: 'A lab', operation: Op.AdminLabDocument, variables: { id: path('lab_id') }, result: 'adminLab' }),
  operation({ method: 'PATCH', path: '/api/admin/labs/{lab_id}', auth: 'admin', tag: 'admin', summary: 'Update a lab', operation: Op.AdminLabUpdateDocument, variables: { id: path('lab_id'), input: body() }, result: 'adminLabUpdate' }),
];
