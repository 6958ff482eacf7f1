import { Client } from 'pg';
import type { Logger } from '../logger';

/** What a listener is told: each notice's payload, and when notices may have been missed. */
export interface NoticeHandlers {
  notice(payload: string): void;
  /** Called when the connection is lost (notices sent meanwhile are not delivered) and when listening starts again. */
  gap(): void;
  /** Called once `LISTEN` is in place: from now on no notice is missed while the connection holds. */
  listening(): void;
}

export interface NoticeListener {
  close(): Promise<void>;
}

/** Waits between attempts to listen again after the connection was lost: doubling, up to the last. */
const RETRY_MS = [250, 500, 1_000, 2_000, 5_000];

/**
 * Listens on the PostgreSQL channel `channel` over a connection of its own (not the pool's:
 * a LISTEN must stay on one session). NOTIFY is delivered after the notifying transaction
 * commits, to every session listening then, so every instance on the database hears every
 * change. When the connection is lost, `gap()` is called and the listener connects again
 * (TCP keep-alive finds a dead peer); the caller must not trust what it kept until `listening()`.
 */
export function listenForNotices(url: string, channel: string, handlers: NoticeHandlers, logger: Logger): NoticeListener {
  let client: Client | undefined;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const lost = (error?: Error) => {
    if (closed) return;
    handlers.gap();
    client?.removeAllListeners();
    client?.end().catch(() => undefined);
    client = undefined;
    const wait = RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)];
    if (failures === 1)
      logger.warn('lost the connection listening for database notices; connecting again', { channel, error: error?.message });
    retry = setTimeout(() => void connect(), wait);
  };

  const connect = async () => {
    retry = undefined;
    // Keep-alive probes from 10 s of silence (the system's default waits two hours): a peer gone
    // without a word is found within seconds, the caches' 10 s TTL covering the meantime.
    const next = new Client({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'labdesk notices',
    });
    client = next;
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notice(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen "${channel}"`);
    } catch (error) {
      if (client === next) lost(error as Error);
      return;
    }
    if (closed || client !== next) return;
    if (failures > 0) logger.info('listening for database notices again', { channel });
    failures = 0;
    handlers.listening();
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = undefined;
      open?.removeAllListeners();
      open?.on('error', () => undefined);
      await open?.end().catch(() => undefined);
    },
  };
}
