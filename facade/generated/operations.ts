/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A note on a record (1-10,000 characters), or a reply to another note. */
export type AnnotationInput = {
  body: string;
  recordUuid: string;
  replyTo?: string | number | null | undefined;
};

export type AnnotationStatus =
  | 'open'
  | 'resolved';

/** A role the owner can give (there is one owner). */
export type AssignableRole =
  | 'member'
  | 'mentor';

/** A model of a replacement catalog. */
export type CatalogModelInput = {
  capabilities: Array<string>;
  contextWindow: number;
  id: string;
  inputPrice: number;
  name: string;
  outputPrice: number;
  provider: string;
};

export type DeviceApproveInput = {
  /** The code the CLI shows, e.g. ABCD-EFGH. */
  userCode: string;
};

export type DevicePollInput = {
  deviceCode: string;
};

/** A question about the session, with the conversation so far. */
export type DiscussInput = {
  /** At most 50 earlier turns. */
  history?: Array<DiscussTurnInput> | null | undefined;
  /** 1-4,000 characters. */
  question: string;
};

/** An earlier turn of the same conversation. */
export type DiscussTurnInput = {
  answer: string;
  question: string;
};

/** Rows of a figure map to record (free-form objects; see the spec’s Figure map row). */
export type FigureMapInput = {
  /** Each row: canonical_path and one of cdn_url / storage_uri, optional original_uri, compressed, mime, bytes. Other members are ignored. */
  figures: Array<unknown>;
};

export type ForkInput = {
  /** The last record to copy (included). */
  headUuid: string;
};

/** Admin changes to a lab; omitted members stay as they are. */
export type LabAdminUpdateInput = {
  /** 1-100 characters. */
  name?: string | null | undefined;
  /** 1-10000. */
  seatQuota?: number | null | undefined;
  status?: LabStatus | null | undefined;
};

/** A new lab. The caller becomes its owner. */
export type LabCreateInput = {
  /** 1-100 characters. */
  name: string;
  /** Admins only; default 10. */
  seatQuota?: number | null | undefined;
};

/** A request to join the lab of an invitation code. */
export type LabJoinInput = {
  /** The invitation code. */
  code: string;
};

/** Owner decision on a membership: approve, reject, revoke and/or change role. */
export type LabMemberUpdateInput = {
  /** mentor or member. */
  role?: AssignableRole | null | undefined;
  /** active (approve), rejected or revoked. */
  status?: MemberStatusChange | null | undefined;
};

/** Only active labs accept join requests. */
export type LabStatus =
  | 'active'
  | 'archived'
  | 'suspended';

/** Role inside a lab. */
export type MemberRole =
  | 'member'
  | 'mentor'
  | 'owner';

/** Where a membership stands. */
export type MemberStatus =
  | 'active'
  | 'left'
  | 'pending'
  | 'rejected'
  | 'revoked';

/** An owner decision on a membership. */
export type MemberStatusChange =
  | 'active'
  | 'rejected'
  | 'revoked';

/** A whole replacement catalog (admins). */
export type ModelCatalogInput = {
  models: Array<CatalogModelInput>;
  version: string;
};

/** A plan: free, pro, lab, enterprise. */
export type PlanCode =
  | 'enterprise'
  | 'free'
  | 'lab'
  | 'pro';

/** How the plan was obtained: paid, promo, trial, admin. */
export type PlanSource =
  | 'admin'
  | 'paid'
  | 'promo'
  | 'trial';

/** The complete list of session ids a client has. */
export type ReconcileInput = {
  sessionIds: Array<string | number>;
};

export type RefreshInput = {
  refreshToken: string;
};

/** A file of a manifest to publish; it must already be in the release store. */
export type ReleaseFileInput = {
  arch?: string | null | undefined;
  filename: string;
  platform?: string | null | undefined;
  /** Hex SHA-256; required for core, checked against the stored file when given. */
  sha256?: string | null | undefined;
  /** Required for desktop. */
  signature?: string | null | undefined;
  /** Bytes; must match the stored file. */
  size: number;
};

/** A release manifest to publish (release token). */
export type ReleaseManifestInput = {
  files: Array<ReleaseFileInput>;
  /** Publish even if older than the current version. */
  force?: boolean | null | undefined;
  notes?: string | null | undefined;
  /** Default: now. */
  pubDate?: string | null | undefined;
  /** Semantic version, e.g. 1.4.0 or 1.4.0-beta.2. */
  version: string;
};

export type Severity =
  | 'error'
  | 'info'
  | 'warning';

export type SummaryRequestInput = {
  /** Summarize everything up to this record. */
  parentUuid: string;
};

/** A label for a new personal access token. */
export type TokenCreateInput = {
  /** 1-100 characters. */
  label: string;
};

/** A fast-forward append. */
export type TrajectoryAppendInput = {
  /** uuid of the last record the client has; null for a new or empty session. */
  baseUuid?: string | null | undefined;
  /** Lab of a new session (one you are active in). */
  labId?: string | number | null | undefined;
  /** Each record as JSON text (stored byte for byte). */
  records: Array<string>;
  title?: string | null | undefined;
};

/** A cover-write: the session becomes exactly these records. */
export type TrajectoryCoverInput = {
  labId?: string | number | null | undefined;
  /** Each record as JSON text (stored byte for byte). */
  records: Array<string>;
  title?: string | null | undefined;
};

/** A new user (admin only). */
export type UserCreateInput = {
  /** Default omics. */
  domain?: string | null | undefined;
  email: string;
  institution?: string | null | undefined;
  /** Default false. */
  isAdmin?: boolean | null | undefined;
  name: string;
  phone?: string | null | undefined;
  /** Default free. */
  planCode?: PlanCode | null | undefined;
};

