import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { sqlOf } from '../../db/sql';
import { conflict, notFound } from '../../errors';
import { newId, newSecret, sha256Hex } from '../../ids';
import { checks } from '../../validation';
import type { Viewer } from '../auth/viewer';
import { audit } from '../audit/audit.service';
import { figureUrl, type FigureUrlOptions } from '../figures/figure.service';
import { activeRoleIn } from '../labs/membership.repository';
import { mayShareOutside, TRAJECTORY_MUTATIONS } from '../trajectories/trajectory.policy';
import * as trajectories from '../trajectories/trajectory.repository';
import { loadTrajectory, recordPageOf } from '../trajectories/trajectory.service';
import * as repo from './share-link.repository';
import type { ShareLinkRow } from './share-link.repository';
import { maskRecord, maskText } from './secret-masking';

/** Links of one trajectory that open at once: enough for a reviewer per link, few enough to list. */
export const MAX_OPEN_LINKS = 20;
/** The longest a link may be made to last (a link without an expiry lasts until revoked). */
export const MAX_EXPIRY_DAYS = 365;
/** `ldk_shr_<40 characters>`: the secret of the link's address, after its `#` (never sent to the server with the page). */
const TOKEN_SHAPE = /^ldk_shr_[A-Za-z0-9]{40}$/;

/** An archived trajectory's links do not open (`openShared`): none is made, nothing previewed. */
const archived = () => conflict('this trajectory is archived: a link to it would not open');

export interface ShareLinkInput {
  /** Days until the link stops opening (1-365); none: until revoked. */
  expiresInDays?: number | null;
  maskEmails?: boolean | null;
  includeFigures?: boolean | null;
}

/**
 * Makes a read-only link to the trajectory (the owner, or a mentor of the lab it is shared with).
 * Answers the link and its address, which holds the token: shown this once, kept as its hash.
 * @throws NOT_FOUND, FORBIDDEN, CONFLICT past `MAX_OPEN_LINKS`
 */
export async function createShareLink(
  em: EntityManager,
  viewer: Viewer,
  publicUrl: string,
  sessionId: string,
  input: ShareLinkInput,
): Promise<{ link: ShareLinkRow; url: string }> {
  checks().int(['input', 'expiresInDays'], input.expiresInDays, { min: 1, max: MAX_EXPIRY_DAYS }).done();
  return em.transactional(async (tx) => {
    const { trajectory } = await loadTrajectory(tx, viewer, sessionId, TRAJECTORY_MUTATIONS.share, true);
    if (trajectory.archivedAt) throw archived();
    const q = sqlOf(tx);
    if ((await repo.countOpenLinks(q, sessionId)) >= MAX_OPEN_LINKS)
      throw conflict(`this trajectory has ${MAX_OPEN_LINKS} open share links; revoke one first`);
    const token = `ldk_shr_${newSecret(40)}`;
    const days = input.expiresInDays ?? null;
    const link = await repo.insertShareLink(q, {
      id: newId('shr'),
      sessionId,
      createdBy: viewer.user.id,
      tokenHash: sha256Hex(token),
      maskEmails: input.maskEmails === true,
      includeFigures: input.includeFigures === true,
      expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
    });
    audit(tx, {
      action: 'trajectory.share_link.create',
      actorId: viewer.user.id,
      labId: trajectory.labId,
      subjectUserId: trajectory.ownerId,
      detail: { sessionId, linkId: link.id, expiresAt: link.expiresAt, maskEmails: link.maskEmails, includeFigures: link.includeFigures },
    });
    return { link, url: `${publicUrl.replace(/\/+$/, '')}/shared#${token}` };
  });
}

/** The trajectory's links, for whoever may make them. @throws NOT_FOUND, FORBIDDEN */
export async function listShareLinks(em: EntityManager, viewer: Viewer, sessionId: string): Promise<ShareLinkRow[]> {
  await loadTrajectory(em, viewer, sessionId, TRAJECTORY_MUTATIONS.share);
  return repo.linksOf(sqlOf(em), sessionId);
}

/** Revokes a link of a trajectory the viewer may share (again: no change). @throws NOT_FOUND, FORBIDDEN */
export async function revokeShareLink(em: EntityManager, viewer: Viewer, linkId: string): Promise<ShareLinkRow> {
  checks().text(['linkId'], linkId, { min: 1, max: 64 }).done();
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const found = await repo.findLink(q, linkId);
    if (!found) throw notFound('share link');
    const { trajectory } = await loadTrajectory(tx, viewer, found.sessionId, TRAJECTORY_MUTATIONS.share);
    const link = await repo.revokeLink(q, linkId);
    if (!found.revokedAt)
      audit(tx, {
        action: 'trajectory.share_link.revoke',
        actorId: viewer.user.id,
        labId: trajectory.labId,
        subjectUserId: trajectory.ownerId,
        detail: { sessionId: found.sessionId, linkId },
      });
    return link;
  });
}

