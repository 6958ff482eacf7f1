// A real OpenID provider for the single sign-on tests (`oidc-provider`), in a process of its own:
// the package is ESM only, which Node loads and Jest does not.
//
//   node test/support/oidc-provider.mjs <redirect_uri>...   → prints {"issuer": "http://127.0.0.1:<port>"}
//
// One confidential client (`labdesk` / `test-secret`, PKCE required). Its development sign-in
// form takes any login and password; the login decides the person:
//   - the subject is the login (the development form makes it the account id);
//   - the email is what follows the login's last `=` if it has one (`second=ada@example.test`: another
//     person with Ada's email), else the login when it has an `@`, else `<login>@example.test`;
//   - a login that starts with `unverified.` has `email_verified: false`.
import http from 'node:http';
import process from 'node:process';
import Provider from 'oidc-provider';

const redirectUris = process.argv.slice(2);
if (redirectUris.length === 0) {
  process.stderr.write('usage: node test/support/oidc-provider.mjs <redirect_uri>...\n');
  process.exit(2);
}

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'labdesk',
      client_secret: 'test-secret',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  cookies: { keys: ['test-cookie-key'] },
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, sub) {
    const login = sub;
    return {
      accountId: sub,
      async claims() {
        return {
          sub,
          email: login.includes('=') ? login.slice(login.lastIndexOf('=') + 1) : login.includes('@') ? login : `${login}@example.test`,
          email_verified: !login.startsWith('unverified.'),
          name: `Person ${login.split('@')[0]}`,
        };
      },
    };
  },
});
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
