import { Ctx, requireViewer } from '../../context';
import { forbidden } from '../../errors';
import type { Viewer } from '../auth/auth.service';

/** Admin area gate: signed in (else 401) and `is_admin` (else 403). */
export async function requireAdmin(ctx: Ctx): Promise<Viewer> {
  const viewer = await requireViewer(ctx);
  if (!viewer.user.isAdmin) throw forbidden('admin only');
  return viewer;
}
