import path from 'node:path';
import type { Services } from '../../context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { releaseArtifactFile, reserveArtifactFile } from './a2a-artifact.repository';
import type { A2aArtifact } from './a2a.types';
import type { ContextWorkspaces } from './a2a-workspace';

/** Files up to this size are inline `raw` parts; larger ones are `url` parts of the artifacts endpoint (spec). */
export const INLINE_ARTIFACT_BYTES = 1024 * 1024;
/** Output files one turn returns at most, and their total size: beyond, they are named in the answer, not attached. */
export const MAX_FILE_ARTIFACTS = 20;
export const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;
/** The artifacts endpoint's path prefix; a `url` part is stored relative and made absolute per caller. */
export const ARTIFACTS_PATH = '/a2a/v1/artifacts';

/** `outputs/` as a map of name → "size:mtime": what a turn compares against to find its new or changed files. */
export async function snapshotOutputs(workspaces: ContextWorkspaces, workspace: string): Promise<Record<string, string>> {
  const files = await workspaces.listOutputs(workspace).catch(() => []);
  return Object.fromEntries(files.map((file) => [file.name, `${file.size}:${file.modifiedMs}`]));
}

/**
 * Where a large artifact's bytes are kept: beside the workspaces (the shared volume every
 * instance mounts), in a directory no sandbox is given, one file per task and index.
 */
export function artifactFilePath(services: Pick<Services, 'config'>, taskId: string, index: number): string {
  return path.join(artifactDirOf(services, taskId), String(index));
}

/** The directory of one task's artifact copies. */
export function artifactDirOf(services: Pick<Services, 'config'>, taskId: string): string {
  return path.join(services.config.agent.rootDir, '.a2a-artifacts', taskId);
}

/**
 * The file artifacts of a finished turn: each file of `outputs/` new or changed since `before`,
 * numbered from `firstIndex` (`<task id>-file-<index>`). Small ones are read inline; larger ones
 * are copied out of the workspace (so later runs cannot change them) and given as a URL. Each is
 * first counted, by its apparent size (a sparse file counts what it claims), against the
 * workspace's and the owner's artifact budgets. Answers the artifacts and the files left out for
 * the caps and budgets.
 */
export async function collectFileArtifacts(
  services: Pick<Services, 'config' | 'agent' | 'orm'>,
  task: { id: string; ownerId: string },
  workspace: string,
  before: Record<string, string>,
  firstIndex: number,
): Promise<{ artifacts: A2aArtifact[]; omitted: string[] }> {
  const taskId = task.id;
  const { workspaces } = services.agent;
  const changed = (await workspaces.listOutputs(workspace).catch(() => [])).filter(
    (file) => before[file.name] !== `${file.size}:${file.modifiedMs}`,
  );
  const artifacts: A2aArtifact[] = [];
  const omitted: string[] = [];
  let total = 0;
  for (const file of changed) {
    if (artifacts.length >= MAX_FILE_ARTIFACTS || total + file.size > MAX_ARTIFACT_BYTES) {
      omitted.push(file.name);
      continue;
    }
    const index = firstIndex + artifacts.length;
    const described = { filename: file.name, mediaType: file.mediaType };
    const em = services.orm.em.fork() as EntityManager;
    const counted = { taskId, idx: index, ownerId: task.ownerId, workspace, bytes: file.size };
    if (!(await reserveArtifactFile(em, counted, services.config.a2aArtifacts))) {
      omitted.push(file.name);
      continue;
    }
    try {
      if (file.size <= INLINE_ARTIFACT_BYTES) {
        const read = await workspaces.readOutput(workspace, file.name, INLINE_ARTIFACT_BYTES);
        total += read.bytes.length;
        artifacts.push({
          artifactId: `${taskId}-file-${index}`,
          name: file.name,
          parts: [{ raw: read.bytes.toString('base64'), ...described }],
        });
      } else {
        total += await workspaces.copyOutput(workspace, file.name, artifactFilePath(services, taskId, index));
        artifacts.push({
          artifactId: `${taskId}-file-${index}`,
          name: file.name,
          parts: [{ url: `${ARTIFACTS_PATH}/${encodeURIComponent(taskId)}/${index}`, ...described }],
        });
      }
    } catch {
      // Removed or swapped for a link since the listing (or grown past the inline bound): not attached.
      await releaseArtifactFile(em, counted).catch(() => undefined);
      omitted.push(file.name);
    }
  }
  return { artifacts, omitted };
}

/** Artifacts as a caller sees them: the endpoint's relative `url` parts made absolute on `baseUrl`. */
export function withAbsoluteUrls(artifacts: A2aArtifact[] | undefined, baseUrl: string): A2aArtifact[] | undefined {
  return artifacts?.map((artifact) => {
    const { parts } = artifact;
    if (!parts.some((part) => typeof part.url === 'string' && part.url.startsWith(`${ARTIFACTS_PATH}/`))) return artifact;
    return {
      ...artifact,
      parts: parts.map((part) =>
        typeof part.url === 'string' && part.url.startsWith(`${ARTIFACTS_PATH}/`) ? { ...part, url: `${baseUrl}${part.url}` } : part,
      ),
    };
  });
}
