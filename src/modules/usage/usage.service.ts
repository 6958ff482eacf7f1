import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, whileDatabaseUnreachable } from '../../db/sql';
import { countModelCall } from '../../metrics';
import type { Completion, CompletionRequest, LanguageModelClient } from '../../llm/language-model';
import type { CatalogModel } from '../catalog/catalog.repository';
import { shippedCatalogModel } from '../catalog/catalog.service';
import { insertModelCall, LedgerInsert, ModelCallRow, modelCallInsert } from './usage.repository';

/** Who a model call is for, as the ledger row names it. */
export interface CallPurpose {
  userId: string;
  labId: string | null;
  sessionId: string | null;
  /** `discuss`, … */
  feature: string;
  /** The A2A principal whose turn makes the call: its key's daily token budget counts it. */
  a2aPrincipal?: string;
}

/** Catalog prices are per million tokens; one credit is one unit of those prices. */
export function creditsOf(model: CatalogModel | undefined, tokensIn: number, tokensOut: number): number {
  if (!model) return 0;
  return Math.round(((tokensIn * model.input_price + tokensOut * model.output_price) / 1e6) * 1e6) / 1e6;
}

/**
 * Calls the model and writes its ledger row. On success the row is written together with what
 * the call paid for (`keep`: one transaction), or alone when keeping that fails; on failure of the call
 * it is written alone, with outcome `error` and no tokens, and the error (UNAVAILABLE naming provider and model) is rethrown. With tools
 * offered it is still one call and one row: the tool calls come back in the completion.
 */
export function meteredCompletion<T>(
  em: EntityManager,
  llm: LanguageModelClient,
  priced: CatalogModel | undefined,
  purpose: CallPurpose,
  request: CompletionRequest,
  keep: (tx: EntityManager, completion: Completion) => Promise<T>,
): Promise<T> {
  return metered(em, llm, priced, purpose, () => llm.complete(request), inTransactionWith(em, keep), modelCallInsert, request.signal);
}

/**
 * `meteredCompletion` for a caller that keeps what it paid for in one statement (atomic on its
 * own, so no transaction round trips): `keep` runs the ledger row's insert (`ledger`, a
 * data-modifying CTE) in that statement, which also prices the call at the catalog's prices (no
 * read of the catalog before it). `keep` must be safe to send again, as the ledger row is: a
 * connection lost under it (done or not) is waited out and `keep` runs again.
 */
export function meteredCompletionInOne<T>(
  em: EntityManager,
  llm: LanguageModelClient,
  purpose: CallPurpose,
  request: CompletionRequest,
  keep: (ledger: LedgerInsert, completion: Completion) => Promise<T>,
): Promise<T> {
  const ledgerOf = (paid: ModelCallRow) => modelCallInsert(paid, { catalogModelId: llm.model });
  return metered(
    em,
    llm,
    shippedCatalogModel(llm.model),
    purpose,
    () => llm.complete(request),
    (paid, completion) => keep(ledgerOf(paid), completion),
    ledgerOf,
    request.signal,
    true,
  );
}

/** Keeps a call's ledger row and what it paid for (`keep`) in one ORM transaction. */
const inTransactionWith =
  <T>(em: EntityManager, keep: (tx: EntityManager, completion: Completion) => Promise<T>) =>
  (paid: ModelCallRow, completion: Completion) =>
    em.transactional(async (tx) => {
      await insertModelCall(sqlOf(tx), paid);
      return keep(tx, completion);
    });

/** `meteredCompletion` for a streamed call: `onText` gets the answer piece by piece. One row. */
export function meteredStream<T>(
  em: EntityManager,
  llm: LanguageModelClient,
  priced: CatalogModel | undefined,
  purpose: CallPurpose,
  request: CompletionRequest,
  onText: (piece: string) => void,
  keep: (tx: EntityManager, completion: Completion) => Promise<T>,
): Promise<T> {
  return metered(em, llm, priced, purpose, () => llm.stream(request, onText), inTransactionWith(em, keep), modelCallInsert, request.signal);
}

async function metered<T>(
  em: EntityManager,
  llm: LanguageModelClient,
  priced: CatalogModel | undefined,
  purpose: CallPurpose,
  call: () => Promise<Completion>,
  keep: (paid: ModelCallRow, completion: Completion) => Promise<T>,
  ledgerOf: (paid: ModelCallRow) => LedgerInsert = modelCallInsert,
  signal?: AbortSignal,
  keepIsIdempotent = false,
): Promise<T> {
  const started = performance.now();
  const row = { ...purpose, model: `${llm.provider}/${llm.model}`, callId: randomUUID() };
  let completion: Completion;
  try {
    completion = await call();
  } catch (error) {
    const latencyMs = performance.now() - started;
    countModelCall(purpose.feature, 'error', latencyMs / 1000, 0, 0);
    await insertModelCall(sqlOf(em), { ...row, tokensIn: 0, tokensOut: 0, credits: 0, latencyMs: Math.round(latencyMs), outcome: 'error' });
    throw error;
  }
  const latencyMs = performance.now() - started;
  countModelCall(purpose.feature, 'ok', latencyMs / 1000, completion.tokensIn, completion.tokensOut);
  const paid = {
    ...row,
    tokensIn: completion.tokensIn,
    tokensOut: completion.tokensOut,
    credits: creditsOf(priced, completion.tokensIn, completion.tokensOut),
    latencyMs: Math.round(latencyMs),
    outcome: 'ok' as const,
  };
  try {
    // The database cannot be reached (a restart): the answer is kept once it can, while the
    // caller still wants it (its signal bounds the wait), rather than lost and paid for again.
    return await whileDatabaseUnreachable(() => keep(paid, completion), signal, keepIsIdempotent);
  } catch (error) {
    // What it paid for was not kept (a conflict, say), but the provider billed the call: the
    // ledger still gets its row, alone, so the bill stays explained (once: it may be there).
    const ledger = ledgerOf(paid);
    await sqlOf(em)(ledger.sql, ledger.params).catch(() => undefined);
    throw error;
  }
}
