import { sha256Hex } from '../../ids';

/**
 * The workspace of a principal's context. Two principals may use the same context id (each has
 * its own conversations), so the name is derived from both: a caller cannot reach another's files
 * by naming its context.
 */
export function workspaceOf(principal: string, contextId: string): string {
  return `a2a-${sha256Hex(`${principal}\n${contextId}`).slice(0, 40)}`;
}

/** A file of a workspace's `outputs/`. */
export interface WorkspaceOutput {
  /** Path below `outputs/`. */
  name: string;
  size: number;
  /** Last modification (ms since the epoch): with the size, tells a file changed by a turn. */
  modifiedMs: number;
}

/**
 * What A2A needs of the agent's workspaces (a port: the agent's `Workspaces` is one): saving a
 * message's files into `inputs/`, and taking a turn's `outputs/` as artifacts.
 * @throws AppError CONFLICT from `writeFile` when `exclusive` and the file exists
 */
export interface ContextWorkspaces {
  writeFile(workspace: string, relPath: string, content: Buffer, options: { exclusive: boolean }): Promise<unknown>;
  listOutputs(workspace: string): Promise<WorkspaceOutput[]>;
  readOutput(workspace: string, name: string, maxBytes: number): Promise<{ name: string; mediaType: string; bytes: Buffer }>;
  /** Copies an output file to `destination` and answers its size. */
  copyOutput(workspace: string, name: string, destination: string): Promise<number>;
}
