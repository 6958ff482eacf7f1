import 'reflect-metadata';
import path from 'node:path';
import { GraphQLSchema, lexicographicSortSchema, printSchema, specifiedDirectives } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { A2aPushResolver } from './modules/a2a/a2a-push.resolver';
import { A2aResolver } from './modules/a2a/a2a.resolver';
import { A2aConsoleResolver, A2aTaskConsoleResolver } from './modules/a2a/a2a-console.resolver';
import { AdminResolver } from './modules/admin/admin.resolver';
import { AuditResolver } from './modules/audit/audit.resolver';
import { OutboundAgentResolver } from './modules/agent/peers/outbound-agent.resolver';
import { AuthResolver } from './modules/auth/auth.resolver';
import { CatalogResolver } from './modules/catalog/catalog.resolver';
import { ComputeResolver } from './modules/compute/compute.resolver';
import { ExportResolver } from './modules/exports/export.resolver';
import { FigureResolver } from './modules/figures/figure.resolver';
import { LabResolver, LabUsageResolver } from './modules/labs/lab.resolver';
import { ReleaseResolver } from './modules/releases/release.resolver';
import { ShareLinkResolver } from './modules/sharing/share-link.resolver';
import {
  BoardReviewResolver,
  LabReviewSummaryResolver,
  ReviewResolver,
  TrajectoryReviewsResolver,
} from './modules/reviews/review.resolver';
import { NoticeResolver } from './modules/notices/notice.resolver';
import { AnnotationResolver, DiffSideResolver, ForkOriginResolver, TrajectoryResolver } from './modules/trajectories/trajectory.resolver';
import { TrajectorySearchResolver } from './modules/trajectories/trajectory-search.resolver';
import { UserResolver } from './modules/users/user.resolver';
import { PersonResolver } from './modules/users/person.resolver';
import { SessionResolver } from './modules/auth/session.resolver';
import type { AppPubSub } from './pubsub';
import { FACADE_DIRECTIVES } from './facade-directives';
import { ACCESS_DIRECTIVE, enforceOperationRules, withAccessDirectives } from './operation-rules';

export const SCHEMA_FILE = path.resolve(
  __dirname,
  '..',
  ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []),
  'schema',
  'schema.graphql',
);

const RESOLVERS = [
  AuthResolver,
  A2aResolver,
  A2aPushResolver,
  A2aConsoleResolver,
  A2aTaskConsoleResolver,
  OutboundAgentResolver,
  UserResolver,
  PersonResolver,
  SessionResolver,
  LabResolver,
  LabUsageResolver,
  AdminResolver,
  AuditResolver,
  TrajectoryResolver,
  TrajectorySearchResolver,
  ForkOriginResolver,
  AnnotationResolver,
  DiffSideResolver,
  ShareLinkResolver,
  ReviewResolver,
  TrajectoryReviewsResolver,
  BoardReviewResolver,
  LabReviewSummaryResolver,
  NoticeResolver,
  ExportResolver,
  FigureResolver,
  ReleaseResolver,
  CatalogResolver,
  ComputeResolver,
] as const;

/**
 * The code-first domain schema, with the facade's directives and each operation's declared rules
 * in force (src/operation-rules.ts). `pubSub` carries subscription events (Redis or in-process).
 */
export function buildAppSchema(pubSub: AppPubSub): GraphQLSchema {
  return enforceOperationRules(
    buildSchemaSync({
      resolvers: RESOLVERS,
      pubSub,
      validate: false,
      // Given directives replace GraphQL's own (@include, @skip, @deprecated…): they are named again.
      directives: [...specifiedDirectives, ...FACADE_DIRECTIVES, ACCESS_DIRECTIVE],
    }),
  );
}

/**
 * The SDL committed in `schema/schema.graphql` (sorted, so diffs show real changes only), each
 * root field with the access it declares (`@access`).
 */
export function printAppSchema(schema: GraphQLSchema): string {
  const sorted = lexicographicSortSchema(schema);
  return `${withAccessDirectives(sorted, printSchema(sorted))}\n`;
}
