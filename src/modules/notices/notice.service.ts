import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, type Query } from '../../db/sql';
import { newId } from '../../ids';
import { startPeriodic } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import type { Mail, Mailer } from '../../mail';
import { checks } from '../../validation';
import type { Viewer } from '../auth/viewer';
import * as repo from './notice.repository';

/** Notices listed at most (the newest). */
export const MAX_NOTICES = 100;

export interface NoticeInput {
  userId: string;
  kind: string;
  text: string;
  /** Where in the console it leads. */
  path: string;
}

/**
 * Tells a person something in the console, in the caller's transaction (it is there exactly
 * when what it tells committed); answers the mail to send once that commits, when they have an
 * address. Mail is a courtesy on top: the notice is the record.
 */
export async function notify(q: Query, publicUrl: string, notice: NoticeInput, subject: string): Promise<Mail | null> {
  const { email } = await repo.insertNotice(q, { id: newId('ntc'), ...notice });
  if (!email) return null;
  return { to: email, subject, text: `${notice.text}\n\n${publicUrl.replace(/\/+$/, '')}${notice.path}\n\n— labdesk` };
}

/** Sends mails of a committed change without holding up its answer (a failure is logged by the mailer). */
export function sendAfterCommit(mailer: Mailer | null, mails: readonly (Mail | null)[]): void {
  if (!mailer) return;
  for (const mail of mails) if (mail) void mailer.send(mail);
}

export const myNotices = (em: EntityManager, viewer: Viewer, first: number) => {
  checks().int(['first'], first, { min: 1, max: MAX_NOTICES }).done();
  return repo.noticesOf(sqlOf(em), viewer.user.id, first);
};

/** Marks the viewer's notices read (these ids, or all). Ids not theirs change nothing. */
export function markNoticesRead(em: EntityManager, viewer: Viewer, ids: readonly string[] | null): Promise<number> {
  const check = checks().int(['ids', 'length'], ids?.length, { max: MAX_NOTICES });
  ids?.forEach((id, index) => check.text(['ids', index], id, { min: 1, max: 64 }));
  check.done();
  return repo.markRead(sqlOf(em), viewer.user.id, ids);
}

/** Notices read this many days ago are forgotten, hourly (any instance may: the delete is idempotent). */
export const READ_NOTICE_DAYS = 90;

export const startNoticeSweep = (emOf: () => EntityManager, logger: Logger) =>
  startPeriodic('notice sweep', 3600, async () => void (await repo.forgetReadNotices(sqlOf(emOf()), READ_NOTICE_DAYS)), logger);
