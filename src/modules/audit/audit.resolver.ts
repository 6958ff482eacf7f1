import { Arg, Ctx as Context, Extensions, Int, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { checks, pageArgs } from '../../validation';
import { auditPage, type AuditRow } from './audit.repository';
import { AuditEventNode, AuditEventPage } from './audit.types';
import { FORMER_USER, type PersonSource } from '../users/person.resolver';
import { Person } from '../users/user.types';
import { ADMIN } from '../../operation-rules';

/** Someone an event names, as `Person` presents people (its email resolver applies the viewer's rights). */
const person = (userId: string | null, name: string | null, knownEmail: string | null): PersonSource | null =>
  userId ? Object.assign(new Person(), { userId, name: name ?? FORMER_USER, email: null, knownEmail }) : null;

function presentEvent(row: AuditRow): AuditEventNode {
  return {
    id: row.id,
    action: row.action,
    createdAt: row.createdAt,
    actor: person(row.actorId, row.actorName, row.actorEmail),
    subject: person(row.subjectId, row.subjectName, row.subjectEmail),
    lab: row.labId ? { labId: row.labId, name: row.labName } : null,
    detail: row.detail,
  };
}

@Resolver()
export class AuditResolver {
  @Extensions(ADMIN)
  @Query(() => AuditEventPage, { description: 'Admin: the audit log, newest first: who did what, to whom, when.' })
  async adminAuditEvents(
    @Context() ctx: Ctx,
    @Arg('actor', () => String, { nullable: true, description: 'A user id, or part of the actor’s name or email.' }) actor?: string,
    @Arg('action', () => String, { nullable: true, description: 'An action (user.update), or a prefix ending in a dot (member.).' })
    action?: string,
    @Arg('since', () => Date, { nullable: true, description: 'Events at or after this instant.' }) since?: Date,
    @Arg('until', () => Date, { nullable: true, description: 'Events before this instant.' }) until?: Date,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<AuditEventPage> {
    checks()
      .text(['actor'], actor ?? undefined, { max: 254 })
      .text(['action'], action ?? undefined, { max: 100 })
      .done();
    const page = pageArgs(limit, offset, { max: 500, default: 100 });
    const { items, total } = await auditPage(ctx.em, { actor, action, since, until }, page);
    return { items: items.map(presentEvent), total, ...page };
  }
}
