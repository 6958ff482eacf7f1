import { AuditEvent } from '../modules/audit/audit.entity';
import { AuthToken, DeviceLogin } from '../modules/auth/token.entity';
import { PasswordLink, UserSession } from '../modules/auth/session.entity';
import { OidcIdentity } from '../modules/auth/oidc-identity.entity';
import { Lab, LabMember } from '../modules/labs/lab.entity';
import { AnnotationEntry, DiscussionTurn, RecordPayload, Trajectory, TrajectoryRecord } from '../modules/trajectories/trajectory.entity';
import { ShareLink } from '../modules/sharing/share-link.entity';
import { TrajectoryReview } from '../modules/reviews/review.entity';
import { Notice } from '../modules/notices/notice.entity';
import { TrajectoryCritique } from '../modules/trajectories/critique.entity';
import { UsageEntry } from '../modules/usage/usage.entity';
import { User } from '../modules/users/user.entity';
import { UserActivityDay } from '../modules/activity/activity.entity';
import { InstanceSecret } from './instance-secret.entity';
import { ModelCatalog } from '../modules/catalog/catalog.entity';
import { ComputeLease, ComputePlan, CreditAccount, CreditEntry, LeaseIdleRefresh } from '../modules/compute/compute.entity';
import { Blob, BlobOwner, Figure } from '../modules/figures/figure.entity';
import { ReleaseFile, ReleaseManifest } from '../modules/releases/release.entity';
import {
  A2aArtifactEntity,
  A2aArtifactFileEntity,
  A2aContextGrantEntity,
  A2aInputFileEntity,
  A2aKeyEntity,
  A2aMessageEntity,
  A2aPartPayloadEntity,
  A2aPeerTaskEntity,
  A2aPushConfigEntity,
  A2aPushDeliveryEntity,
  A2aSettingsEntity,
  A2aTaskEntity,
  A2aTurnEntity,
} from '../modules/a2a/a2a.entity';
import { OutboundAgentEntity } from '../modules/agent/peers/outbound-agent.entity';
import { WorkspaceJobEntity } from '../modules/agent/workspace/workspace-job.entity';
import { JobInstance } from '../jobs/job-instance.entity';
import { ModelLimitWindow } from '../modules/usage/model-limit.entity';

export const ENTITIES = [
  User,
  AuthToken,
  DeviceLogin,
  UserSession,
  PasswordLink,
  OidcIdentity,
  Lab,
  LabMember,
  AuditEvent,
  UsageEntry,
  InstanceSecret,
  Trajectory,
  TrajectoryRecord,
  RecordPayload,
  AnnotationEntry,
  DiscussionTurn,
  Blob,
  BlobOwner,
  Figure,
  ReleaseFile,
  ReleaseManifest,
  ModelCatalog,
  CreditAccount,
  CreditEntry,
  ComputePlan,
  ComputeLease,
  LeaseIdleRefresh,
  UserActivityDay,
  TrajectoryCritique,
  ShareLink,
  TrajectoryReview,
  Notice,
  ModelLimitWindow,
  JobInstance,
  A2aTaskEntity,
  A2aMessageEntity,
  A2aPartPayloadEntity,
  A2aArtifactEntity,
  A2aArtifactFileEntity,
  A2aInputFileEntity,
  A2aTurnEntity,
  A2aContextGrantEntity,
  A2aPeerTaskEntity,
  A2aPushConfigEntity,
  A2aPushDeliveryEntity,
  A2aKeyEntity,
  A2aSettingsEntity,
  OutboundAgentEntity,
  WorkspaceJobEntity,
];
