import { AuditEvent } from '../modules/audit/audit.entity';
import { AuthToken, DeviceLogin } from '../modules/auth/token.entity';
import { Lab, LabMember } from '../modules/labs/lab.entity';
import { AnnotationEntry, DiscussionTurn, RecordPayload, Trajectory, TrajectoryRecord } from '../modules/trajectories/trajectory.entity';
import { TrajectoryCritique } from '../modules/trajectories/critique.entity';
import { UsageEntry } from '../modules/usage/usage.entity';
import { User } from '../modules/users/user.entity';
import { UserActivityDay } from '../modules/activity/activity.entity';
import { InstanceSecret } from './instance-secret.entity';
import { ModelCatalog } from '../modules/catalog/catalog.entity';
import { ComputeLease, ComputePlan, CreditAccount, CreditEntry, LeaseIdleRefresh } from '../modules/compute/compute.entity';
import { Blob, BlobOwner, Figure } from '../modules/figures/figure.entity';
import { ReleaseFile, ReleaseManifest } from '../modules/releases/release.entity';

export const ENTITIES = [
  User,
  AuthToken,
  DeviceLogin,
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
];