/** What a link shows of its trajectory besides the records. */
export interface SharedTrajectory {
  title: string;
  source: string;
  recordCount: number;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
  maskEmails: boolean;
  includeFigures: boolean;
}

/** What a link is made with, and a preview shows as it would. */
type Showing = Pick<ShareLinkRow, 'maskEmails' | 'includeFigures'>;

/**
 * The trajectory a link opens, while the link is open and its maker may still share the
 * trajectory (a mentor who left the lab, a trajectory made private: the link stops). Every
 * other case is the same NOT_FOUND, so a token tells nothing of why.
 */
async function openShared(em: EntityManager, token: string, counted: boolean) {
  const gone = notFound('shared trajectory');
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw gone;
  const q = sqlOf(em);
  const link = await repo.openLink(q, sha256Hex(token), counted);
  if (!link) throw gone;
  const trajectory = await trajectories.findTrajectory(q, link.sessionId);
  if (!trajectory || trajectory.archivedAt) throw gone;
  const role = trajectory.labId ? await activeRoleIn(q, trajectory.labId, link.createdBy) : null;
  if (!mayShareOutside(link.createdBy, trajectory, role)) throw gone;
  return { link, trajectory };
}

/** What a link shows of the trajectory besides its records: its title masked as they are. */
async function sharedFacts(trajectory: trajectories.TrajectoryRow, link: Showing & Pick<ShareLinkRow, 'expiresAt'>) {
  const title = await maskText(trajectory.title ?? '', { emails: link.maskEmails });
  return {
    title: title.text || 'Untitled',
    source: trajectory.source,
    recordCount: trajectory.count,
    createdAt: trajectory.createdAt,
    updatedAt: trajectory.updatedAt,
    expiresAt: link.expiresAt,
    maskEmails: link.maskEmails,
    includeFigures: link.includeFigures,
  };
}

/** A page of the trajectory's records, each with its secrets masked (docs/api/sharing.md). */
async function maskedPage(em: EntityManager, blobs: Blobs, sessionId: string, maskEmails: boolean, afterSeq: number, first: number) {
  const page = await recordPageOf(em, blobs, sessionId, afterSeq, first);
  const items = [];
  for (const item of page.items) {
    const masked = await maskRecord(item.text, { emails: maskEmails });
    items.push({ seq: item.seq, text: masked.text, masked: masked.masked });
  }
  return { items, hasMore: page.hasMore };
}

/** The link's trajectory; counts a view. @throws NOT_FOUND */
export async function sharedTrajectory(em: EntityManager, token: string): Promise<SharedTrajectory> {
  const { link, trajectory } = await openShared(em, token, true);
  return sharedFacts(trajectory, link);
}

/** A page of the link's records, secrets masked. @throws NOT_FOUND */
export async function sharedRecordPage(em: EntityManager, blobs: Blobs, token: string, afterSeq: number, first: number) {
  const { link, trajectory } = await openShared(em, token, false);
  return maskedPage(em, blobs, trajectory.id, link.maskEmails, afterSeq, first);
}

/**
 * A short-lived URL of one of the link's figures, when the link includes them (the same
 * NOT_FOUND as any other figure when it does not). No view counted. @throws NOT_FOUND
 */
export async function sharedFigureUrl(em: EntityManager, blobs: Blobs, token: string, path: string, where: FigureUrlOptions) {
  const { link, trajectory } = await openShared(em, token, false);
  if (!link.includeFigures) throw notFound('figure');
  return figureUrl(em, blobs, trajectory.id, path, where);
}

/**
 * What a link would show, for whoever may make one, before making it: the same masking, no link
 * made, no view counted (its figures, when included, through `trajectoryFigureUrl`).
 * @throws NOT_FOUND, FORBIDDEN
 */
export async function previewShared(em: EntityManager, viewer: Viewer, sessionId: string, showing: Showing): Promise<SharedTrajectory> {
  const { trajectory } = await loadTrajectory(em, viewer, sessionId, TRAJECTORY_MUTATIONS.share);
  if (trajectory.archivedAt) throw archived();
  return sharedFacts(trajectory, { expiresAt: null, ...showing });
}

/** A page of the records a link would show (`previewShared`). @throws NOT_FOUND, FORBIDDEN */
export async function previewRecordPage(
  em: EntityManager,
  blobs: Blobs,
  viewer: Viewer,
  sessionId: string,
  maskEmails: boolean,
  afterSeq: number,
  first: number,
) {
  const { trajectory } = await loadTrajectory(em, viewer, sessionId, TRAJECTORY_MUTATIONS.share);
  if (trajectory.archivedAt) throw archived();
  return maskedPage(em, blobs, sessionId, maskEmails, afterSeq, first);
}
