import { ConfigError, loadConfig, redactUrl, SETTINGS, unknownSettingWarnings } from '../src/config';
import type { Logger } from '../src/logger';
import { startTestApp } from './support/app';

/**
 * Misspelled settings (docs/operations.md, "Configuration"): a variable with one of the service's
 * prefixes that no setting has is named at start, with the closest setting.
 */
test("loadConfig reads no variable that SETTINGS does not list, and SETTINGS lists nothing else but the tools' LABDESK_ ones", () => {
  const read = new Set<string>();
  const recording = new Proxy(
    {},
    {
      get: (_target, name) => void (typeof name === 'string' && read.add(name)),
    },
  );
  loadConfig(recording);
  const readButNotListed = [...read].filter((name) => !SETTINGS.has(name));
  const listedButNotRead = [...SETTINGS].filter((name) => !read.has(name) && !name.startsWith('LABDESK_'));
  expect({ readButNotListed, listedButNotRead }).toEqual({ readButNotListed: [], listedButNotRead: [] });
  expect(read.size).toBeGreaterThan(70);
});

test('each setting is parsed by its schema: every problem at once, with the text that was wrong, and the defaults', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      return (error as Error).message
        .split('\n')
        .slice(1)
        .map((line) => line.replace(/^ {2}- /, ''));
    }
  };
  expect(
    problems({
      PORT: '70000',
      A2A_WAIT_SECONDS: '601',
      RATE_LIMIT_TOKEN_PER_MINUTE: '-5',
      S3_FORCE_PATH_STYLE: 'yes',
      CORS_ALLOWED_ORIGINS: 'https://a.example, *',
      DATABASE_POOL_SIZE: '1',
    }),
  ).toEqual([
    'PORT must be an integer 0-65535 (got "70000")',
    'DATABASE_POOL_SIZE must be at least 2 (one connection holds the migration lock while another runs them)',
    'S3_FORCE_PATH_STYLE must be one of false, true (got "yes")',
    'RATE_LIMIT_TOKEN_PER_MINUTE must be a whole number, 0 for no limit (got "-5")',
    'CORS_ALLOWED_ORIGINS: "*" is not an origin (scheme://host[:port], no path or trailing slash)',
    'A2A_WAIT_SECONDS must be at most 600 (a request held open longer outlives proxies)',
  ]);
  // Spaces around a value are dropped and an empty variable is unset: its default applies.
  const config = loadConfig({ PORT: ' 9090 ', LOG_LEVEL: '', RATE_LIMIT_AUTH_PER_MINUTE: '0', S3_FORCE_PATH_STYLE: 'true' });
  expect({ port: config.port, logLevel: config.logLevel, auth: config.rateLimits.authPerMinute }).toEqual({
    port: 9090,
    logLevel: 'info',
    auth: 0,
  });
});

test('a misspelled prefixed variable is named with the closest setting; others are left alone', () => {
  expect(
    unknownSettingWarnings({
      LLM_MODLE: 'gpt-5',
      A2A_SOMETHING_NEW: '1',
      S3_BUKET: 'b',
      LLM_MODEL: 'gpt-5',
      HOME: '/root',
      NODE_ENV: 'production',
      MY_S3_THING: 'x',
    }),
  ).toEqual([
    'A2A_SOMETHING_NEW is not a setting labdesk reads, so it is ignored',
    'LLM_MODLE is not a setting labdesk reads, so it is ignored (did you mean LLM_MODEL?)',
    'S3_BUKET is not a setting labdesk reads, so it is ignored (did you mean S3_BUCKET?)',
  ]);
  // Too far from any setting for a guess (AGENT_SANDBOX_MEMORY_BYTES is 6 edits away): named, without one.
  expect(loadConfig({ AGENT_SANDBOX_MEMORY: '1' }).warnings).toEqual([
    'AGENT_SANDBOX_MEMORY is not a setting labdesk reads, so it is ignored',
  ]);
});

test('the service says so at start, once per variable', async () => {
  const warnings: string[] = [];
  const quiet = () => undefined;
  const logger: Logger = { debug: quiet, info: quiet, error: quiet, warn: (msg) => void warnings.push(msg) };
  const t = await startTestApp({ A2A_WAIT_SECONS: '5' }, { logger });
  try {
    expect(warnings.filter((w) => w.startsWith('A2A_WAIT_SECONS'))).toEqual([
      'A2A_WAIT_SECONS is not a setting labdesk reads, so it is ignored (did you mean A2A_WAIT_SECONDS?)',
    ]);
  } finally {
    await t.close();
  }
});

/**
 * Security issue 36, finding 9: a message that shows a setting's text never shows the user-info
 * of a URL (user and password), whether the URL parses or not, for every setting a URL goes in.
 */
test('redactUrl writes user and password as ***, also in text that does not parse as a URL', () => {
  const cases = [
    'ftp://ak:S3EndpointSecret@h',
    'postgres://labdesk:pw@db:5432/labdesk',
    'redis://:pw@cache:6379',
    'smtp://mailer@mail.example.org:587',
    'https://ak:p@ss/w@rd@[bad',
    'http:/ak:pw@h',
    'ak:pw@h',
    'Request cannot be constructed from a URL that includes credentials: http://u:pw@127.0.0.1:1/x',
    'https://api.example.org/v1',
  ];
  expect(cases.map(redactUrl)).toEqual([
    'ftp://***:***@h',
    'postgres://***:***@db:5432/labdesk',
    'redis://***:***@cache:6379',
    'smtp://***@mail.example.org:587',
    'https://***:***@[bad',
    '***:***@h',
    '***:***@h',
    'Request cannot be constructed from a URL that includes credentials: http://***:***@127.0.0.1:1/x',
    'https://api.example.org/v1',
  ]);
});

test('no configuration error shows the user or password of a URL setting, whatever is wrong with the URL', () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(env)}`);
  };
  expect(message({ S3_ENDPOINT: 'ftp://ak:S3EndpointSecret@h' })).toContain('S3_ENDPOINT must be an http(s) URL (got "ftp://***:***@h")');

  // A wrong scheme, a URL that does not parse, a slash missing, an unescaped @ or / in the password.
  const values = [
    'ftp://akUser:hunter2Secret@h',
    'https://akUser:hunter2Secret@[h',
    'http:/akUser:hunter2Secret@h',
    'ftp://akUser:hunter2@Secret@h',
    'ftp://akUser:hunter2/Secret@h',
  ];
  const URL_SETTINGS = [
    'DATABASE_URL',
    'REDIS_URL',
    'S3_ENDPOINT',
    'S3_PUBLIC_ENDPOINT',
    'LLM_BASE_URL',
    'SMTP_URL',
    'OIDC_ISSUER',
    'PUBLIC_URL',
    'CORS_ALLOWED_ORIGINS',
    'FIGURE_CDN_HOSTS',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  ];
  const shown = URL_SETTINGS.flatMap((name) => values.map((value) => ({ name, value, message: message({ [name]: value }) })));
  expect(shown.filter(({ name, message }) => !message.includes(name))).toEqual([]);
  expect(shown.filter(({ message }) => /hunter2|akUser/.test(message))).toEqual([]);

  // Parsed, but refused by the rules joining settings: an http issuer off loopback.
  const issuer = message({ OIDC_ISSUER: 'http://akUser:hunter2Secret@id.example.org', OIDC_CLIENT_ID: 'labdesk', OIDC_CLIENT_SECRET: 'x' });
  expect(issuer).toContain('OIDC_ISSUER must be an https URL (http only on a loopback address) (got "http://***:***@id.example.org")');
});
