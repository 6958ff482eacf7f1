import { MASK_PATTERN, maskRecord, maskText } from '../src/modules/sharing/secret-masking';
import { PEM, PLANTED, plantedTranscript } from './support/secrets';

/**
 * What a share link takes out of a record: one planted secret of each kind a reviewer's transcript
 * holds (an agent that printed its environment, read a config file, called an API), each gone
 * from the text, with the rest of the text kept.
 */
const transcript = plantedTranscript();

test('every planted secret is masked, and the text around them is kept', async () => {
  const { text, masked } = await maskText(transcript);
  for (const [kind, secret] of Object.entries(PLANTED)) expect({ kind, leaked: text.includes(secret) }).toEqual({ kind, leaked: false });
  // No part of the private key's body either.
  expect(text).not.toContain('MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0t');
  expect(masked).toBeGreaterThanOrEqual(Object.keys(PLANTED).length);
  expect(text).toContain('The fit converged after 12 iterations (R² = 0.93).');
  expect(text).toContain('ada@lab.example.org'); // e-mail addresses only when asked
  expect(text.match(MASK_PATTERN)!.length).toBe(masked);
});

test('e-mail addresses are masked when asked', async () => {
  const { text } = await maskText('write to ada@lab.example.org or bob.smith+x@uni.example.ac.uk', { emails: true });
  expect(text).toBe('write to ⟦masked: e-mail address⟧ or ⟦masked: e-mail address⟧');
});

test('a record is masked string by string: JSON stays JSON, a key whose line breaks JSON escapes is found', async () => {
  const record = JSON.stringify({
    uuid: 'u1',
    type: 'user',
    message: { content: [{ type: 'tool_result', content: `${PEM}\nand ${PLANTED.github}` }] },
  });
  expect(record).not.toContain('\n'); // the key's line breaks are escapes in the record's text
  const { text, masked } = await maskRecord(record);
  const parsed = JSON.parse(text);
  expect(parsed.uuid).toBe('u1');
  expect(masked).toBe(2);
  expect(text).not.toContain('MIIEowIBAAKCAQEA');
  expect(text).not.toContain(PLANTED.github);
  expect(await maskRecord('{"uuid":"u2","message":{"content":"nothing secret here, only a long sentence"}}')).toEqual({
    text: '{"uuid":"u2","message":{"content":"nothing secret here, only a long sentence"}}',
    masked: 0,
  });
});

test('texts masked at the same time each get their own spans', async () => {
  const texts = Array.from({ length: 50 }, (_, i) => `${'x '.repeat(i)}token ${PLANTED.github} end ${i}`);
  const masked = await Promise.all(texts.map((text) => maskText(text)));
  expect(masked.map((one) => one.text)).toEqual(texts.map((_, i) => `${'x '.repeat(i)}token ⟦masked: GitHub token⟧ end ${i}`));
});

test('a secret is also known by its name or its prefix, whatever its shape; prose and counts stay', async () => {
  const shortKey = `sk-proj-${'a1B2c3'.repeat(8)}`; // no marker inside: the preset's OpenAI rule does not know it
  const masked = async (text: string) => (await maskText(text)).text;
  expect(await masked(`OPENAI_API_KEY=${shortKey}`)).toBe('OPENAI_API_KEY=⟦masked: OpenAI key⟧');
  expect(await masked('SERVICE_TOKEN=plain-but-secret')).toBe('SERVICE_TOKEN=⟦masked: secret value⟧');
  expect(await masked(`the key ${shortKey} was printed`)).toBe('the key ⟦masked: OpenAI key⟧ was printed');
  expect(await masked('export DB_PASSWORD="s3cr3t-pass" && ./run')).toBe('export DB_PASSWORD="⟦masked: secret value⟧" && ./run');
  expect(await masked('curl "https://api.example.com/v1?api_key=abcdef123456&page=2"')).toBe(
    'curl "https://api.example.com/v1?api_key=⟦masked: secret value⟧&page=2"',
  );
  expect(await masked('db:\n  password: hunter22\n  clientSecret: averyveryverylongvalue')).toBe(
    'db:\n  password: ⟦masked: secret value⟧\n  clientSecret: ⟦masked: secret value⟧',
  );
  // Prose, and names that count tokens, are not secrets.
  for (const text of ['Use the token: carefully, then the secret: elsewhere.', 'max_tokens=409600 temperature=0.2', 'tokens: 12345678'])
    expect(await masked(text)).toBe(text);
  // In a record, a value under a secret's name is masked whole.
  const record = await maskRecord(JSON.stringify({ input: { api_key: 'plainvalue', password: 'x', max_tokens: 'sixteen' } }));
  expect(JSON.parse(record.text)).toEqual({ input: { api_key: '⟦masked: secret value⟧', password: 'x', max_tokens: 'sixteen' } });
  expect(record.masked).toBe(1);
});
