import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from './audit.entity';

export interface AuditEntry {
  action: string;
  actorId: string | null;
  labId?: string | null;
  subjectUserId?: string | null;
  detail?: Record<string, unknown>;
}

/** Records an audit event in the caller's unit of work, so it commits with the change it describes. */
export function audit(em: EntityManager, entry: AuditEntry): void {
  em.create(AuditEvent, {
    action: entry.action,
    actorId: entry.actorId,
    labId: entry.labId ?? null,
    subjectUserId: entry.subjectUserId ?? null,
    detail: entry.detail ?? null,
  });
}
