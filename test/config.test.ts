import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, SETTINGS, unknownSettingWarnings } from '../src/config';
import type { Logger } from '../src/logger';
import { startTestApp } from './support/app';

/**
 * Misspelled settings (docs/operations.md, "Configuration"): a variable with one of the service's
 * prefixes that no setting has is named at start, with the closest setting.
 */
test('SETTINGS is exactly what loadConfig reads, plus the CLI and tool variables it lists', () => {
  const source = fs.readFileSync(path.resolve(__dirname, '..', 'src', 'config.ts'), 'utf8');
  const body = source.slice(source.indexOf('export function loadConfig('));
  const read = new Set([...body.matchAll(/\b(?:value|positiveInt|limit|oneOf)\('([A-Z][A-Z0-9_]+)'/g), ...body.matchAll(/'([A-Z][A-Z0-9_]+)'(?=[,\]])/g)].map((m) => m[1]));
  const listedButNotRead = [...SETTINGS].filter((name) => !read.has(name) && !name.startsWith('LABDESK_'));
  const readButNotListed = [...read].filter((name) => !SETTINGS.has(name));
  expect({ listedButNotRead, readButNotListed }).toEqual({ listedButNotRead: [], readButNotListed: [] });
  expect(SETTINGS.size).toBeGreaterThan(70);
});

test('a misspelled prefixed variable is named with the closest setting; others are left alone', () => {
  expect(unknownSettingWarnings({ LLM_MODLE: 'gpt-5', A2A_SOMETHING_NEW: '1', S3_BUKET: 'b', LLM_MODEL: 'gpt-5', HOME: '/root', NODE_ENV: 'production', MY_S3_THING: 'x' })).toEqual([
    'A2A_SOMETHING_NEW is not a setting labdesk reads, so it is ignored',
    'LLM_MODLE is not a setting labdesk reads, so it is ignored (did you mean LLM_MODEL?)',
    'S3_BUKET is not a setting labdesk reads, so it is ignored (did you mean S3_BUCKET?)',
  ]);
  // Too far from any setting for a guess (AGENT_SANDBOX_MEMORY_BYTES is 6 edits away): named, without one.
  expect(loadConfig({ AGENT_SANDBOX_MEMORY: '1' }).warnings).toEqual(['AGENT_SANDBOX_MEMORY is not a setting labdesk reads, so it is ignored']);
});

test('the service says so at start, once per variable', async () => {
  const warnings: string[] = [];
  const quiet = () => undefined;
  const logger: Logger = { debug: quiet, info: quiet, error: quiet, warn: (msg) => void warnings.push(msg) };
  const t = await startTestApp({ A2A_WAIT_SECONS: '5' }, { logger });
  try {
    expect(warnings.filter((w) => w.startsWith('A2A_WAIT_SECONS'))).toEqual(['A2A_WAIT_SECONS is not a setting labdesk reads, so it is ignored (did you mean A2A_WAIT_SECONDS?)']);
  } finally {
    await t.close();
  }
});