/** Changes to a user (admin only); omitted members stay as they are. */
export type UserUpdateInput = {
  disabled?: boolean | null | undefined;
  domain?: string | null | undefined;
  /** null clears it. */
  institution?: string | null | undefined;
  isAdmin?: boolean | null | undefined;
  name?: string | null | undefined;
  /** null clears it. */
  phone?: string | null | undefined;
  planCode?: PlanCode | null | undefined;
  /** null: the plan never expires. */
  planExpiresAt?: string | null | undefined;
  planSource?: PlanSource | null | undefined;
  /** Bytes; null returns to the plan’s quota. */
  storageQuotaBytes?: number | null | undefined;
};

/** private: the owner (and admins); lab: also the active members of its lab. */
export type Visibility =
  | 'lab'
  | 'private';

/** Who may view the session. */
export type VisibilityInput = {
  /** For lab: the lab to share with (default: the session’s lab). */
  labId?: string | number | null | undefined;
  visibility: Visibility;
};

export type AdminUsersQueryVariables = Exact<{
  q?: string | null | undefined;
  planCode?: PlanCode | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type AdminUsersQuery = { adminUsers: { total: number, limit: number, offset: number, items: Array<{ email: string, name: string, phone: string | null, disabled: boolean, domain: string, institution: string | null, user_id: string, plan_code: PlanCode, plan_source: PlanSource, plan_expires_at: string | null, effective_tier: PlanCode, is_admin: boolean, institution_tier: string | null, institution_type: string | null, institution_name: string | null, storage_quota_bytes: number, storage_used_bytes: number, created_at: string, last_active_at: string | null }> } };

export type AdminUserQueryVariables = Exact<{
  id: string | number;
}>;


export type AdminUserQuery = { adminUser: { email: string, name: string, phone: string | null, disabled: boolean, domain: string, institution: string | null, user_id: string, plan_code: PlanCode, plan_source: PlanSource, plan_expires_at: string | null, effective_tier: PlanCode, is_admin: boolean, institution_tier: string | null, institution_type: string | null, institution_name: string | null, storage_quota_bytes: number, storage_used_bytes: number, created_at: string, last_active_at: string | null } };

export type AdminUserCreateMutationVariables = Exact<{
  input: UserCreateInput;
}>;


export type AdminUserCreateMutation = { adminUserCreate: { email: string, name: string, phone: string | null, disabled: boolean, domain: string, institution: string | null, user_id: string, plan_code: PlanCode, plan_source: PlanSource, plan_expires_at: string | null, effective_tier: PlanCode, is_admin: boolean, institution_tier: string | null, institution_type: string | null, institution_name: string | null, storage_quota_bytes: number, storage_used_bytes: number, created_at: string, last_active_at: string | null } };

export type AdminUserUpdateMutationVariables = Exact<{
  id: string | number;
  input: UserUpdateInput;
}>;


export type AdminUserUpdateMutation = { adminUserUpdate: { email: string, name: string, phone: string | null, disabled: boolean, domain: string, institution: string | null, user_id: string, plan_code: PlanCode, plan_source: PlanSource, plan_expires_at: string | null, effective_tier: PlanCode, is_admin: boolean, institution_tier: string | null, institution_type: string | null, institution_name: string | null, storage_quota_bytes: number, storage_used_bytes: number, created_at: string, last_active_at: string | null } };

export type AdminTokenCreateMutationVariables = Exact<{
  userId: string | number;
  input: TokenCreateInput;
}>;


export type AdminTokenCreateMutation = { adminTokenCreate: { token: string, token_id: string } };

export type AdminTokenRevokeMutationVariables = Exact<{
  userId: string | number;
  tokenId: string | number;
}>;


export type AdminTokenRevokeMutation = { adminTokenRevoke: boolean };

export type AdminLabsQueryVariables = Exact<{
  q?: string | null | undefined;
  status?: LabStatus | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type AdminLabsQuery = { adminLabs: { total: number, limit: number, offset: number, items: Array<{ name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null }> } };

export type AdminLabQueryVariables = Exact<{
  id: string | number;
}>;


export type AdminLabQuery = { adminLab: { name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null, members: Array<{ name: string, email: string, role: MemberRole, status: MemberStatus, member_user_id: string, joined_at: string | null, requested_at: string }> | null } };

export type AdminLabUpdateMutationVariables = Exact<{
  id: string | number;
  input: LabAdminUpdateInput;
}>;


export type AdminLabUpdateMutation = { adminLabUpdate: { name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null } };

export type AdminTrajectoriesQueryVariables = Exact<{
  owner?: string | number | null | undefined;
  labId?: string | number | null | undefined;
  q?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type AdminTrajectoriesQuery = { adminTrajectories: { total: number, limit: number, items: Array<{ visibility: Visibility, title: string | null, count: number, bytes: number, source: string, session_id: string, owner_id: string, lab_id: string | null, head_uuid: string | null, created_at: string, updated_at: string, archived_at: string | null, figure_count: number, open_annotations: number, forked_from: { session_id: string, head_uuid: string } | null }> } };

export type AdminStorageSummaryQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminStorageSummaryQuery = { adminStorageSummary: { total_bytes: number, users: Array<{ email: string, sessions: number, user_id: string, used_bytes: number, quota_bytes: number }>, labs: Array<{ name: string, bytes: number, sessions: number, lab_id: string }> } };

export type AuthCliStartMutationVariables = Exact<{ [key: string]: never; }>;


export type AuthCliStartMutation = { authCliStart: { interval: number, device_code: string, user_code: string, verification_url: string, expires_in: number } };

export type AuthCliApproveMutationVariables = Exact<{
  input: DeviceApproveInput;
}>;


export type AuthCliApproveMutation = { authCliApprove: { status: string, user_code: string } };

export type AuthCliPollMutationVariables = Exact<{
  input: DevicePollInput;
}>;


export type AuthCliPollMutation = { authCliPoll: { status: string, access_token: string | null, refresh_token: string | null, token_type: string | null, expires_in: number | null } };

export type AuthRefreshMutationVariables = Exact<{
  input: RefreshInput;
}>;


export type AuthRefreshMutation = { authRefresh: { access_token: string, refresh_token: string, token_type: string, expires_in: number } };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { email: string, name: string, phone: string | null, disabled: boolean, domain: string, institution: string | null, user_id: string, plan_code: PlanCode, plan_source: PlanSource, plan_expires_at: string | null, effective_tier: PlanCode, is_admin: boolean, institution_tier: string | null, institution_type: string | null, institution_name: string | null, storage_quota_bytes: number, storage_used_bytes: number, created_at: string, last_active_at: string | null } };

export type UserFieldsFragment = { email: string, name: string, phone: string | null, disabled: boolean, domain: string, institution: string | null, user_id: string, plan_code: PlanCode, plan_source: PlanSource, plan_expires_at: string | null, effective_tier: PlanCode, is_admin: boolean, institution_tier: string | null, institution_type: string | null, institution_name: string | null, storage_quota_bytes: number, storage_used_bytes: number, created_at: string, last_active_at: string | null };

export type LabFieldsFragment = { name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null };

export type MemberFieldsFragment = { name: string, email: string, role: MemberRole, status: MemberStatus, member_user_id: string, joined_at: string | null, requested_at: string };

export type LabCreateMutationVariables = Exact<{
  input: LabCreateInput;
}>;


export type LabCreateMutation = { labCreate: { name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null } };

export type LabsQueryVariables = Exact<{ [key: string]: never; }>;


export type LabsQuery = { labs: Array<{ name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null }> };

export type LabPreviewQueryVariables = Exact<{
  code: string;
}>;


export type LabPreviewQuery = { labPreview: { name: string } };

export type LabQueryVariables = Exact<{
  id: string | number;
}>;


export type LabQuery = { lab: { name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null, members: Array<{ name: string, email: string, role: MemberRole, status: MemberStatus, member_user_id: string, joined_at: string | null, requested_at: string }> | null } };

export type LabUsageQueryVariables = Exact<{
  labId: string | number;
}>;


export type LabUsageQuery = { labUsage: { lab_id: string, members: Array<{ name: string, role: MemberRole, status: MemberStatus, sessions: number, member_user_id: string, tokens_in: number, tokens_out: number, last_active_at: string | null }>, totals: { sessions: number, tokens_in: number, tokens_out: number, active_members: number } } };

export type LabBoardQueryVariables = Exact<{
  labId: string | number;
  limit?: number | null | undefined;
}>;


export type LabBoardQuery = { labBoard: { total: number, limit: number, items: Array<{ title: string | null, count: number, state: string, error: string | null, outputs: Array<string>, session_id: string, owner_id: string, owner_name: string, last_activity_at: string, stopped_at_uuid: string | null, last_text: string | null, figure_count: number, open_annotations: number }> } };

export type LabReviewsQueryVariables = Exact<{
  labId: string | number;
  limit?: number | null | undefined;
}>;


export type LabReviewsQuery = { labReviews: { for_me: Array<{ body: string, annotation_id: string, session_id: string, session_title: string | null, record_uuid: string, author_id: string, created_at: string }>, by_me: Array<{ body: string, annotation_id: string, session_id: string, session_title: string | null, record_uuid: string, author_id: string, created_at: string }> } };

export type LabRotateCodeMutationVariables = Exact<{
  labId: string | number;
}>;


export type LabRotateCodeMutation = { labRotateCode: { name: string, status: LabStatus, role: MemberRole | null, lab_id: string, owner_id: string, seat_quota: number, seats_used: number, created_at: string, invitation_code: string | null, code_expires_at: string | null } };

export type LabJoinMutationVariables = Exact<{
  input: LabJoinInput;
}>;


export type LabJoinMutation = { labJoin: { status: MemberStatus, lab_id: string } };

export type LabLeaveMutationVariables = Exact<{
  labId: string | number;
}>;


export type LabLeaveMutation = { labLeave: { name: string, email: string, role: MemberRole, status: MemberStatus, member_user_id: string, joined_at: string | null, requested_at: string } };

export type LabMemberUpdateMutationVariables = Exact<{
  labId: string | number;
  memberUserId: string | number;
  input: LabMemberUpdateInput;
}>;


export type LabMemberUpdateMutation = { labMemberUpdate: { name: string, email: string, role: MemberRole, status: MemberStatus, member_user_id: string, joined_at: string | null, requested_at: string } };

export type ReleaseManifestFieldsFragment = { product: string, version: string, notes: string | null, pub_date: string, files: Array<{ filename: string, size: number, sha256: string, signature: string | null, platform: string | null, arch: string | null, url: string }> };

export type ReleaseManifestQueryVariables = Exact<{
  product: string;
}>;


export type ReleaseManifestQuery = { releaseManifest: { product: string, version: string, notes: string | null, pub_date: string, files: Array<{ filename: string, size: number, sha256: string, signature: string | null, platform: string | null, arch: string | null, url: string }> } | null };

export type ReleasePublishMutationVariables = Exact<{
  product: string;
  input: ReleaseManifestInput;
}>;


export type ReleasePublishMutation = { releasePublish: { product: string, version: string, notes: string | null, pub_date: string, files: Array<{ filename: string, size: number, sha256: string, signature: string | null, platform: string | null, arch: string | null, url: string }> } };

export type ModelCatalogManifestQueryVariables = Exact<{ [key: string]: never; }>;


export type ModelCatalogManifestQuery = { modelCatalogManifest: { version: string, sha256: string, count: number, updated_at: string } };

export type ModelCatalogReplaceMutationVariables = Exact<{
  input: ModelCatalogInput;
}>;


export type ModelCatalogReplaceMutation = { modelCatalogReplace: { version: string, sha256: string, count: number, updated_at: string } };

export type TrajectoryFieldsFragment = { visibility: Visibility, title: string | null, count: number, bytes: number, source: string, session_id: string, owner_id: string, lab_id: string | null, head_uuid: string | null, created_at: string, updated_at: string, archived_at: string | null, figure_count: number, open_annotations: number, forked_from: { session_id: string, head_uuid: string } | null };

export type TrajectoriesQueryVariables = Exact<{
  owner?: string | number | null | undefined;
  labId?: string | number | null | undefined;
  limit?: number | null | undefined;
  includeArchived?: boolean | null | undefined;
  sharedOnly?: boolean | null | undefined;
  source?: string | null | undefined;
}>;


export type TrajectoriesQuery = { trajectories: { total: number, limit: number, items: Array<{ visibility: Visibility, title: string | null, count: number, bytes: number, source: string, session_id: string, owner_id: string, lab_id: string | null, head_uuid: string | null, created_at: string, updated_at: string, archived_at: string | null, figure_count: number, open_annotations: number, forked_from: { session_id: string, head_uuid: string } | null }> } };

export type TrajectoryMetaQueryVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectoryMetaQuery = { trajectoryMeta: { visibility: Visibility, title: string | null, count: number, bytes: number, source: string, session_id: string, owner_id: string, lab_id: string | null, head_uuid: string | null, created_at: string, updated_at: string, archived_at: string | null, figure_count: number, open_annotations: number, forked_from: { session_id: string, head_uuid: string } | null } };

export type TrajectoryAppendMutationVariables = Exact<{
  sessionId: string | number;
  input: TrajectoryAppendInput;
}>;


export type TrajectoryAppendMutation = { trajectoryAppend: { count: number, appended: number, session_id: string, head_uuid: string | null } };

export type TrajectoryCoverMutationVariables = Exact<{
  sessionId: string | number;
  input: TrajectoryCoverInput;
}>;


export type TrajectoryCoverMutation = { trajectoryCover: { count: number, appended: number, session_id: string, head_uuid: string | null } };

export type TrajectoryDeleteMutationVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectoryDeleteMutation = { trajectoryDelete: boolean };

export type TrajectoryReconcileMutationVariables = Exact<{
  input: ReconcileInput;
}>;


export type TrajectoryReconcileMutation = { trajectoryReconcile: { archived: Array<string>, reactivated: Array<string> } };

export type TrajectoryVisibilitySetMutationVariables = Exact<{
  sessionId: string | number;
  input: VisibilityInput;
}>;


export type TrajectoryVisibilitySetMutation = { trajectoryVisibilitySet: { visibility: Visibility, title: string | null, count: number, bytes: number, source: string, session_id: string, owner_id: string, lab_id: string | null, head_uuid: string | null, created_at: string, updated_at: string, archived_at: string | null, figure_count: number, open_annotations: number, forked_from: { session_id: string, head_uuid: string } | null } };

export type AnnotationFieldsFragment = { body: string, status: AnnotationStatus, annotation_id: string, session_id: string, record_uuid: string, author_id: string, reply_to: string | null, created_at: string, resolved_at: string | null, resolved_by: string | null };

export type TrajectoryAnnotationsQueryVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectoryAnnotationsQuery = { trajectoryAnnotations: { total: number, items: Array<{ body: string, status: AnnotationStatus, annotation_id: string, session_id: string, record_uuid: string, author_id: string, reply_to: string | null, created_at: string, resolved_at: string | null, resolved_by: string | null }> } };

export type TrajectoryAnnotateMutationVariables = Exact<{
  sessionId: string | number;
  input: AnnotationInput;
}>;


export type TrajectoryAnnotateMutation = { trajectoryAnnotate: { body: string, status: AnnotationStatus, annotation_id: string, session_id: string, record_uuid: string, author_id: string, reply_to: string | null, created_at: string, resolved_at: string | null, resolved_by: string | null } };

export type TrajectoryAnnotationResolveMutationVariables = Exact<{
  sessionId: string | number;
  annotationId: string | number;
}>;


export type TrajectoryAnnotationResolveMutation = { trajectoryAnnotationResolve: { body: string, status: AnnotationStatus, annotation_id: string, session_id: string, record_uuid: string, author_id: string, reply_to: string | null, created_at: string, resolved_at: string | null, resolved_by: string | null } };

export type TrajectoryCritiqueMutationVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectoryCritiqueMutation = { trajectoryCritique: { findings: Array<{ severity: Severity, body: string, record_uuid: string }> } };

export type TrajectoryForkMutationVariables = Exact<{
  sessionId: string | number;
  input: ForkInput;
}>;


export type TrajectoryForkMutation = { trajectoryFork: { count: number, session_id: string, forked_from: { session_id: string, head_uuid: string } } };

export type TrajectorySummaryAppendMutationVariables = Exact<{
  sessionId: string | number;
  input: SummaryRequestInput;
}>;


export type TrajectorySummaryAppendMutation = { trajectorySummaryAppend: { type: string, uuid: string, parentUuid: string, summary: string, leafUuid: string } };

export type TrajectorySummaryQueryVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectorySummaryQuery = { trajectorySummary: { enabled: boolean, reason: string | null, status: string | null, stale: boolean | null, summary: { text: string, head_uuid: string, generated_at: string } | null } };

export type TrajectorySummaryRefreshMutationVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectorySummaryRefreshMutation = { trajectorySummaryRefresh: { status: string } };

export type TrajectoryDiscussMutationVariables = Exact<{
  sessionId: string | number;
  input: DiscussInput;
}>;


export type TrajectoryDiscussMutation = { trajectoryDiscuss: { answer: string, turn_id: string } };

export type TrajectoryDiscussionsQueryVariables = Exact<{
  sessionId: string | number;
}>;


export type TrajectoryDiscussionsQuery = { trajectoryDiscussions: { viewers: Array<{ name: string, user_id: string, turns: Array<{ question: string, answer: string, turn_id: string, created_at: string }> }> } };

export type TrajectoryFiguresRecordMutationVariables = Exact<{
  sessionId: string | number;
  input: FigureMapInput;
}>;


export type TrajectoryFiguresRecordMutation = { trajectoryFiguresRecord: { session_id: string, figure_count: number } };

export const UserFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_code"},"name":{"kind":"Name","value":"planCode"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_source"},"name":{"kind":"Name","value":"planSource"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_expires_at"},"name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","alias":{"kind":"Name","value":"effective_tier"},"name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"institution"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_tier"},"name":{"kind":"Name","value":"institutionTier"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_type"},"name":{"kind":"Name","value":"institutionType"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_name"},"name":{"kind":"Name","value":"institutionName"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_quota_bytes"},"name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_used_bytes"},"name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}}]} as unknown as DocumentNode<UserFieldsFragment, unknown>;
export const LabFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}}]} as unknown as DocumentNode<LabFieldsFragment, unknown>;
export const MemberFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemberFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"member_user_id"},"name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"joined_at"},"name":{"kind":"Name","value":"joinedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"requested_at"},"name":{"kind":"Name","value":"requestedAt"}}]}}]} as unknown as DocumentNode<MemberFieldsFragment, unknown>;
export const ReleaseManifestFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ReleaseManifestFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseManifestNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"product"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","alias":{"kind":"Name","value":"pub_date"},"name":{"kind":"Name","value":"pubDate"}},{"kind":"Field","name":{"kind":"Name","value":"files"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"signature"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"arch"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]} as unknown as DocumentNode<ReleaseManifestFieldsFragment, unknown>;
export const TrajectoryFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectoryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryMeta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"archived_at"},"name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"forked_from"},"name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}},{"kind":"Field","alias":{"kind":"Name","value":"open_annotations"},"name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<TrajectoryFieldsFragment, unknown>;
export const AnnotationFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnnotationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Annotation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"annotation_id"},"name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"author_id"},"name":{"kind":"Name","value":"authorId"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","alias":{"kind":"Name","value":"reply_to"},"name":{"kind":"Name","value":"replyTo"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_at"},"name":{"kind":"Name","value":"resolvedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_by"},"name":{"kind":"Name","value":"resolvedBy"}}]}}]} as unknown as DocumentNode<AnnotationFieldsFragment, unknown>;
export const AdminUsersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminUsers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"planCode"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PlanCode"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUsers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"planCode"},"value":{"kind":"Variable","name":{"kind":"Name","value":"planCode"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_code"},"name":{"kind":"Name","value":"planCode"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_source"},"name":{"kind":"Name","value":"planSource"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_expires_at"},"name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","alias":{"kind":"Name","value":"effective_tier"},"name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"institution"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_tier"},"name":{"kind":"Name","value":"institutionTier"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_type"},"name":{"kind":"Name","value":"institutionType"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_name"},"name":{"kind":"Name","value":"institutionName"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_quota_bytes"},"name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_used_bytes"},"name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}}]} as unknown as DocumentNode<AdminUsersQuery, AdminUsersQueryVariables>;
export const AdminUserDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminUser"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUser"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_code"},"name":{"kind":"Name","value":"planCode"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_source"},"name":{"kind":"Name","value":"planSource"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_expires_at"},"name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","alias":{"kind":"Name","value":"effective_tier"},"name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"institution"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_tier"},"name":{"kind":"Name","value":"institutionTier"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_type"},"name":{"kind":"Name","value":"institutionType"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_name"},"name":{"kind":"Name","value":"institutionName"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_quota_bytes"},"name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_used_bytes"},"name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}}]} as unknown as DocumentNode<AdminUserQuery, AdminUserQueryVariables>;
export const AdminUserCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AdminUserCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUserCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_code"},"name":{"kind":"Name","value":"planCode"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_source"},"name":{"kind":"Name","value":"planSource"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_expires_at"},"name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","alias":{"kind":"Name","value":"effective_tier"},"name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"institution"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_tier"},"name":{"kind":"Name","value":"institutionTier"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_type"},"name":{"kind":"Name","value":"institutionType"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_name"},"name":{"kind":"Name","value":"institutionName"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_quota_bytes"},"name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_used_bytes"},"name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}}]} as unknown as DocumentNode<AdminUserCreateMutation, AdminUserCreateMutationVariables>;
export const AdminUserUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AdminUserUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUserUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_code"},"name":{"kind":"Name","value":"planCode"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_source"},"name":{"kind":"Name","value":"planSource"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_expires_at"},"name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","alias":{"kind":"Name","value":"effective_tier"},"name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"institution"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_tier"},"name":{"kind":"Name","value":"institutionTier"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_type"},"name":{"kind":"Name","value":"institutionType"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_name"},"name":{"kind":"Name","value":"institutionName"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_quota_bytes"},"name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_used_bytes"},"name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}}]} as unknown as DocumentNode<AdminUserUpdateMutation, AdminUserUpdateMutationVariables>;
export const AdminTokenCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AdminTokenCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TokenCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminTokenCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"token_id"},"name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<AdminTokenCreateMutation, AdminTokenCreateMutationVariables>;
export const AdminTokenRevokeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AdminTokenRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminTokenRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"tokenId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}}}]}]}}]} as unknown as DocumentNode<AdminTokenRevokeMutation, AdminTokenRevokeMutationVariables>;
export const AdminLabsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminLabs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"LabStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminLabs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}}]} as unknown as DocumentNode<AdminLabsQuery, AdminLabsQueryVariables>;
export const AdminLabDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminLab"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminLab"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemberFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemberFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"member_user_id"},"name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"joined_at"},"name":{"kind":"Name","value":"joinedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"requested_at"},"name":{"kind":"Name","value":"requestedAt"}}]}}]} as unknown as DocumentNode<AdminLabQuery, AdminLabQueryVariables>;
export const AdminLabUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AdminLabUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabAdminUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminLabUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}}]} as unknown as DocumentNode<AdminLabUpdateMutation, AdminLabUpdateMutationVariables>;
export const AdminTrajectoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminTrajectories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminTrajectories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}},{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectoryFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectoryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryMeta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"archived_at"},"name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"forked_from"},"name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}},{"kind":"Field","alias":{"kind":"Name","value":"open_annotations"},"name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<AdminTrajectoriesQuery, AdminTrajectoriesQueryVariables>;
export const AdminStorageSummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminStorageSummary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminStorageSummary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"users"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","alias":{"kind":"Name","value":"used_bytes"},"name":{"kind":"Name","value":"usedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"quota_bytes"},"name":{"kind":"Name","value":"quotaBytes"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"total_bytes"},"name":{"kind":"Name","value":"totalBytes"}}]}}]}}]} as unknown as DocumentNode<AdminStorageSummaryQuery, AdminStorageSummaryQueryVariables>;
export const AuthCliStartDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AuthCliStart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authCliStart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device_code"},"name":{"kind":"Name","value":"deviceCode"}},{"kind":"Field","alias":{"kind":"Name","value":"user_code"},"name":{"kind":"Name","value":"userCode"}},{"kind":"Field","alias":{"kind":"Name","value":"verification_url"},"name":{"kind":"Name","value":"verificationUrl"}},{"kind":"Field","name":{"kind":"Name","value":"interval"}},{"kind":"Field","alias":{"kind":"Name","value":"expires_in"},"name":{"kind":"Name","value":"expiresIn"}}]}}]}}]} as unknown as DocumentNode<AuthCliStartMutation, AuthCliStartMutationVariables>;
export const AuthCliApproveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AuthCliApprove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeviceApproveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authCliApprove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_code"},"name":{"kind":"Name","value":"userCode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<AuthCliApproveMutation, AuthCliApproveMutationVariables>;
export const AuthCliPollDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AuthCliPoll"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DevicePollInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authCliPoll"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"access_token"},"name":{"kind":"Name","value":"accessToken"}},{"kind":"Field","alias":{"kind":"Name","value":"refresh_token"},"name":{"kind":"Name","value":"refreshToken"}},{"kind":"Field","alias":{"kind":"Name","value":"token_type"},"name":{"kind":"Name","value":"tokenType"}},{"kind":"Field","alias":{"kind":"Name","value":"expires_in"},"name":{"kind":"Name","value":"expiresIn"}}]}}]}}]} as unknown as DocumentNode<AuthCliPollMutation, AuthCliPollMutationVariables>;
export const AuthRefreshDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AuthRefresh"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RefreshInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authRefresh"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"access_token"},"name":{"kind":"Name","value":"accessToken"}},{"kind":"Field","alias":{"kind":"Name","value":"refresh_token"},"name":{"kind":"Name","value":"refreshToken"}},{"kind":"Field","alias":{"kind":"Name","value":"token_type"},"name":{"kind":"Name","value":"tokenType"}},{"kind":"Field","alias":{"kind":"Name","value":"expires_in"},"name":{"kind":"Name","value":"expiresIn"}}]}}]}}]} as unknown as DocumentNode<AuthRefreshMutation, AuthRefreshMutationVariables>;
export const MeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_code"},"name":{"kind":"Name","value":"planCode"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_source"},"name":{"kind":"Name","value":"planSource"}},{"kind":"Field","alias":{"kind":"Name","value":"plan_expires_at"},"name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","alias":{"kind":"Name","value":"effective_tier"},"name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","alias":{"kind":"Name","value":"is_admin"},"name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"institution"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_tier"},"name":{"kind":"Name","value":"institutionTier"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_type"},"name":{"kind":"Name","value":"institutionType"}},{"kind":"Field","alias":{"kind":"Name","value":"institution_name"},"name":{"kind":"Name","value":"institutionName"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_quota_bytes"},"name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"storage_used_bytes"},"name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const LabCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LabCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}}]} as unknown as DocumentNode<LabCreateMutation, LabCreateMutationVariables>;
export const LabsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}}]} as unknown as DocumentNode<LabsQuery, LabsQueryVariables>;
export const LabPreviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LabPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"code"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labPreview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"Variable","name":{"kind":"Name","value":"code"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<LabPreviewQuery, LabPreviewQueryVariables>;
export const LabDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Lab"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lab"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemberFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemberFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"member_user_id"},"name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"joined_at"},"name":{"kind":"Name","value":"joinedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"requested_at"},"name":{"kind":"Name","value":"requestedAt"}}]}}]} as unknown as DocumentNode<LabQuery, LabQueryVariables>;
export const LabUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LabUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labUsage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"member_user_id"},"name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"tokens_in"},"name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","alias":{"kind":"Name","value":"tokens_out"},"name":{"kind":"Name","value":"tokensOut"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","alias":{"kind":"Name","value":"last_active_at"},"name":{"kind":"Name","value":"lastActiveAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"tokens_in"},"name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","alias":{"kind":"Name","value":"tokens_out"},"name":{"kind":"Name","value":"tokensOut"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","alias":{"kind":"Name","value":"active_members"},"name":{"kind":"Name","value":"activeMembers"}}]}}]}}]}}]} as unknown as DocumentNode<LabUsageQuery, LabUsageQueryVariables>;
export const LabBoardDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LabBoard"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labBoard"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_name"},"name":{"kind":"Name","value":"ownerName"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","alias":{"kind":"Name","value":"last_activity_at"},"name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","alias":{"kind":"Name","value":"stopped_at_uuid"},"name":{"kind":"Name","value":"stoppedAtUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"last_text"},"name":{"kind":"Name","value":"lastText"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"outputs"}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}},{"kind":"Field","alias":{"kind":"Name","value":"open_annotations"},"name":{"kind":"Name","value":"openAnnotations"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}}]}}]} as unknown as DocumentNode<LabBoardQuery, LabBoardQueryVariables>;
export const LabReviewsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LabReviews"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labReviews"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"for_me"},"name":{"kind":"Name","value":"forMe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"annotation_id"},"name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_title"},"name":{"kind":"Name","value":"sessionTitle"}},{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"author_id"},"name":{"kind":"Name","value":"authorId"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"by_me"},"name":{"kind":"Name","value":"byMe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"annotation_id"},"name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_title"},"name":{"kind":"Name","value":"sessionTitle"}},{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"author_id"},"name":{"kind":"Name","value":"authorId"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<LabReviewsQuery, LabReviewsQueryVariables>;
export const LabRotateCodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LabRotateCode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labRotateCode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LabFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LabFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"seat_quota"},"name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","alias":{"kind":"Name","value":"seats_used"},"name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"invitation_code"},"name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","alias":{"kind":"Name","value":"code_expires_at"},"name":{"kind":"Name","value":"codeExpiresAt"}}]}}]} as unknown as DocumentNode<LabRotateCodeMutation, LabRotateCodeMutationVariables>;
export const LabJoinDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LabJoin"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabJoinInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labJoin"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<LabJoinMutation, LabJoinMutationVariables>;
export const LabLeaveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LabLeave"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labLeave"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemberFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemberFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"member_user_id"},"name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"joined_at"},"name":{"kind":"Name","value":"joinedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"requested_at"},"name":{"kind":"Name","value":"requestedAt"}}]}}]} as unknown as DocumentNode<LabLeaveMutation, LabLeaveMutationVariables>;
export const LabMemberUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LabMemberUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"memberUserId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labMemberUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"memberUserId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"memberUserId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemberFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemberFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"member_user_id"},"name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"joined_at"},"name":{"kind":"Name","value":"joinedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"requested_at"},"name":{"kind":"Name","value":"requestedAt"}}]}}]} as unknown as DocumentNode<LabMemberUpdateMutation, LabMemberUpdateMutationVariables>;
export const ReleaseManifestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReleaseManifest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"product"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releaseManifest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"Variable","name":{"kind":"Name","value":"product"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ReleaseManifestFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ReleaseManifestFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseManifestNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"product"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","alias":{"kind":"Name","value":"pub_date"},"name":{"kind":"Name","value":"pubDate"}},{"kind":"Field","name":{"kind":"Name","value":"files"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"signature"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"arch"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]} as unknown as DocumentNode<ReleaseManifestQuery, ReleaseManifestQueryVariables>;
export const ReleasePublishDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReleasePublish"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"product"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseManifestInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releasePublish"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"Variable","name":{"kind":"Name","value":"product"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ReleaseManifestFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ReleaseManifestFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseManifestNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"product"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","alias":{"kind":"Name","value":"pub_date"},"name":{"kind":"Name","value":"pubDate"}},{"kind":"Field","name":{"kind":"Name","value":"files"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"signature"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"arch"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]} as unknown as DocumentNode<ReleasePublishMutation, ReleasePublishMutationVariables>;
export const ModelCatalogManifestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ModelCatalogManifest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"modelCatalogManifest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<ModelCatalogManifestQuery, ModelCatalogManifestQueryVariables>;
export const ModelCatalogReplaceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ModelCatalogReplace"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ModelCatalogInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"modelCatalogReplace"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<ModelCatalogReplaceMutation, ModelCatalogReplaceMutationVariables>;
export const TrajectoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Trajectories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeArchived"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sharedOnly"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"source"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}},{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeArchived"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeArchived"}}},{"kind":"Argument","name":{"kind":"Name","value":"sharedOnly"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sharedOnly"}}},{"kind":"Argument","name":{"kind":"Name","value":"source"},"value":{"kind":"Variable","name":{"kind":"Name","value":"source"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectoryFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectoryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryMeta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"archived_at"},"name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"forked_from"},"name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}},{"kind":"Field","alias":{"kind":"Name","value":"open_annotations"},"name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<TrajectoriesQuery, TrajectoriesQueryVariables>;
export const TrajectoryMetaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrajectoryMeta"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryMeta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectoryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectoryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryMeta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"archived_at"},"name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"forked_from"},"name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}},{"kind":"Field","alias":{"kind":"Name","value":"open_annotations"},"name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<TrajectoryMetaQuery, TrajectoryMetaQueryVariables>;
export const TrajectoryAppendDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryAppend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryAppendInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryAppend"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"appended"}}]}}]}}]} as unknown as DocumentNode<TrajectoryAppendMutation, TrajectoryAppendMutationVariables>;
export const TrajectoryCoverDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryCover"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryCoverInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryCover"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"appended"}}]}}]}}]} as unknown as DocumentNode<TrajectoryCoverMutation, TrajectoryCoverMutationVariables>;
export const TrajectoryDeleteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}]}]}}]} as unknown as DocumentNode<TrajectoryDeleteMutation, TrajectoryDeleteMutationVariables>;
export const TrajectoryReconcileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryReconcile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconcileInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryReconcile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"reactivated"}}]}}]}}]} as unknown as DocumentNode<TrajectoryReconcileMutation, TrajectoryReconcileMutationVariables>;
export const TrajectoryVisibilitySetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryVisibilitySet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VisibilityInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryVisibilitySet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectoryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectoryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryMeta"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"owner_id"},"name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","alias":{"kind":"Name","value":"lab_id"},"name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"updated_at"},"name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"archived_at"},"name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"forked_from"},"name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}},{"kind":"Field","alias":{"kind":"Name","value":"open_annotations"},"name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<TrajectoryVisibilitySetMutation, TrajectoryVisibilitySetMutationVariables>;
export const TrajectoryAnnotationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrajectoryAnnotations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryAnnotations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AnnotationFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnnotationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Annotation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"annotation_id"},"name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"author_id"},"name":{"kind":"Name","value":"authorId"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","alias":{"kind":"Name","value":"reply_to"},"name":{"kind":"Name","value":"replyTo"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_at"},"name":{"kind":"Name","value":"resolvedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_by"},"name":{"kind":"Name","value":"resolvedBy"}}]}}]} as unknown as DocumentNode<TrajectoryAnnotationsQuery, TrajectoryAnnotationsQueryVariables>;
export const TrajectoryAnnotateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryAnnotate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AnnotationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryAnnotate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AnnotationFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnnotationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Annotation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"annotation_id"},"name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"author_id"},"name":{"kind":"Name","value":"authorId"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","alias":{"kind":"Name","value":"reply_to"},"name":{"kind":"Name","value":"replyTo"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_at"},"name":{"kind":"Name","value":"resolvedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_by"},"name":{"kind":"Name","value":"resolvedBy"}}]}}]} as unknown as DocumentNode<TrajectoryAnnotateMutation, TrajectoryAnnotateMutationVariables>;
export const TrajectoryAnnotationResolveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryAnnotationResolve"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"annotationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryAnnotationResolve"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"annotationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"annotationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AnnotationFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnnotationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Annotation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"annotation_id"},"name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"author_id"},"name":{"kind":"Name","value":"authorId"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","alias":{"kind":"Name","value":"reply_to"},"name":{"kind":"Name","value":"replyTo"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_at"},"name":{"kind":"Name","value":"resolvedAt"}},{"kind":"Field","alias":{"kind":"Name","value":"resolved_by"},"name":{"kind":"Name","value":"resolvedBy"}}]}}]} as unknown as DocumentNode<TrajectoryAnnotationResolveMutation, TrajectoryAnnotationResolveMutationVariables>;
export const TrajectoryCritiqueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryCritique"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryCritique"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"findings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"record_uuid"},"name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","name":{"kind":"Name","value":"severity"}},{"kind":"Field","name":{"kind":"Name","value":"body"}}]}}]}}]}}]} as unknown as DocumentNode<TrajectoryCritiqueMutation, TrajectoryCritiqueMutationVariables>;
export const TrajectoryForkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryFork"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForkInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryFork"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"forked_from"},"name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}}]}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]} as unknown as DocumentNode<TrajectoryForkMutation, TrajectoryForkMutationVariables>;
export const TrajectorySummaryAppendDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectorySummaryAppend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SummaryRequestInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectorySummaryAppend"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"parentUuid"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"leafUuid"}}]}}]}}]} as unknown as DocumentNode<TrajectorySummaryAppendMutation, TrajectorySummaryAppendMutationVariables>;
export const TrajectorySummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrajectorySummary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectorySummary"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","alias":{"kind":"Name","value":"head_uuid"},"name":{"kind":"Name","value":"headUuid"}},{"kind":"Field","alias":{"kind":"Name","value":"generated_at"},"name":{"kind":"Name","value":"generatedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"stale"}}]}}]}}]} as unknown as DocumentNode<TrajectorySummaryQuery, TrajectorySummaryQueryVariables>;
export const TrajectorySummaryRefreshDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectorySummaryRefresh"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectorySummaryRefresh"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<TrajectorySummaryRefreshMutation, TrajectorySummaryRefreshMutationVariables>;
export const TrajectoryDiscussDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryDiscuss"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DiscussInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryDiscuss"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"answer"}},{"kind":"Field","alias":{"kind":"Name","value":"turn_id"},"name":{"kind":"Name","value":"turnId"}}]}}]}}]} as unknown as DocumentNode<TrajectoryDiscussMutation, TrajectoryDiscussMutationVariables>;
export const TrajectoryDiscussionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrajectoryDiscussions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryDiscussions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"user_id"},"name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"turns"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"turn_id"},"name":{"kind":"Name","value":"turnId"}},{"kind":"Field","name":{"kind":"Name","value":"question"}},{"kind":"Field","name":{"kind":"Name","value":"answer"}},{"kind":"Field","alias":{"kind":"Name","value":"created_at"},"name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TrajectoryDiscussionsQuery, TrajectoryDiscussionsQueryVariables>;
export const TrajectoryFiguresRecordDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrajectoryFiguresRecord"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FigureMapInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryFiguresRecord"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"session_id"},"name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","alias":{"kind":"Name","value":"figure_count"},"name":{"kind":"Name","value":"figureCount"}}]}}]}}]} as unknown as DocumentNode<TrajectoryFiguresRecordMutation, TrajectoryFiguresRecordMutationVariables>;