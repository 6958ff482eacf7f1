import type { Services } from '../../../context';
import { AppError } from '../../../errors';
import type { ToolCall, ToolResult, ToolSpec } from '../../../llm/language-model';
import { cutText } from '../../../llm/prompt';
import type { Logger } from '../../../logger';
import { LANGUAGES } from '../workspace/jail';
import { isPeerSend, isPeerTool, PeerCallContext, runPeerTool } from '../peers/peer-tools';

export { workspaceOf } from '../../a2a/a2a-workspace';

/** Most characters of one tool result fed back to the model (the rest is cut, and it says so). */
export const TOOL_OUTPUT_CHARS = 16_000;
/** Largest read the model may ask for at once. */
const READ_BYTES = 64 * 1024;

const language = { type: 'string', enum: LANGUAGES, description: 'python (Debian python3) or shell (bash)' };
const path = (description: string) => ({ type: 'string', minLength: 1, maxLength: 1024, description });

/**
 * The agent's tools on its workspace (docs/api/workspace.md). `run_code` and `start_job`
 * run code: they are execution-type and need the caller's approval unless its context allowed
 * them for the session.
 */
export const AGENT_TOOLS: ToolSpec[] = [
  {
    name: 'run_code',
    description:
      'Runs a program in the sandboxed workspace (working directory /workspace, no network) and answers its exit code, stdout and stderr. Files written to outputs/ are returned to the caller as artifacts.',
    inputSchema: {
      type: 'object',
      properties: { language, code: { type: 'string', minLength: 1 }, timeoutSeconds: { type: 'integer', minimum: 1, maximum: 300 } },
      required: ['language', 'code'],
      additionalProperties: false,
    },
  },
  {
    name: 'start_job',
    description:
      'Starts a long program in the background in the workspace and answers its job id at once; the task completes only when the job has finished.',
    inputSchema: {
      type: 'object',
      properties: { language, code: { type: 'string', minLength: 1 } },
      required: ['language', 'code'],
      additionalProperties: false,
    },
  },
  {
    name: 'check_job',
    description:
      'Answers the state of a background job (running, succeeded, failed, timed_out, lost), its exit code and the end of its log.',
    inputSchema: { type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'], additionalProperties: false },
  },
  {
    name: 'read_file',
    description: `Reads a text file of the workspace (at most ${READ_BYTES} bytes from offset).`,
    inputSchema: {
      type: 'object',
      properties: { path: path('relative to the workspace'), offset: { type: 'integer', minimum: 0 } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'write_file',
    description: 'Writes (replaces) a text file of the workspace, making its directories.',
    inputSchema: {
      type: 'object',
      properties: { path: path('relative to the workspace'), content: { type: 'string' } },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
  {
    name: 'list_files',
    description: 'Lists a directory of the workspace (default its top).',
    inputSchema: { type: 'object', properties: { path: path('relative to the workspace; "." for the top') }, additionalProperties: false },
  },
];

const EXECUTION_TOOLS = new Set(['run_code', 'start_job']);

/**
 * Whether the call runs code or sends a message to another agent (and so needs an approval). A
 * malformed call runs nothing: it is answered its error.
 */
export const isExecution = (call: ToolCall) => (EXECUTION_TOOLS.has(call.name) || isPeerSend(call.name)) && !call.error;

/** Whether the call waits for the caller's approval: code only where a sandbox can run it (else it is answered its error), messages to agents always. */
export const needsCallerApproval = (call: ToolCall, sandboxAvailable: boolean) =>
  isExecution(call) && (sandboxAvailable || isPeerSend(call.name));

/** What the approval request says will run: the tool, the language and the start of the code, or the start of the message to the agent. */
export function approvalSummary(calls: ToolCall[]): string {
  return calls
    .filter(isExecution)
    .map((call) => {
      const input = call.input as { language?: string; code?: string; message?: string };
      const text = String((isPeerSend(call.name) ? input.message : input.code) ?? '')
        .replace(/\s+/g, ' ')
        .trim();
      const what = isPeerSend(call.name) ? `${call.name} (message to an external agent)` : `${call.name} (${input.language})`;
      return `${what}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
    })
    .join('; ');
}

export interface ToolContext extends PeerCallContext {
  services: Pick<Services, 'agent'> & PeerCallContext['services'];
  workspace: string;
  /** Aborted when the task is canceled or the turn's attempt ends: a running program is killed. */
  signal: AbortSignal;
  logger: Logger;
  /** Called with the id of a job the call started (the turn waits for it). */
  jobStarted: (jobId: string) => void;
}

/** Cuts a result to TOOL_OUTPUT_CHARS, saying how much was cut. */
const bounded = (text: string) => cutText(text, TOOL_OUTPUT_CHARS);

/**
 * Runs one call and answers its result for the model. A refused or failing call is an error
 * result the model can act on (never thrown): its message, with the fields at fault.
 */
export async function runTool(call: ToolCall, context: ToolContext): Promise<ToolResult> {
  const base = { toolCallId: call.id, toolName: call.name };
  if (call.error) return { ...base, output: `invalid call: ${call.error}`, isError: true };
  try {
    const input = call.input as Record<string, unknown>;
    const output = isPeerTool(call.name)
      ? await runPeerTool(call.name, input, context)
      : JSON.stringify(await execute(call.name, input, context));
    return { ...base, output: bounded(output) };
  } catch (error) {
    if (error instanceof AppError) {
      const fields = error.issues?.map((issue) => `${issue.path.join('.')}: ${issue.msg}`).join('; ');
      return { ...base, output: bounded(fields ? `${error.message} (${fields})` : error.message), isError: true };
    }
    context.logger.error('A2A tool failed', { tool: call.name, error: error instanceof Error ? error.stack : String(error) });
    return { ...base, output: 'the tool failed on an internal error', isError: true };
  }
}

async function execute(
  name: string,
  input: Record<string, unknown>,
  { services, workspace, signal, jobStarted }: ToolContext,
): Promise<unknown> {
  const { workspaces, jobs } = services.agent;
  switch (name) {
    case 'run_code': {
      const run = await workspaces.run(
        {
          workspace,
          language: input.language as never,
          code: input.code as string,
          timeoutSeconds: input.timeoutSeconds as number | undefined,
        },
        signal,
      );
      return {
        exitCode: run.exitCode,
        signal: run.signal,
        timedOut: run.timedOut,
        stdout: run.stdout,
        stderr: run.stderr,
        truncated: run.truncated,
        diskExceeded: run.diskExceeded,
      };
    }
    case 'start_job': {
      const job = await jobs.start({ workspace, language: input.language as never, code: input.code as string });
      jobStarted(job.id);
      return { jobId: job.id, state: job.state };
    }
    case 'check_job': {
      const job = await jobs.check(workspace, input.jobId as string);
      return { jobId: job.id, state: job.state, exitCode: job.exitCode, signal: job.signal, outputTail: job.outputTail };
    }
    case 'read_file':
      return workspaces.readFile(workspace, input.path as string, { maxBytes: READ_BYTES, offset: input.offset as number | undefined });
    case 'write_file':
      return workspaces.writeFile(workspace, input.path as string, input.content as string);
    case 'list_files':
      return workspaces.list(workspace, (input.path as string | undefined) ?? '.');
    default:
      throw new AppError('VALIDATION_FAILED', `no tool named ${name.slice(0, 64)}`);
  }
}
