import { makeUser, startTestApp, TestApp } from './support/app';
let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });
test('probe', async () => {
  const out: string[] = [];
  for (let i = 0; i < 8; i++) {
    const user = await makeUser(t);
    const s = await t.call('POST', '/api/auth/cli/start');
    await t.call('POST', '/api/auth/cli/approve', { token: user.token, body: { user_code: s.body.user_code } });
    const p = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: s.body.device_code } });
    const replies = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', '/api/auth/refresh', { body: { refresh_token: p.body.refresh_token } })));
    const win = replies.find((r) => r.status === 200)!;
    const m = await t.call('GET', '/api/me', { token: win.body.access_token });
    out.push(`${replies.map((r) => r.status).join(',')} winner-me=${m.status}`);
  }
  console.log(out.join('\n'));
});
