/**
 * The floor of bench:request-path: a trivial Express handler in its own process, with the
 * app's Express settings, answering a JSON body the size of `GET /api/me`'s. What no request
 * of ours can beat on this machine, measured the same way, so figures can be read as ratios.
 */
import express from 'express';

const body = {
  user_id: 'usr_0123456789abcdef',
  email: 'floor@bench.example',
  name: 'Floor',
  phone: null,
  plan_code: 'free',
  plan_source: 'default',
  plan_expires_at: null,
  effective_tier: 'free',
  is_admin: false,
  disabled: false,
  domain: 'bench.example',
  institution: null,
  institution_tier: null,
  institution_type: null,
  institution_name: null,
  storage_quota_bytes: 1073741824,
  storage_used_bytes: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  last_active_at: '2026-01-01T00:00:00.000Z',
};

const app = express();
app.disable('x-powered-by');
app.set('query parser', 'simple');
app.get('/floor', (_req, res) => void res.json(body));
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
