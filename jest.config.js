/**
 * Suites whose subject does not depend on which PostgreSQL serves: the code sandbox, the pages in
 * Chromium, fuzzing and input validation, memory and agent bounds, the embedded database's own
 * suite, static checks, traces. CI's second pass, on the embedded database (LABDESK_TESTS_ONCE=done),
 * leaves them to the first.
 */
const ONCE = [
  'workspace',
  'workspace-race',
  'sandbox-e2e',
  'browser',
  'fuzz',
  'validation',
  'graphql-hardening',
  'board-memory',
  'a2a-bounds',
  'embedded',
  'sign-on',
  'console',
  'role-days',
  'role-days-phone',
  'layers',
  'layout',
  'unit',
  'telemetry',
  'pubsub-outage',
  'sharing-browser',
];

/**
 * Packages that ship as ESM only, compiled to CommonJS for the tests (Node loads them with
 * require(esm); Jest does not): `jose` (required by @a2a-js/sdk), `openid-client` with its
 * parts, and secretlint (share links' masking); `oidc-provider`, the tests' OpenID provider, runs
 * in a process of its own.
 */
const ESM_ONLY = '(jose|openid-client|oauth4webapi|@secretlint)';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env.LABDESK_TESTS_ONCE === 'done' ? ONCE.map((name) => `/test/${name}\\.test\\.ts$`) : []),
  ],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
    [`/node_modules/${ESM_ONLY}/.+\\.js$`]: ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
  setupFiles: ['<rootDir>/test/support/fresh-metadata.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  // Jest's default on a 2-core machine is one worker; the suites mostly wait on PostgreSQL, HTTP
  // and child processes, so two share the machine well (CI's run on both databases went from 18 min 51 s to 11 min 27 s).
  maxWorkers: 2,
};
