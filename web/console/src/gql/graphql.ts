/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** An external A2A agent to register, or the whole new form of the caller’s entry of that id. */
export type A2aAgentCreateInput = {
  /** Allow loopback, private, link-local and CGNAT addresses (default false). Metadata addresses and this service itself stay refused. */
  allowPrivate?: boolean | null | undefined;
  /** The key sent to the agent as `Authorization: Bearer <key>` (printable ASCII, at most 1024). Null or empty: none. The stored key’s mask keeps it. */
  apiKey?: string | null | undefined;
  /** Whether our agent may call it (default true). */
  enabled?: boolean | null | undefined;
  /** The entry’s id, chosen by the caller: 1-48 of a-z, 0-9, _ and -, starting with a letter or digit. The agent’s tool is `a2a__<id>`. */
  id: string;
  /** A name for people, 1-100 characters. */
  name: string;
  /** The agent’s base URL (its card is `.well-known/agent-card.json` under it), or its card’s URL. http(s); a private address only with allowPrivate. */
  url: string;
};

/** The last test of an outbound agent: pending (not tested since it was registered or pointed elsewhere), ok or failed. */
export type A2aAgentStatus =
  | 'failed'
  | 'ok'
  | 'pending';

/** Changes to an entry; members left out stay as they are. */
export type A2aAgentUpdateInput = {
  /** Changing it puts the entry back to pending. */
  allowPrivate?: boolean | null | undefined;
  /** A new key; the stored key’s mask, or leaving it out, keeps it; null or empty removes it. */
  apiKey?: string | null | undefined;
  enabled?: boolean | null | undefined;
  /** 1-100 characters. */
  name?: string | null | undefined;
  /** A new base URL; the entry is tested anew (status pending). */
  url?: string | null | undefined;
};

/** allow_once: the pending calls run; allow_session: these and every later one of the conversation; deny: the task is canceled. */
export type A2aApprovalDecision =
  | 'allow_once'
  | 'allow_session'
  | 'deny';

/** Who wrote a message (A2A Role): the caller (ROLE_USER) or the agent (ROLE_AGENT). */
export type A2aRole =
  | 'ROLE_AGENT'
  | 'ROLE_USER';

/** The state of an A2A task (A2A TaskState). */
export type A2aTaskState =
  | 'TASK_STATE_AUTH_REQUIRED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING';

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

