import type { Request } from 'express';
import busboy from 'busboy';
import fs from 'node:fs';
import { receiveToTemp, ReceivedFile } from '../src/blobs/receive';
import { AppError, FieldIssue, invalid } from '../src/errors';

export interface MultipartForm {
  files: Map<string, ReceivedFile>;
  fields: Map<string, string>;
  /** Removes every received temp file the store did not take. */
  discard(): Promise<void>;
}

const FIELD_BYTES = 8 * 1024;

/**
 * Reads a `multipart/form-data` body, streaming each file part to a temp file (hashed as it
 * arrives, never held in memory). Only the named parts are accepted; anything else is a 422.
 * @throws UNSUPPORTED_MEDIA_TYPE, VALIDATION_FAILED, PAYLOAD_TOO_LARGE
 */
export async function readMultipart(
  req: Request,
  spec: { files: string[]; fields: string[]; tmpDir: string; maxFileBytes: number },
): Promise<MultipartForm> {
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'the body must be multipart/form-data');
  }
  const files = new Map<string, ReceivedFile>();
  const fields = new Map<string, string>();
  const issues: FieldIssue[] = [];
  const pending: Promise<void>[] = [];
  const discard = async () => {
    await Promise.all(pending.map((p) => p.catch(() => undefined)));
    await Promise.all([...files.values()].map((f) => fs.promises.rm(f.path, { force: true })));
  };
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // busboy reports a limit when a count reaches it: one over what is allowed means "too many".
      limits: { fieldSize: FIELD_BYTES, parts: spec.files.length + spec.fields.length + 1, fileSize: spec.maxFileBytes + 1 },
    });
  } catch {
    throw new AppError('BAD_REQUEST', 'malformed multipart body (no boundary)');
  }
  const done = new Promise<void>((resolve, reject) => {
    const seen = new Set<string>();
    parser.on('file', (name, stream) => {
      if (!spec.files.includes(name) || seen.has(name)) {
        issues.push({ path: ['body', name], msg: seen.has(name) ? 'was sent twice' : 'is not a known file part', type: 'extra_forbidden' });
        // Drained, not read. A body cut off inside this part errors the part's stream too: that error
        // is the form's (answered below), and an 'error' without a listener would end the process.
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      seen.add(name);
      const received = receiveToTemp(stream, spec.tmpDir, spec.maxFileBytes).then((file) => void files.set(name, file));
      received.catch(reject); // a file over the limit ends the whole read at once
      pending.push(received);
    });
    parser.on('field', (name, value, info) => {
      if (!spec.fields.includes(name)) issues.push({ path: ['body', name], msg: 'is not a known member', type: 'extra_forbidden' });
      else if (fields.has(name)) issues.push({ path: ['body', name], msg: 'was sent twice', type: 'extra_forbidden' });
      else if (info.valueTruncated)
        issues.push({ path: ['body', name], msg: `must be at most ${FIELD_BYTES} bytes`, type: 'string_too_long' });
      else fields.set(name, value);
    });
    parser.on('partsLimit', () => issues.push({ path: ['body'], msg: 'has too many parts', type: 'too_long' }));
    parser.on('close', resolve);
    parser.on('error', (error: Error) => reject(new AppError('BAD_REQUEST', `malformed multipart body: ${error.message}`)));
    req.on('error', reject);
  });
  req.pipe(parser);
  try {
    await done;
    await Promise.all(pending);
  } catch (error) {
    req.unpipe(parser);
    req.resume();
    await discard();
    throw error;
  }
  if (issues.length) {
    await discard();
    throw invalid(issues);
  }
  return { files, fields, discard };
}