export type PasswordSetInput = {
  /** Needed when a password is set already. */
  currentPassword?: string | null | undefined;
  /** 12 to 1,024 characters. */
  newPassword: string;
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

export type ReviewRequestInput = {
  /** YYYY-MM-DD, from yesterday (today somewhere) to a year on. */
  dueOn?: string | null | undefined;
  /** Up to 2,000 characters. */
  note?: string | null | undefined;
  /** A mentor or the owner of the lab the trajectory is shared with (not its author). */
  reviewerId: string | number;
};

/** Where a review stands: requested, in_review and changes_requested are open; approved and withdrawn are done. */
export type ReviewState =
  | 'approved'
  | 'changes_requested'
  | 'in_review'
  | 'requested'
  | 'withdrawn';

/** A reviewer’s verdict. */
export type ReviewVerdict =
  | 'approved'
  | 'changes_requested';

export type ReviewVerdictInput = {
  /** Up to 4,000 characters; required when asking for changes. */
  note?: string | null | undefined;
  verdict: ReviewVerdict;
};

export type Severity =
  | 'error'
  | 'info'
  | 'warning';

export type ShareLinkInput = {
  /** Days until it stops opening, 1-365; none: until revoked. */
  expiresInDays?: number | null | undefined;
  /** Also show its figures, as they are: nothing in an image is masked (default false). */
  includeFigures?: boolean | null | undefined;
  /** Also mask e-mail addresses (default false). */
  maskEmails?: boolean | null | undefined;
};

/** A label for a new personal access token. */
export type TokenCreateInput = {
  /** Days until it stops working, 1-3650; none: it works until revoked. */
  expiresInDays?: number | null | undefined;
  /** 1-100 characters. */
  label: string;
};

export type TopUpInput = {
  credits: number;
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
  /** A password to sign in with (12 to 1,024 characters); none by default. */
  password?: string | null | undefined;
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

export type ConsoleFigureUrlQueryVariables = Exact<{
  id: string | number;
  path: string;
}>;


export type ConsoleFigureUrlQuery = { trajectoryFigureUrl: string };

export type ConsoleMeQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleMeQuery = { me: { id: string, name: string, email: string, isAdmin: boolean } };

export type ConsoleUnreadNoticesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleUnreadNoticesQuery = { notices: { unread: number } };

export type ConsoleSignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type ConsoleSignOutMutation = { authLogout: boolean | null };

export type ConsoleAccountQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAccountQuery = { me: { id: string, name: string, email: string, planCode: PlanCode, planExpiresAt: string | null, effectiveTier: PlanCode, storageUsedBytes: number, storageQuotaBytes: number, hasPassword: boolean } };

export type ConsoleMySessionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleMySessionsQuery = { mySessions: Array<{ id: string, current: boolean, userAgent: string | null, address: string | null, method: string, createdAt: string, lastSeenAt: string }> };

export type ConsoleMyTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleMyTokensQuery = { myTokens: { total: number, items: Array<{ tokenId: string, label: string, createdAt: string, expiresAt: string | null, revokedAt: string | null, lastUsedAt: string | null }> } };

export type ConsoleSetPasswordMutationVariables = Exact<{
  input: PasswordSetInput;
}>;


export type ConsoleSetPasswordMutation = { setPassword: boolean | null };

export type ConsoleRevokeSessionMutationVariables = Exact<{
  sessionId: string | number;
}>;


export type ConsoleRevokeSessionMutation = { revokeSession: boolean | null };

export type ConsoleRevokeOtherSessionsMutationVariables = Exact<{ [key: string]: never; }>;


export type ConsoleRevokeOtherSessionsMutation = { revokeOtherSessions: boolean };

export type ConsoleMyTokenCreateMutationVariables = Exact<{
  input: TokenCreateInput;
}>;


export type ConsoleMyTokenCreateMutation = { myTokenCreate: { tokenId: string, token: string } };

export type ConsoleMyTokenRevokeMutationVariables = Exact<{
  tokenId: string | number;
}>;


export type ConsoleMyTokenRevokeMutation = { myTokenRevoke: boolean };

export type ConsoleAdminStatsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAdminStatsQuery = { adminStats: { generatedAt: string, onlineUsers: number, dau: number, wau: number, mau: number, registrations: { today: number, total: number }, plans: Array<{ planCode: PlanCode, activeUsers: number }>, llm: { last5m: { calls: number, users: number, tokensIn: number, tokensOut: number }, last1h: { calls: number, users: number, tokensIn: number, tokensOut: number } } } };

export type ConsoleAdminUsersQueryVariables = Exact<{
  q?: string | null | undefined;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type ConsoleAdminUsersQuery = { adminUsers: { total: number, offset: number, limit: number, items: Array<{ id: string, name: string, email: string, planCode: PlanCode, isAdmin: boolean, disabled: boolean, lastActiveAt: string | null }> } };

export type ConsoleAdminUserUpdateMutationVariables = Exact<{
  id: string | number;
  input: UserUpdateInput;
}>;


export type ConsoleAdminUserUpdateMutation = { adminUserUpdate: { id: string, disabled: boolean } };

export type ConsoleAdminPasswordLinkMutationVariables = Exact<{
  userId: string | number;
}>;


export type ConsoleAdminPasswordLinkMutation = { passwordLink: { url: string, expiresAt: string, mailed: boolean } };

export type ConsoleAdminUserCreateMutationVariables = Exact<{
  input: UserCreateInput;
}>;


export type ConsoleAdminUserCreateMutation = { adminUserCreate: { id: string, name: string } };

export type ConsoleAdminTokenCreateMutationVariables = Exact<{
  userId: string | number;
  input: TokenCreateInput;
}>;


export type ConsoleAdminTokenCreateMutation = { adminTokenCreate: { token: string } };

export type ConsoleAdminUserTokensQueryVariables = Exact<{
  userId: string | number;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type ConsoleAdminUserTokensQuery = { adminUserTokens: { total: number, items: Array<{ tokenId: string, label: string, createdAt: string, expiresAt: string | null, revokedAt: string | null }> } };

export type ConsoleAdminTokenRevokeMutationVariables = Exact<{
  userId: string | number;
  tokenId: string | number;
}>;


export type ConsoleAdminTokenRevokeMutation = { adminTokenRevoke: boolean };

export type ConsoleAdminLabsQueryVariables = Exact<{
  q?: string | null | undefined;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type ConsoleAdminLabsQuery = { adminLabs: { total: number, items: Array<{ id: string, name: string, status: LabStatus, seatQuota: number, seatsUsed: number, createdAt: string }> } };

export type ConsoleAdminLabUpdateMutationVariables = Exact<{
  id: string | number;
  input: LabAdminUpdateInput;
}>;


export type ConsoleAdminLabUpdateMutation = { adminLabUpdate: { id: string, status: LabStatus, seatQuota: number } };

export type ConsoleAdminTrajectoriesQueryVariables = Exact<{
  q?: string | null | undefined;
}>;


export type ConsoleAdminTrajectoriesQuery = { adminTrajectories: { total: number, items: Array<{ sessionId: string, title: string | null, source: string, count: number, bytes: number, updatedAt: string, owner: { name: string, email: string | null } }> } };

export type ConsoleAdminStorageQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAdminStorageQuery = { adminStorageSummary: { totalBytes: number, users: Array<{ userId: string, email: string, usedBytes: number, quotaBytes: number, sessions: number }>, labs: Array<{ labId: string, name: string, bytes: number, sessions: number }> } };

export type ConsoleAdminSegmentationQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAdminSegmentationQuery = { adminSegmentation: { domain: string, users: number, paid: number, granted: number, byTier: Array<{ tier: string, users: number, paid: number, granted: number }>, byType: Array<{ type: string, users: number, paid: number, granted: number }>, byInstitution: Array<{ name: string, users: number, paid: number, granted: number }> } };

export type ConsoleA2aTaskQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleA2aTaskQuery = { a2aTask: { id: string, contextId: string, caller: { keyLabel: string | null, keyRevokedAt: string | null, openEndpoint: boolean, ownerName: string | null } | null, historyTimes: Array<{ messageId: string, sentAt: string | null }> | null, status: { state: A2aTaskState, timestamp: string, message: { parts: Array<{ text: string | null }> } | null }, history: Array<{ messageId: string, role: A2aRole, metadata: unknown, parts: Array<{ text: string | null, data: unknown, filename: string | null, mediaType: string | null }> }> | null, artifacts: Array<{ artifactId: string, name: string | null, description: string | null, parts: Array<{ text: string | null, filename: string | null, mediaType: string | null }> }> | null } };

export type ConsoleA2aTaskEventsSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type ConsoleA2aTaskEventsSubscription = { a2aTaskEvents: { statusUpdate: { status: { state: A2aTaskState } } | null, artifactUpdate: { artifact: { artifactId: string } } | null } };

export type ConsoleA2aApprovalAnswerMutationVariables = Exact<{
  taskId: string | number;
  decision: A2aApprovalDecision;
}>;


export type ConsoleA2aApprovalAnswerMutation = { a2aApprovalAnswer: { id: string, status: { state: A2aTaskState } } };

export type ConsoleA2aAccessQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleA2aAccessQuery = { a2aViewerCan: { useWebTools: boolean } };

export type ConsoleA2aKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleA2aKeysQuery = { a2aKeys: Array<{ id: string, label: string, createdAt: string, revokedAt: string | null }> };

export type ConsoleA2aKeyCreateMutationVariables = Exact<{
  label: string;
}>;


export type ConsoleA2aKeyCreateMutation = { a2aKeyCreate: { secret: string, key: { id: string, label: string } } };

export type ConsoleA2aKeyRevokeMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleA2aKeyRevokeMutation = { a2aKeyRevoke: { id: string, revokedAt: string | null } };

export type ConsoleA2aTasksQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  state?: A2aTaskState | null | undefined;
}>;


export type ConsoleA2aTasksQuery = { a2aTasks: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, contextId: string, status: { state: A2aTaskState, timestamp: string }, caller: { keyLabel: string | null, keyRevokedAt: string | null, openEndpoint: boolean, ownerName: string | null } | null }> } };

export type ConsoleOutboundAgentsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleOutboundAgentsQuery = { a2aAgents: Array<{ id: string, name: string, url: string, enabled: boolean, status: A2aAgentStatus, error: string | null, checkedAt: string | null }> };

export type ConsoleOutboundAgentAddMutationVariables = Exact<{
  input: A2aAgentCreateInput;
}>;


export type ConsoleOutboundAgentAddMutation = { a2aAgentCreate: { id: string } };

export type ConsoleOutboundAgentUpdateMutationVariables = Exact<{
  id: string | number;
  input: A2aAgentUpdateInput;
}>;


export type ConsoleOutboundAgentUpdateMutation = { a2aAgentUpdate: { id: string, enabled: boolean } };

export type ConsoleOutboundAgentTestMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleOutboundAgentTestMutation = { a2aAgentTest: { ok: boolean, name: string | null, error: string | null } };

export type ConsoleOutboundAgentRemoveMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleOutboundAgentRemoveMutation = { a2aAgentDelete: { id: string } };

export type ConsoleA2aCallerFragment = { keyLabel: string | null, keyRevokedAt: string | null, openEndpoint: boolean, ownerName: string | null };

export type ConsoleAuditEventsQueryVariables = Exact<{
  actor?: string | null | undefined;
  action?: string | null | undefined;
  since?: string | null | undefined;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type ConsoleAuditEventsQuery = { adminAuditEvents: { total: number, items: Array<{ id: string, action: string, createdAt: string, detail: unknown, actor: { userId: string, name: string, email: string | null } | null, subject: { userId: string, name: string, email: string | null } | null, lab: { labId: string, name: string | null } | null }> } };

export type ConsoleComputeQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleComputeQuery = { computeCredits: { balanceCredits: number, reservedCredits: number, tokenLine: { credits: number, tokensIn: number, tokensOut: number }, leases: Array<{ leaseId: number, goal: string | null, state: string, provider: string, createdAt: string, idleExpiresAt: string, bootstrapDeadline: string, releasedAt: string | null, ceilingCredits: number | null, spentCredits: number, machine: { cpus: number, memoryGb: number, gpu: boolean, rateCreditsPerMinute: number }, idleRefreshes: Array<{ at: string, idleExpiresAt: string }> }> }, computePlanCurrent: { planId: number, goal: string, steps: Array<string>, status: string, createdAt: string, estimatedCredits: number, estimatedMinutes: number, spendCeilingCredits: number, tokenCharge: { credits: number }, machine: { cpus: number, memoryGb: number, gpu: boolean, rateCreditsPerMinute: number } } | null };

export type ConsoleComputePastQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ConsoleComputePastQuery = { computeSessionsPast: { totalCount: number, pageInfo: { endCursor: string | null }, nodes: Array<{ leaseId: number, goal: string | null, state: string, provider: string, createdAt: string, bootstrapDeadline: string, releasedAt: string | null, endReason: string | null, ceilingCredits: number | null, spentCredits: number, machine: { cpus: number, memoryGb: number, gpu: boolean, rateCreditsPerMinute: number }, idleRefreshes: Array<{ at: string, idleExpiresAt: string }> }> } };

export type ConsoleLeaseChangedSubscriptionVariables = Exact<{
  leaseId: number;
}>;


export type ConsoleLeaseChangedSubscription = { computeLeaseChanged: { leaseId: number, state: string, spentCredits: number, ceilingCredits: number | null, idleExpiresAt: string, at: string } };

export type ConsolePlanApproveMutationVariables = Exact<{
  planId: number;
}>;


export type ConsolePlanApproveMutation = { computePlanApprove: { leaseId: number, provider: string, claimToken: string | null, createdAt: string, bootstrapDeadline: string } };

export type ConsolePlanDeclineMutationVariables = Exact<{
  planId: number;
}>;


export type ConsolePlanDeclineMutation = { computePlanDecline: { planId: number, status: string } };

export type ConsoleLeaseReleaseMutationVariables = Exact<{
  leaseId: number;
}>;


export type ConsoleLeaseReleaseMutation = { computeSessionRelease: { leaseId: number, state: string } };

export type ConsoleLeaseTopUpMutationVariables = Exact<{
  leaseId: number;
  input: TopUpInput;
}>;


export type ConsoleLeaseTopUpMutation = { computeSessionTopUp: { leaseId: number, ceilingCredits: number | null } };

export type ConsoleLabUsageQueryVariables = Exact<{
  labId: string | number;
  days: number;
}>;


export type ConsoleLabUsageQuery = { labUsage: { totals: { activeMembers: number, sessions: number, tokensIn: number, tokensOut: number }, members: Array<{ memberUserId: string, name: string, status: MemberStatus, sessions: number, tokensIn: number, tokensOut: number }>, daily: Array<{ day: string, sessions: number, tokensIn: number, tokensOut: number }> } };

export type ConsoleLabQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleLabQuery = { lab: { id: string, name: string, role: MemberRole | null, status: LabStatus, seatQuota: number, seatsUsed: number, invitationCode: string | null, codeExpiresAt: string | null, viewerCan: { rotateCode: boolean, manageMembers: boolean, viewUsage: boolean }, members: Array<{ memberUserId: string, name: string, email: string, role: MemberRole, status: MemberStatus, requestedAt: string, joinedAt: string | null }> | null, reviewSummary: { requested: number, inReview: number, changesRequested: number, overdue: number, decidedLast90Days: number, medianTurnaroundHours: number | null, open: Array<{ reviewId: string, sessionId: string, trajectoryTitle: string, state: ReviewState, dueOn: string | null, overdue: boolean, reviewer: { name: string }, author: { name: string } }> } | null }, labBoard: { items: Array<{ sessionId: string, title: string | null, ownerName: string, state: string, count: number, lastActivityAt: string, openAnnotations: number, review: { state: ReviewState } | null }> } };

export type ConsoleLabMemberEventsSubscriptionVariables = Exact<{
  labId: string | number;
}>;


export type ConsoleLabMemberEventsSubscription = { labMemberEvents: { memberUserId: string, status: MemberStatus } };

export type ConsoleLabMemberUpdateMutationVariables = Exact<{
  labId: string | number;
  memberUserId: string | number;
  input: LabMemberUpdateInput;
}>;


export type ConsoleLabMemberUpdateMutation = { labMemberUpdate: { memberUserId: string, role: MemberRole, status: MemberStatus } };

export type ConsoleLabRotateCodeMutationVariables = Exact<{
  labId: string | number;
}>;


export type ConsoleLabRotateCodeMutation = { labRotateCode: { id: string, invitationCode: string | null, codeExpiresAt: string | null } };

export type ConsoleLabsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleLabsQuery = { labs: Array<{ id: string, name: string, role: MemberRole | null, status: LabStatus, seatQuota: number, seatsUsed: number }>, labJoinRequests: Array<{ labName: string, requestedAt: string }> };

export type ConsoleLabCreateMutationVariables = Exact<{
  input: LabCreateInput;
}>;


export type ConsoleLabCreateMutation = { labCreate: { id: string } };

export type ConsoleLabJoinMutationVariables = Exact<{
  input: LabJoinInput;
}>;


export type ConsoleLabJoinMutation = { labJoin: { labId: string, status: MemberStatus } };

export type ConsoleReleasesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleReleasesQuery = { me: { isAdmin: boolean }, desktop: { product: string, version: string, pubDate: string, notes: string | null, files: Array<{ filename: string, platform: string | null, arch: string | null, size: number, sha256: string, url: string }> } | null, core: { product: string, version: string, pubDate: string, notes: string | null, files: Array<{ filename: string, platform: string | null, arch: string | null, size: number, sha256: string, url: string }> } | null };

export type ConsoleReleaseFragment = { product: string, version: string, pubDate: string, notes: string | null, files: Array<{ filename: string, platform: string | null, arch: string | null, size: number, sha256: string, url: string }> };

export type ConsoleReleaseCountsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleReleaseCountsQuery = { desktopFiles: Array<{ version: string, filename: string, size: number, sha256: string, downloads: number, createdAt: string }>, coreFiles: Array<{ version: string, filename: string, size: number, sha256: string, downloads: number, createdAt: string }> };

export type ConsoleReleaseCountsFragment = { version: string, filename: string, size: number, sha256: string, downloads: number, createdAt: string };

export type ConsoleReviewsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleReviewsQuery = { reviewQueue: Array<{ reviewId: string, sessionId: string, labId: string, trajectoryTitle: string, state: ReviewState, dueOn: string | null, overdue: boolean, note: string | null, createdAt: string, decidedAt: string | null, updatedSinceVerdict: boolean, author: { name: string }, requestedBy: { name: string }, reviewer: { name: string }, viewerCan: { start: boolean, decide: boolean } }>, reviewsRequested: Array<{ reviewId: string, sessionId: string, labId: string, trajectoryTitle: string, state: ReviewState, dueOn: string | null, overdue: boolean, note: string | null, createdAt: string, decidedAt: string | null, updatedSinceVerdict: boolean, author: { name: string }, requestedBy: { name: string }, reviewer: { name: string }, viewerCan: { start: boolean, decide: boolean } }>, reviewsOfMyWork: Array<{ reviewId: string, sessionId: string, labId: string, trajectoryTitle: string, state: ReviewState, dueOn: string | null, overdue: boolean, note: string | null, createdAt: string, decidedAt: string | null, updatedSinceVerdict: boolean, author: { name: string }, requestedBy: { name: string }, reviewer: { name: string }, viewerCan: { start: boolean, decide: boolean } }>, labs: Array<{ id: string, name: string }>, notices: { unread: number, items: Array<{ noticeId: string, text: string, path: string, createdAt: string, readAt: string | null }> } };

export type ConsoleReviewRowFragment = { reviewId: string, sessionId: string, labId: string, trajectoryTitle: string, state: ReviewState, dueOn: string | null, overdue: boolean, note: string | null, createdAt: string, decidedAt: string | null, updatedSinceVerdict: boolean, author: { name: string }, requestedBy: { name: string }, reviewer: { name: string }, viewerCan: { start: boolean, decide: boolean } };

export type ConsoleReviewStartMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleReviewStartMutation = { trajectoryReviewStart: { reviewId: string, state: ReviewState } };

export type ConsoleNoticesMarkReadMutationVariables = Exact<{
  ids?: Array<string | number> | string | number | null | undefined;
}>;


export type ConsoleNoticesMarkReadMutation = { noticesMarkRead: number };

export type ConsoleTrajectoryReviewsQueryVariables = Exact<{
  id: string | number;
  labId: string | number;
  withMembers: boolean;
}>;


export type ConsoleTrajectoryReviewsQuery = { trajectoryMeta: { sessionId: string, reviews: Array<{ reviewId: string, labId: string, state: ReviewState, note: string | null, dueOn: string | null, overdue: boolean, verdictNote: string | null, createdAt: string, startedAt: string | null, decidedAt: string | null, requestedBy: { name: string }, reviewer: { userId: string, name: string }, viewerCan: { start: boolean, decide: boolean, rerequest: boolean, withdraw: boolean } }> }, lab?: { id: string, members: Array<{ memberUserId: string, name: string, role: MemberRole, status: MemberStatus }> | null } };

export type ConsoleReviewRerequestMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleReviewRerequestMutation = { trajectoryReviewRerequest: { reviewId: string, state: ReviewState } };

export type ConsoleReviewRequestMutationVariables = Exact<{
  id: string | number;
  input: ReviewRequestInput;
}>;


export type ConsoleReviewRequestMutation = { trajectoryReviewRequest: { reviewId: string } };

export type ConsoleReviewDecideMutationVariables = Exact<{
  id: string | number;
  input: ReviewVerdictInput;
}>;


export type ConsoleReviewDecideMutation = { trajectoryReviewDecide: { reviewId: string, state: ReviewState } };

export type ConsoleReviewWithdrawMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleReviewWithdrawMutation = { trajectoryReviewWithdraw: { reviewId: string, state: ReviewState } };

export type ConsoleSharedQueryVariables = Exact<{
  token: string;
}>;


export type ConsoleSharedQuery = { sharedTrajectory: { title: string, source: string, recordCount: number, createdAt: string, updatedAt: string, expiresAt: string | null, maskEmails: boolean, includeFigures: boolean } };

export type ConsoleSharedFactsFragment = { title: string, source: string, recordCount: number, createdAt: string, updatedAt: string, expiresAt: string | null, maskEmails: boolean, includeFigures: boolean };

export type ConsoleSharedRecordsQueryVariables = Exact<{
  token: string;
  after?: number | null | undefined;
  first?: number | null | undefined;
}>;


export type ConsoleSharedRecordsQuery = { sharedTrajectoryRecords: { hasMore: boolean, items: Array<{ seq: number, text: string, masked: number }> } };

export type ConsoleSharedPageFragment = { hasMore: boolean, items: Array<{ seq: number, text: string, masked: number }> };

export type ConsoleSharedFigureUrlQueryVariables = Exact<{
  token: string;
  path: string;
}>;


export type ConsoleSharedFigureUrlQuery = { sharedTrajectoryFigureUrl: string };

export type ConsoleSharedPreviewQueryVariables = Exact<{
  id: string | number;
  maskEmails?: boolean | null | undefined;
  includeFigures?: boolean | null | undefined;
}>;


export type ConsoleSharedPreviewQuery = { sharedTrajectoryPreview: { title: string, source: string, recordCount: number, createdAt: string, updatedAt: string, expiresAt: string | null, maskEmails: boolean, includeFigures: boolean } };

export type ConsoleSharedPreviewRecordsQueryVariables = Exact<{
  id: string | number;
  maskEmails?: boolean | null | undefined;
  after?: number | null | undefined;
  first?: number | null | undefined;
}>;


export type ConsoleSharedPreviewRecordsQuery = { sharedTrajectoryPreviewRecords: { hasMore: boolean, items: Array<{ seq: number, text: string, masked: number }> } };

export type ConsoleTrajectoriesQueryVariables = Exact<{
  labId?: string | number | null | undefined;
  owner?: string | number | null | undefined;
  source?: string | null | undefined;
  sharedOnly?: boolean | null | undefined;
  includeArchived?: boolean | null | undefined;
}>;


export type ConsoleTrajectoriesQuery = { trajectories: { total: number, items: Array<{ sessionId: string, title: string | null, source: string, visibility: Visibility, count: number, openAnnotations: number, updatedAt: string, archivedAt: string | null, owner: { userId: string, name: string } }> }, me: { id: string }, labs: Array<{ id: string, name: string, members: Array<{ memberUserId: string, name: string, status: MemberStatus }> | null }> };

export type ConsoleTrajectorySummaryQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleTrajectorySummaryQuery = { trajectorySummary: { enabled: boolean, reason: string | null, status: string | null, stale: boolean | null, error: string | null, summary: { text: string, generatedAt: string } | null } };

export type ConsoleSummaryRefreshMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleSummaryRefreshMutation = { trajectorySummaryRefresh: { status: string } };

export type ConsoleCritiqueMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleCritiqueMutation = { trajectoryCritique: { findings: Array<{ recordUuid: string, recordSeq: number | null, severity: Severity, body: string }> } };

export type ConsoleDiscussSubscriptionVariables = Exact<{
  id: string | number;
  input: DiscussInput;
}>;


export type ConsoleDiscussSubscription = { trajectoryDiscussStream: { delta: string | null, done: { answer: string } | null } };

export type ConsoleCompareParentQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleCompareParentQuery = { trajectoryMeta: { sessionId: string, title: string | null, forkedFrom: { parent: { sessionId: string, title: string | null } | null } | null } };

export type CompareSideFragment = { sessionId: string, title: string | null, records: number, toolCalls: number, errors: number, tokens: { input: number, output: number } };

export type ConsoleTrajectoryDiffQueryVariables = Exact<{
  base: string | number;
  other: string | number;
  from?: number | null | undefined;
  first?: number | null | undefined;
}>;


export type ConsoleTrajectoryDiffQuery = { trajectoryDiff: { total: number, from: number, hasMore: boolean, counts: { same: number, changed: number, removed: number, added: number }, divergence: { index: number, baseSeq: number | null, otherSeq: number | null } | null, base: { sessionId: string, title: string | null, records: number, toolCalls: number, errors: number, tokens: { input: number, output: number } }, other: { sessionId: string, title: string | null, records: number, toolCalls: number, errors: number, tokens: { input: number, output: number } }, rows: Array<{ index: number, kind: string, baseSeq: number | null, otherSeq: number | null, baseText: string | null, otherText: string | null, segments: Array<{ kind: string, text: string }> | null }> } };

export type ConsoleCompareCandidatesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCompareCandidatesQuery = { mine: { items: Array<{ sessionId: string, title: string | null, count: number, updatedAt: string, owner: { name: string } }> }, shared: { items: Array<{ sessionId: string, title: string | null, count: number, updatedAt: string, owner: { name: string } }> } };

export type CompareCandidatesFragment = { items: Array<{ sessionId: string, title: string | null, count: number, updatedAt: string, owner: { name: string } }> };

export type ConsoleTrajectorySearchQueryVariables = Exact<{
  q: string;
  offset?: number | null | undefined;
}>;


export type ConsoleTrajectorySearchQuery = { trajectorySearch: { total: number, offset: number, items: Array<{ sessionId: string, title: string | null, ownerName: string, seq: number | null, uuid: string | null, snippet: string }> } };

export type ConsoleShareLinksQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleShareLinksQuery = { trajectoryShareLinks: Array<{ linkId: string, open: boolean, views: number, lastViewedAt: string | null, expiresAt: string | null, revokedAt: string | null, maskEmails: boolean, includeFigures: boolean, createdAt: string, createdBy: { name: string } }> };

export type ConsoleShareLinkCreateMutationVariables = Exact<{
  id: string | number;
  input?: ShareLinkInput | null | undefined;
}>;


export type ConsoleShareLinkCreateMutation = { trajectoryShareLinkCreate: { url: string, link: { linkId: string } } };

export type ConsoleShareLinkRevokeMutationVariables = Exact<{
  linkId: string | number;
}>;


export type ConsoleShareLinkRevokeMutation = { trajectoryShareLinkRevoke: { linkId: string, open: boolean, revokedAt: string | null } };

export type ConsoleTrajectoryQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleTrajectoryQuery = { me: { id: string }, trajectoryMeta: { sessionId: string, title: string | null, labId: string | null, visibility: Visibility, count: number, source: string, createdAt: string, updatedAt: string, openAnnotations: number, owner: { userId: string, name: string }, viewerCan: { annotate: boolean, resolve: boolean, fork: boolean, changeVisibility: boolean, refreshSummary: boolean, share: boolean, requestReview: boolean }, tokens: { input: number, output: number }, forkedFrom: { sessionId: string, seq: number | null, parent: { sessionId: string, title: string | null, owner: { name: string } } | null } | null }, trajectoryAnnotations: { items: Array<{ annotationId: string, body: string, createdAt: string, recordUuid: string, replyTo: string | null, status: AnnotationStatus, resolvedAt: string | null, author: { userId: string, name: string } }> }, labs: Array<{ id: string, name: string }> };

export type ConsoleTrajectoryRecordsQueryVariables = Exact<{
  id: string | number;
  after?: number | null | undefined;
  first?: number | null | undefined;
}>;


export type ConsoleTrajectoryRecordsQuery = { trajectoryRecords: { hasMore: boolean, items: Array<{ seq: number, text: string }> } };

export type ConsoleTrajectoryFindQueryVariables = Exact<{
  id: string | number;
  text: string;
}>;


export type ConsoleTrajectoryFindQuery = { trajectoryFind: { seqs: Array<number>, total: number } };

export type ConsoleRecordsAppendedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type ConsoleRecordsAppendedSubscription = { trajectoryRecordsAppended: { count: number, records: Array<string> } };

export type ConsoleAnnotateMutationVariables = Exact<{
  id: string | number;
  input: AnnotationInput;
}>;


export type ConsoleAnnotateMutation = { trajectoryAnnotate: { annotationId: string } };

export type ConsoleAnnotationResolveMutationVariables = Exact<{
  id: string | number;
  annotationId: string | number;
}>;


export type ConsoleAnnotationResolveMutation = { trajectoryAnnotationResolve: { annotationId: string, status: AnnotationStatus } };

export type ConsoleForkMutationVariables = Exact<{
  id: string | number;
  input: ForkInput;
}>;


export type ConsoleForkMutation = { trajectoryFork: { sessionId: string } };

export type ConsoleVisibilityMutationVariables = Exact<{
  id: string | number;
  input: VisibilityInput;
}>;


export type ConsoleVisibilityMutation = { trajectoryVisibilitySet: { sessionId: string, visibility: Visibility, labId: string | null } };

export const ConsoleA2aCallerFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleA2aCaller"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"A2aTaskCaller"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyLabel"}},{"kind":"Field","name":{"kind":"Name","value":"keyRevokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"openEndpoint"}},{"kind":"Field","name":{"kind":"Name","value":"ownerName"}}]}}]} as unknown as DocumentNode<ConsoleA2aCallerFragment, unknown>;
export const ConsoleReleaseFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRelease"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseManifestNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"product"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"pubDate"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","name":{"kind":"Name","value":"files"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"arch"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]} as unknown as DocumentNode<ConsoleReleaseFragment, unknown>;
export const ConsoleReleaseCountsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleReleaseCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseFileStatsNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"downloads"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<ConsoleReleaseCountsFragment, unknown>;
export const ConsoleReviewRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleReviewRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryReview"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"trajectoryTitle"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"dueOn"}},{"kind":"Field","name":{"kind":"Name","value":"overdue"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"decidedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedSinceVerdict"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reviewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"viewerCan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"decide"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewRowFragment, unknown>;
export const ConsoleSharedFactsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleSharedFacts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SharedTrajectory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"recordCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"maskEmails"}},{"kind":"Field","name":{"kind":"Name","value":"includeFigures"}}]}}]} as unknown as DocumentNode<ConsoleSharedFactsFragment, unknown>;
export const ConsoleSharedPageFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleSharedPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SharedRecordPage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"masked"}}]}}]}}]} as unknown as DocumentNode<ConsoleSharedPageFragment, unknown>;
export const CompareSideFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CompareSide"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DiffSide"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"records"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"errors"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}}]}}]}}]} as unknown as DocumentNode<CompareSideFragment, unknown>;
export const CompareCandidatesFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CompareCandidates"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryPage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<CompareCandidatesFragment, unknown>;
export const ConsoleFigureUrlDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleFigureUrl"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"path"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryFigureUrl"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"path"},"value":{"kind":"Variable","name":{"kind":"Name","value":"path"}}}]}]}}]} as unknown as DocumentNode<ConsoleFigureUrlQuery, ConsoleFigureUrlQueryVariables>;
export const ConsoleMeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleMe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isAdmin"}}]}}]}}]} as unknown as DocumentNode<ConsoleMeQuery, ConsoleMeQueryVariables>;
export const ConsoleUnreadNoticesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleUnreadNotices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"notices"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unread"}}]}}]}}]} as unknown as DocumentNode<ConsoleUnreadNoticesQuery, ConsoleUnreadNoticesQueryVariables>;
export const ConsoleSignOutDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSignOut"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authLogout"}}]}}]} as unknown as DocumentNode<ConsoleSignOutMutation, ConsoleSignOutMutationVariables>;
export const ConsoleAccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAccount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"planCode"}},{"kind":"Field","name":{"kind":"Name","value":"planExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"effectiveTier"}},{"kind":"Field","name":{"kind":"Name","value":"storageUsedBytes"}},{"kind":"Field","name":{"kind":"Name","value":"storageQuotaBytes"}},{"kind":"Field","name":{"kind":"Name","value":"hasPassword"}}]}}]}}]} as unknown as DocumentNode<ConsoleAccountQuery, ConsoleAccountQueryVariables>;
export const ConsoleMySessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleMySessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mySessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"userAgent"}},{"kind":"Field","name":{"kind":"Name","value":"address"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSeenAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleMySessionsQuery, ConsoleMySessionsQueryVariables>;
export const ConsoleMyTokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleMyTokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myTokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleMyTokensQuery, ConsoleMyTokensQueryVariables>;
export const ConsoleSetPasswordDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSetPassword"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PasswordSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setPassword"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}]}]}}]} as unknown as DocumentNode<ConsoleSetPasswordMutation, ConsoleSetPasswordMutationVariables>;
export const ConsoleRevokeSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRevokeSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}]}]}}]} as unknown as DocumentNode<ConsoleRevokeSessionMutation, ConsoleRevokeSessionMutationVariables>;
export const ConsoleRevokeOtherSessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRevokeOtherSessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeOtherSessions"}}]}}]} as unknown as DocumentNode<ConsoleRevokeOtherSessionsMutation, ConsoleRevokeOtherSessionsMutationVariables>;
export const ConsoleMyTokenCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleMyTokenCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TokenCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myTokenCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<ConsoleMyTokenCreateMutation, ConsoleMyTokenCreateMutationVariables>;
export const ConsoleMyTokenRevokeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleMyTokenRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myTokenRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"tokenId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}}}]}]}}]} as unknown as DocumentNode<ConsoleMyTokenRevokeMutation, ConsoleMyTokenRevokeMutationVariables>;
export const ConsoleAdminStatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminStats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminStats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"onlineUsers"}},{"kind":"Field","name":{"kind":"Name","value":"dau"}},{"kind":"Field","name":{"kind":"Name","value":"wau"}},{"kind":"Field","name":{"kind":"Name","value":"mau"}},{"kind":"Field","name":{"kind":"Name","value":"registrations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"today"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"Field","name":{"kind":"Name","value":"plans"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"planCode"}},{"kind":"Field","name":{"kind":"Name","value":"activeUsers"}}]}},{"kind":"Field","name":{"kind":"Name","value":"llm"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"last5m"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"calls"}},{"kind":"Field","name":{"kind":"Name","value":"users"}},{"kind":"Field","name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokensOut"}}]}},{"kind":"Field","name":{"kind":"Name","value":"last1h"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"calls"}},{"kind":"Field","name":{"kind":"Name","value":"users"}},{"kind":"Field","name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokensOut"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminStatsQuery, ConsoleAdminStatsQueryVariables>;
export const ConsoleAdminUsersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminUsers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUsers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"planCode"}},{"kind":"Field","name":{"kind":"Name","value":"isAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}},{"kind":"Field","name":{"kind":"Name","value":"lastActiveAt"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminUsersQuery, ConsoleAdminUsersQueryVariables>;
export const ConsoleAdminUserUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAdminUserUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUserUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"disabled"}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminUserUpdateMutation, ConsoleAdminUserUpdateMutationVariables>;
export const ConsoleAdminPasswordLinkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAdminPasswordLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"passwordLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"mailed"}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminPasswordLinkMutation, ConsoleAdminPasswordLinkMutationVariables>;
export const ConsoleAdminUserCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAdminUserCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUserCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminUserCreateMutation, ConsoleAdminUserCreateMutationVariables>;
export const ConsoleAdminTokenCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAdminTokenCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TokenCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminTokenCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminTokenCreateMutation, ConsoleAdminTokenCreateMutationVariables>;
export const ConsoleAdminUserTokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminUserTokens"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminUserTokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminUserTokensQuery, ConsoleAdminUserTokensQueryVariables>;
export const ConsoleAdminTokenRevokeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAdminTokenRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminTokenRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"tokenId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}}}]}]}}]} as unknown as DocumentNode<ConsoleAdminTokenRevokeMutation, ConsoleAdminTokenRevokeMutationVariables>;
export const ConsoleAdminLabsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminLabs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminLabs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminLabsQuery, ConsoleAdminLabsQueryVariables>;
export const ConsoleAdminLabUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAdminLabUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabAdminUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminLabUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seatQuota"}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminLabUpdateMutation, ConsoleAdminLabUpdateMutationVariables>;
export const ConsoleAdminTrajectoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminTrajectories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminTrajectories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminTrajectoriesQuery, ConsoleAdminTrajectoriesQueryVariables>;
export const ConsoleAdminStorageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminStorage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminStorageSummary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalBytes"}},{"kind":"Field","name":{"kind":"Name","value":"users"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"usedBytes"}},{"kind":"Field","name":{"kind":"Name","value":"quotaBytes"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminStorageQuery, ConsoleAdminStorageQueryVariables>;
export const ConsoleAdminSegmentationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAdminSegmentation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminSegmentation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"users"}},{"kind":"Field","name":{"kind":"Name","value":"paid"}},{"kind":"Field","name":{"kind":"Name","value":"granted"}},{"kind":"Field","name":{"kind":"Name","value":"byTier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tier"}},{"kind":"Field","name":{"kind":"Name","value":"users"}},{"kind":"Field","name":{"kind":"Name","value":"paid"}},{"kind":"Field","name":{"kind":"Name","value":"granted"}}]}},{"kind":"Field","name":{"kind":"Name","value":"byType"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"users"}},{"kind":"Field","name":{"kind":"Name","value":"paid"}},{"kind":"Field","name":{"kind":"Name","value":"granted"}}]}},{"kind":"Field","name":{"kind":"Name","value":"byInstitution"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"users"}},{"kind":"Field","name":{"kind":"Name","value":"paid"}},{"kind":"Field","name":{"kind":"Name","value":"granted"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAdminSegmentationQuery, ConsoleAdminSegmentationQueryVariables>;
export const ConsoleA2aTaskDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleA2aTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"historyLength"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"contextId"}},{"kind":"Field","name":{"kind":"Name","value":"caller"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleA2aCaller"}}]}},{"kind":"Field","name":{"kind":"Name","value":"historyTimes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"sentAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}},{"kind":"Field","name":{"kind":"Name","value":"message"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"artifacts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artifactId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"parts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleA2aCaller"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"A2aTaskCaller"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyLabel"}},{"kind":"Field","name":{"kind":"Name","value":"keyRevokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"openEndpoint"}},{"kind":"Field","name":{"kind":"Name","value":"ownerName"}}]}}]} as unknown as DocumentNode<ConsoleA2aTaskQuery, ConsoleA2aTaskQueryVariables>;
export const ConsoleA2aTaskEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleA2aTaskEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aTaskEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"taskId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"refuseTerminal"},"value":{"kind":"BooleanValue","value":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"statusUpdate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"artifactUpdate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artifact"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artifactId"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleA2aTaskEventsSubscription, ConsoleA2aTaskEventsSubscriptionVariables>;
export const ConsoleA2aApprovalAnswerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleA2aApprovalAnswer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"taskId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"decision"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"A2aApprovalDecision"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aApprovalAnswer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"taskId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"taskId"}}},{"kind":"Argument","name":{"kind":"Name","value":"decision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"decision"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleA2aApprovalAnswerMutation, ConsoleA2aApprovalAnswerMutationVariables>;
export const ConsoleA2aAccessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleA2aAccess"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aViewerCan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"useWebTools"}}]}}]}}]} as unknown as DocumentNode<ConsoleA2aAccessQuery, ConsoleA2aAccessQueryVariables>;
export const ConsoleA2aKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleA2aKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleA2aKeysQuery, ConsoleA2aKeysQueryVariables>;
export const ConsoleA2aKeyCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleA2aKeyCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"label"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aKeyCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"label"},"value":{"kind":"Variable","name":{"kind":"Name","value":"label"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"key"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleA2aKeyCreateMutation, ConsoleA2aKeyCreateMutationVariables>;
export const ConsoleA2aKeyRevokeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleA2aKeyRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aKeyRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleA2aKeyRevokeMutation, ConsoleA2aKeyRevokeMutationVariables>;
export const ConsoleA2aTasksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleA2aTasks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"A2aTaskState"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aTasks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"contextId"}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}}]}},{"kind":"Field","name":{"kind":"Name","value":"caller"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleA2aCaller"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleA2aCaller"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"A2aTaskCaller"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyLabel"}},{"kind":"Field","name":{"kind":"Name","value":"keyRevokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"openEndpoint"}},{"kind":"Field","name":{"kind":"Name","value":"ownerName"}}]}}]} as unknown as DocumentNode<ConsoleA2aTasksQuery, ConsoleA2aTasksQueryVariables>;
export const ConsoleOutboundAgentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleOutboundAgents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aAgents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"checkedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleOutboundAgentsQuery, ConsoleOutboundAgentsQueryVariables>;
export const ConsoleOutboundAgentAddDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleOutboundAgentAdd"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"A2aAgentCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aAgentCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ConsoleOutboundAgentAddMutation, ConsoleOutboundAgentAddMutationVariables>;
export const ConsoleOutboundAgentUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleOutboundAgentUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"A2aAgentUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aAgentUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}}]} as unknown as DocumentNode<ConsoleOutboundAgentUpdateMutation, ConsoleOutboundAgentUpdateMutationVariables>;
export const ConsoleOutboundAgentTestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleOutboundAgentTest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aAgentTest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<ConsoleOutboundAgentTestMutation, ConsoleOutboundAgentTestMutationVariables>;
export const ConsoleOutboundAgentRemoveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleOutboundAgentRemove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a2aAgentDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ConsoleOutboundAgentRemoveMutation, ConsoleOutboundAgentRemoveMutationVariables>;
export const ConsoleAuditEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAuditEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"actor"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"action"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTimeISO"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminAuditEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"actor"},"value":{"kind":"Variable","name":{"kind":"Name","value":"actor"}}},{"kind":"Argument","name":{"kind":"Name","value":"action"},"value":{"kind":"Variable","name":{"kind":"Name","value":"action"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"actor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","name":{"kind":"Name","value":"subject"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lab"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"detail"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAuditEventsQuery, ConsoleAuditEventsQueryVariables>;
export const ConsoleComputeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCompute"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computeCredits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"balanceCredits"}},{"kind":"Field","name":{"kind":"Name","value":"reservedCredits"}},{"kind":"Field","name":{"kind":"Name","value":"tokenLine"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"credits"}},{"kind":"Field","name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokensOut"}}]}},{"kind":"Field","name":{"kind":"Name","value":"leases"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaseId"}},{"kind":"Field","name":{"kind":"Name","value":"goal"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"idleExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"bootstrapDeadline"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ceilingCredits"}},{"kind":"Field","name":{"kind":"Name","value":"spentCredits"}},{"kind":"Field","name":{"kind":"Name","value":"machine"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpus"}},{"kind":"Field","name":{"kind":"Name","value":"memoryGb"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"rateCreditsPerMinute"}}]}},{"kind":"Field","name":{"kind":"Name","value":"idleRefreshes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"idleExpiresAt"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"computePlanCurrent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"planId"}},{"kind":"Field","name":{"kind":"Name","value":"goal"}},{"kind":"Field","name":{"kind":"Name","value":"steps"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"estimatedCredits"}},{"kind":"Field","name":{"kind":"Name","value":"estimatedMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"spendCeilingCredits"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCharge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"machine"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpus"}},{"kind":"Field","name":{"kind":"Name","value":"memoryGb"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"rateCreditsPerMinute"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleComputeQuery, ConsoleComputeQueryVariables>;
export const ConsoleComputePastDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleComputePast"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computeSessionsPast"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaseId"}},{"kind":"Field","name":{"kind":"Name","value":"goal"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"bootstrapDeadline"}},{"kind":"Field","name":{"kind":"Name","value":"releasedAt"}},{"kind":"Field","name":{"kind":"Name","value":"endReason"}},{"kind":"Field","name":{"kind":"Name","value":"ceilingCredits"}},{"kind":"Field","name":{"kind":"Name","value":"spentCredits"}},{"kind":"Field","name":{"kind":"Name","value":"machine"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpus"}},{"kind":"Field","name":{"kind":"Name","value":"memoryGb"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"rateCreditsPerMinute"}}]}},{"kind":"Field","name":{"kind":"Name","value":"idleRefreshes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"idleExpiresAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleComputePastQuery, ConsoleComputePastQueryVariables>;
export const ConsoleLeaseChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleLeaseChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"leaseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computeLeaseChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"leaseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"leaseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaseId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"spentCredits"}},{"kind":"Field","name":{"kind":"Name","value":"ceilingCredits"}},{"kind":"Field","name":{"kind":"Name","value":"idleExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<ConsoleLeaseChangedSubscription, ConsoleLeaseChangedSubscriptionVariables>;
export const ConsolePlanApproveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsolePlanApprove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"planId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computePlanApprove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"planId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"planId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaseId"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"claimToken"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"bootstrapDeadline"}}]}}]}}]} as unknown as DocumentNode<ConsolePlanApproveMutation, ConsolePlanApproveMutationVariables>;
export const ConsolePlanDeclineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsolePlanDecline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"planId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computePlanDecline"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"planId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"planId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"planId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsolePlanDeclineMutation, ConsolePlanDeclineMutationVariables>;
export const ConsoleLeaseReleaseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLeaseRelease"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"leaseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computeSessionRelease"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"leaseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"leaseId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaseId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ConsoleLeaseReleaseMutation, ConsoleLeaseReleaseMutationVariables>;
export const ConsoleLeaseTopUpDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLeaseTopUp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"leaseId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TopUpInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"computeSessionTopUp"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"leaseId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"leaseId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"leaseId"}},{"kind":"Field","name":{"kind":"Name","value":"ceilingCredits"}}]}}]}}]} as unknown as DocumentNode<ConsoleLeaseTopUpMutation, ConsoleLeaseTopUpMutationVariables>;
export const ConsoleLabUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleLabUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"days"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labUsage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"activeMembers"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokensOut"}}]}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokensOut"}}]}},{"kind":"Field","name":{"kind":"Name","value":"daily"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"days"},"value":{"kind":"Variable","name":{"kind":"Name","value":"days"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"tokensIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokensOut"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleLabUsageQuery, ConsoleLabUsageQueryVariables>;
export const ConsoleLabDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleLab"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lab"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","name":{"kind":"Name","value":"codeExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"viewerCan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateCode"}},{"kind":"Field","name":{"kind":"Name","value":"manageMembers"}},{"kind":"Field","name":{"kind":"Name","value":"viewUsage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"joinedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reviewSummary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requested"}},{"kind":"Field","name":{"kind":"Name","value":"inReview"}},{"kind":"Field","name":{"kind":"Name","value":"changesRequested"}},{"kind":"Field","name":{"kind":"Name","value":"overdue"}},{"kind":"Field","name":{"kind":"Name","value":"decidedLast90Days"}},{"kind":"Field","name":{"kind":"Name","value":"medianTurnaroundHours"}},{"kind":"Field","name":{"kind":"Name","value":"open"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"trajectoryTitle"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"dueOn"}},{"kind":"Field","name":{"kind":"Name","value":"overdue"}},{"kind":"Field","name":{"kind":"Name","value":"reviewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"labBoard"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"ownerName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"review"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleLabQuery, ConsoleLabQueryVariables>;
export const ConsoleLabMemberEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleLabMemberEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labMemberEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabMemberEventsSubscription, ConsoleLabMemberEventsSubscriptionVariables>;
export const ConsoleLabMemberUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabMemberUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"memberUserId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labMemberUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"memberUserId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"memberUserId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabMemberUpdateMutation, ConsoleLabMemberUpdateMutationVariables>;
export const ConsoleLabRotateCodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabRotateCode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labRotateCode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","name":{"kind":"Name","value":"codeExpiresAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabRotateCodeMutation, ConsoleLabRotateCodeMutationVariables>;
export const ConsoleLabsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleLabs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","name":{"kind":"Name","value":"seatsUsed"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labJoinRequests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labName"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabsQuery, ConsoleLabsQueryVariables>;
export const ConsoleLabCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabCreateMutation, ConsoleLabCreateMutationVariables>;
export const ConsoleLabJoinDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabJoin"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabJoinInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labJoin"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabJoinMutation, ConsoleLabJoinMutationVariables>;
export const ConsoleReleasesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleReleases"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"isAdmin"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"desktop"},"name":{"kind":"Name","value":"releaseManifest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"StringValue","value":"desktop","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRelease"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"core"},"name":{"kind":"Name","value":"releaseManifest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"StringValue","value":"core","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRelease"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRelease"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseManifestNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"product"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"pubDate"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","name":{"kind":"Name","value":"files"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"arch"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]} as unknown as DocumentNode<ConsoleReleasesQuery, ConsoleReleasesQueryVariables>;
export const ConsoleReleaseCountsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleReleaseCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"desktopFiles"},"name":{"kind":"Name","value":"releaseFiles"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"StringValue","value":"desktop","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleReleaseCounts"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"coreFiles"},"name":{"kind":"Name","value":"releaseFiles"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"product"},"value":{"kind":"StringValue","value":"core","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleReleaseCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleReleaseCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReleaseFileStatsNode"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"filename"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"sha256"}},{"kind":"Field","name":{"kind":"Name","value":"downloads"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<ConsoleReleaseCountsQuery, ConsoleReleaseCountsQueryVariables>;
export const ConsoleReviewsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleReviews"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleReviewRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reviewsRequested"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleReviewRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reviewsOfMyWork"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleReviewRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notices"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"30"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unread"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"noticeId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"readAt"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleReviewRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryReview"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"trajectoryTitle"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"dueOn"}},{"kind":"Field","name":{"kind":"Name","value":"overdue"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"decidedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedSinceVerdict"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reviewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"viewerCan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"decide"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewsQuery, ConsoleReviewsQueryVariables>;
export const ConsoleReviewStartDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReviewStart"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryReviewStart"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reviewId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewStartMutation, ConsoleReviewStartMutationVariables>;
export const ConsoleNoticesMarkReadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleNoticesMarkRead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"noticesMarkRead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}]}]}}]} as unknown as DocumentNode<ConsoleNoticesMarkReadMutation, ConsoleNoticesMarkReadMutationVariables>;
export const ConsoleTrajectoryReviewsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectoryReviews"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withMembers"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryMeta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"reviews"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"dueOn"}},{"kind":"Field","name":{"kind":"Name","value":"overdue"}},{"kind":"Field","name":{"kind":"Name","value":"verdictNote"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"decidedAt"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reviewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"viewerCan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"decide"}},{"kind":"Field","name":{"kind":"Name","value":"rerequest"}},{"kind":"Field","name":{"kind":"Name","value":"withdraw"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"lab"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withMembers"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectoryReviewsQuery, ConsoleTrajectoryReviewsQueryVariables>;
export const ConsoleReviewRerequestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReviewRerequest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryReviewRerequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reviewId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewRerequestMutation, ConsoleReviewRerequestMutationVariables>;
export const ConsoleReviewRequestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReviewRequest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReviewRequestInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryReviewRequest"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewRequestMutation, ConsoleReviewRequestMutationVariables>;
export const ConsoleReviewDecideDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReviewDecide"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReviewVerdictInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryReviewDecide"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reviewId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewDecideMutation, ConsoleReviewDecideMutationVariables>;
export const ConsoleReviewWithdrawDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReviewWithdraw"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryReviewWithdraw"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reviewId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ConsoleReviewWithdrawMutation, ConsoleReviewWithdrawMutationVariables>;
export const ConsoleSharedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleShared"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedTrajectory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleSharedFacts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleSharedFacts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SharedTrajectory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"recordCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"maskEmails"}},{"kind":"Field","name":{"kind":"Name","value":"includeFigures"}}]}}]} as unknown as DocumentNode<ConsoleSharedQuery, ConsoleSharedQueryVariables>;
export const ConsoleSharedRecordsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleSharedRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedTrajectoryRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleSharedPage"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleSharedPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SharedRecordPage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"masked"}}]}}]}}]} as unknown as DocumentNode<ConsoleSharedRecordsQuery, ConsoleSharedRecordsQueryVariables>;
export const ConsoleSharedFigureUrlDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleSharedFigureUrl"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"path"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedTrajectoryFigureUrl"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"token"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}},{"kind":"Argument","name":{"kind":"Name","value":"path"},"value":{"kind":"Variable","name":{"kind":"Name","value":"path"}}}]}]}}]} as unknown as DocumentNode<ConsoleSharedFigureUrlQuery, ConsoleSharedFigureUrlQueryVariables>;
export const ConsoleSharedPreviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleSharedPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"maskEmails"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeFigures"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedTrajectoryPreview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"maskEmails"},"value":{"kind":"Variable","name":{"kind":"Name","value":"maskEmails"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeFigures"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeFigures"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleSharedFacts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleSharedFacts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SharedTrajectory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"recordCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"maskEmails"}},{"kind":"Field","name":{"kind":"Name","value":"includeFigures"}}]}}]} as unknown as DocumentNode<ConsoleSharedPreviewQuery, ConsoleSharedPreviewQueryVariables>;
export const ConsoleSharedPreviewRecordsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleSharedPreviewRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"maskEmails"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sharedTrajectoryPreviewRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"maskEmails"},"value":{"kind":"Variable","name":{"kind":"Name","value":"maskEmails"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleSharedPage"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleSharedPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SharedRecordPage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"masked"}}]}}]}}]} as unknown as DocumentNode<ConsoleSharedPreviewRecordsQuery, ConsoleSharedPreviewRecordsQueryVariables>;
export const ConsoleTrajectoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"owner"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"source"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sharedOnly"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeArchived"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"owner"},"value":{"kind":"Variable","name":{"kind":"Name","value":"owner"}}},{"kind":"Argument","name":{"kind":"Name","value":"source"},"value":{"kind":"Variable","name":{"kind":"Name","value":"source"}}},{"kind":"Argument","name":{"kind":"Name","value":"sharedOnly"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sharedOnly"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeArchived"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeArchived"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectoriesQuery, ConsoleTrajectoriesQueryVariables>;
export const ConsoleTrajectorySummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectorySummary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectorySummary"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stale"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"generatedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectorySummaryQuery, ConsoleTrajectorySummaryQueryVariables>;
export const ConsoleSummaryRefreshDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSummaryRefresh"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectorySummaryRefresh"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleSummaryRefreshMutation, ConsoleSummaryRefreshMutationVariables>;
export const ConsoleCritiqueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCritique"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryCritique"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"findings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","name":{"kind":"Name","value":"recordSeq"}},{"kind":"Field","name":{"kind":"Name","value":"severity"}},{"kind":"Field","name":{"kind":"Name","value":"body"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleCritiqueMutation, ConsoleCritiqueMutationVariables>;
export const ConsoleDiscussDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleDiscuss"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DiscussInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryDiscussStream"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"done"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"answer"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDiscussSubscription, ConsoleDiscussSubscriptionVariables>;
export const ConsoleCompareParentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCompareParent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryMeta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleCompareParentQuery, ConsoleCompareParentQueryVariables>;
export const ConsoleTrajectoryDiffDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectoryDiff"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"base"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"other"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryDiff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"base"},"value":{"kind":"Variable","name":{"kind":"Name","value":"base"}}},{"kind":"Argument","name":{"kind":"Name","value":"other"},"value":{"kind":"Variable","name":{"kind":"Name","value":"other"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"same"}},{"kind":"Field","name":{"kind":"Name","value":"changed"}},{"kind":"Field","name":{"kind":"Name","value":"removed"}},{"kind":"Field","name":{"kind":"Name","value":"added"}}]}},{"kind":"Field","name":{"kind":"Name","value":"divergence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"baseSeq"}},{"kind":"Field","name":{"kind":"Name","value":"otherSeq"}}]}},{"kind":"Field","name":{"kind":"Name","value":"base"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CompareSide"}}]}},{"kind":"Field","name":{"kind":"Name","value":"other"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CompareSide"}}]}},{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"baseSeq"}},{"kind":"Field","name":{"kind":"Name","value":"otherSeq"}},{"kind":"Field","name":{"kind":"Name","value":"baseText"}},{"kind":"Field","name":{"kind":"Name","value":"otherText"}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CompareSide"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DiffSide"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"records"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"errors"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectoryDiffQuery, ConsoleTrajectoryDiffQueryVariables>;
export const ConsoleCompareCandidatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCompareCandidates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"mine"},"name":{"kind":"Name","value":"trajectories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"250"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CompareCandidates"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"shared"},"name":{"kind":"Name","value":"trajectories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sharedOnly"},"value":{"kind":"BooleanValue","value":true}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"250"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CompareCandidates"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CompareCandidates"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryPage"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleCompareCandidatesQuery, ConsoleCompareCandidatesQueryVariables>;
export const ConsoleTrajectorySearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectorySearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectorySearch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"ownerName"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"snippet"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectorySearchQuery, ConsoleTrajectorySearchQueryVariables>;
export const ConsoleShareLinksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleShareLinks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryShareLinks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"linkId"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"lastViewedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"maskEmails"}},{"kind":"Field","name":{"kind":"Name","value":"includeFigures"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleShareLinksQuery, ConsoleShareLinksQueryVariables>;
export const ConsoleShareLinkCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleShareLinkCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLinkInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryShareLinkCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"link"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"linkId"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleShareLinkCreateMutation, ConsoleShareLinkCreateMutationVariables>;
export const ConsoleShareLinkRevokeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleShareLinkRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"linkId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryShareLinkRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"linkId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"linkId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"linkId"}},{"kind":"Field","name":{"kind":"Name","value":"open"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleShareLinkRevokeMutation, ConsoleShareLinkRevokeMutationVariables>;
export const ConsoleTrajectoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"trajectoryMeta"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"viewerCan"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"annotate"}},{"kind":"Field","name":{"kind":"Name","value":"resolve"}},{"kind":"Field","name":{"kind":"Name","value":"fork"}},{"kind":"Field","name":{"kind":"Name","value":"changeVisibility"}},{"kind":"Field","name":{"kind":"Name","value":"refreshSummary"}},{"kind":"Field","name":{"kind":"Name","value":"share"}},{"kind":"Field","name":{"kind":"Name","value":"requestReview"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"openAnnotations"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}}]}},{"kind":"Field","name":{"kind":"Name","value":"forkedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"trajectoryAnnotations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"recordUuid"}},{"kind":"Field","name":{"kind":"Name","value":"replyTo"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"resolvedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectoryQuery, ConsoleTrajectoryQueryVariables>;
export const ConsoleTrajectoryRecordsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectoryRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectoryRecordsQuery, ConsoleTrajectoryRecordsQueryVariables>;
export const ConsoleTrajectoryFindDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTrajectoryFind"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryFind"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seqs"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}}]} as unknown as DocumentNode<ConsoleTrajectoryFindQuery, ConsoleTrajectoryFindQueryVariables>;
export const ConsoleRecordsAppendedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleRecordsAppended"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryRecordsAppended"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"records"}}]}}]}}]} as unknown as DocumentNode<ConsoleRecordsAppendedSubscription, ConsoleRecordsAppendedSubscriptionVariables>;
export const ConsoleAnnotateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAnnotate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AnnotationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryAnnotate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"annotationId"}}]}}]}}]} as unknown as DocumentNode<ConsoleAnnotateMutation, ConsoleAnnotateMutationVariables>;
export const ConsoleAnnotationResolveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAnnotationResolve"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"annotationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryAnnotationResolve"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"annotationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"annotationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"annotationId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleAnnotationResolveMutation, ConsoleAnnotationResolveMutationVariables>;
export const ConsoleForkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleFork"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForkInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryFork"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}}]}}]}}]} as unknown as DocumentNode<ConsoleForkMutation, ConsoleForkMutationVariables>;
export const ConsoleVisibilityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleVisibility"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VisibilityInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trajectoryVisibilitySet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"visibility"}},{"kind":"Field","name":{"kind":"Name","value":"labId"}}]}}]}}]} as unknown as DocumentNode<ConsoleVisibilityMutation, ConsoleVisibilityMutationVariables>;