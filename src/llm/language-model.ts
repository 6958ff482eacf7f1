import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool, type JSONSchema7, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import Ajv, { type ValidateFunction } from 'ajv';
import type { LlmConfig } from '../config';
import { StreamBrokenError, withRetries } from './retry';

/** A tool the model may ask for; the caller runs it (the SDK never does). */
export interface ToolSpec {
  /** `^[A-Za-z0-9_-]{1,64}$`, as both providers require. */
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: Record<string, unknown>;
}

/** A tool call the model asked for. */
export interface ToolCall {
  /** The provider's id; the tool result names it. */
  id: string;
  name: string;
  /** The parsed input (the raw text when it was not JSON). */
  input: unknown;
  /**
   * Set when the call cannot be run as asked: its input is not JSON, does not match the tool's
   * schema, or names a tool that was not offered. Feed it back as an error result (`isError`)
   * so the model can correct itself.
   */
  error?: string;
}

/** The outcome of one tool call, sent back to the model. */
export interface ToolResult {
  toolCallId: string;
  toolName: string;
  /** A string goes as text, anything else as JSON. */
  output: unknown;
  isError?: boolean;
}

/**
 * One message of the conversation. A tool loop sends back the assistant's turn with its tool
 * calls, then one `tool` message with their results.
 */
export type ChatTurn =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; results: ToolResult[] };

export interface CompletionRequest {
  /** The instructions; never holds user or record content. */
  system: string;
  messages: ChatTurn[];
  maxOutputTokens?: number;
  /** Tools the model may call. One call is one model step: calls come back, they are not run. */
  tools?: ToolSpec[];
  /** Cancels the call (and any wait before a retry). */
  signal?: AbortSignal;
}

export interface Completion {
  text: string;
  /** What the model asked to run, in its order; empty without tools or when it answered. */
  toolCalls: ToolCall[];
  /** As the provider reported them (0 when it reported none). */
  tokensIn: number;
  tokensOut: number;
  /** Attempts made, retries included. */
  attempts: number;
}

/** The one interface the features call; providers differ only in how it is built. */
export interface LanguageModelClient {
  readonly provider: LlmConfig['provider'];
  readonly model: string;
  complete(request: CompletionRequest): Promise<Completion>;
  /**
   * The same call, its text handed to `onText` piece by piece as the server sends it. Retried
   * like `complete` only until the first piece arrived: after that a failure ends the call.
   * Tool calls arrive whole, in the completion.
   */
  stream(request: CompletionRequest, onText: (piece: string) => void): Promise<Completion>;
}

const ajv = new Ajv({ allErrors: false, strict: false });
/** Compiled once per schema object: a tool loop offers the same specs on every step. */
const validators = new WeakMap<object, ValidateFunction>();

/** The SDK's tool set: schemas checked by Ajv (the SDK's `jsonSchema` alone checks nothing), no `execute`. */
function toolSet(tools: ToolSpec[] | undefined): ToolSet | undefined {
  if (!tools?.length) return undefined;
  return Object.fromEntries(
    tools.map((spec) => {
      let validate = validators.get(spec.inputSchema);
      if (!validate) validators.set(spec.inputSchema, (validate = ajv.compile(spec.inputSchema)));
      const check = validate;
      const schema = jsonSchema(spec.inputSchema as JSONSchema7, {
        validate: (value) =>
          check(value)
            ? { success: true, value }
            : {
                success: false,
                error: new Error(`input does not match the schema: ${ajv.errorsText(check.errors, { dataVar: 'input' })}`),
              },
      });
      return [spec.name, tool({ description: spec.description, inputSchema: schema })];
    }),
  );
}

/** Our turns in the SDK's message form, which each provider package turns into its own. */
function toModelMessages(turns: ChatTurn[]): ModelMessage[] {
  return turns.map((turn): ModelMessage => {
    if (turn.role === 'user') return { role: 'user', content: turn.content };
    if (turn.role === 'tool') {
      return {
        role: 'tool',
        content: turn.results.map((result) => ({
          type: 'tool-result' as const,
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          output:
            typeof result.output === 'string'
              ? { type: result.isError ? ('error-text' as const) : ('text' as const), value: result.output }
              : { type: result.isError ? ('error-json' as const) : ('json' as const), value: (result.output ?? null) as never },
        })),
      };
    }
    if (!turn.toolCalls?.length) return { role: 'assistant', content: turn.content };
    return {
      role: 'assistant',
      content: [
        ...(turn.content ? [{ type: 'text' as const, text: turn.content }] : []),
        // A call whose input was not an object still goes back as one (providers require an object).
        ...turn.toolCalls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: isObject(call.input) ? call.input : {},
        })),
      ],
    };
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The SDK's tool calls (invalid ones carry their error) as ours. */
function toolCallsOf(calls: { toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown }[]): ToolCall[] {
  return calls.map((call) => ({
    id: call.toolCallId,
    name: call.toolName,
    input: call.input,
    ...(call.invalid ? { error: describeToolError(call.error) } : {}),
  }));
}

/** What went wrong with a call's input, in words the model can act on (never a stack). */
function describeToolError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'AI_NoSuchToolError') return `no tool named so was offered`;
    const cause = (error as { cause?: unknown }).cause;
    if (error.name === 'AI_InvalidToolInputError' && cause instanceof Error) {
      return cause.name === 'AI_JSONParseError'
        ? 'input is not valid JSON'
        : cause.message.replace(/^Type validation failed: Value: .*?\.\nError message: /s, '');
    }
    return error.message;
  }
  return 'invalid tool call';
}

/** Why a model feature is unavailable on a service without a provider. */
export const NO_MODEL = 'no language model is configured (LLM_PROVIDER is unset)';

const OPENAI_URL = 'https://api.openai.com/v1';

/** The model named by the configuration, behind the Vercel AI SDK (hand-written HTTP nowhere). */
export function createLanguageModel(config: LlmConfig): LanguageModelClient {
  const sdkModel: LanguageModel =
    config.provider === 'anthropic'
      ? createAnthropic({ baseURL: config.baseUrl, apiKey: config.apiKey ?? '' })(config.model)
      : createOpenAICompatible({ name: 'openai', baseURL: config.baseUrl ?? OPENAI_URL, apiKey: config.apiKey, includeUsage: true })(
          config.model,
        );
  const label = `${config.provider} model ${config.model}`;
  // The SDK's own retries are off: ours honour Retry-After, cap the wait and name the model.
  const callOptions = (request: CompletionRequest) => ({
    system: request.system,
    messages: toModelMessages(request.messages),
    tools: toolSet(request.tools),
    maxOutputTokens: request.maxOutputTokens,
    maxRetries: 0,
  });
  return {
    provider: config.provider,
    model: config.model,
    async complete(request) {
      const { value, attempts } = await withRetries(
        label,
        { timeoutMs: config.timeoutSeconds * 1000, maxRetries: config.maxRetries, signal: request.signal },
        (signal) =>
          // No `stopWhen`: one step, so tool calls come back instead of being run.
          generateText({ model: sdkModel, ...callOptions(request), abortSignal: signal }),
      );
      return {
        text: value.text,
        toolCalls: toolCallsOf(value.toolCalls),
        tokensIn: value.usage.inputTokens ?? 0,
        tokensOut: value.usage.outputTokens ?? 0,
        attempts,
      };
    },
    async stream(request, onText) {
      const policy = { timeoutMs: config.timeoutSeconds * 1000, maxRetries: config.maxRetries, signal: request.signal };
      const { value, attempts } = await withRetries(label, policy, async (signal) => {
        // Errors arrive as parts of the stream and are handled there, not logged by the SDK.
        const result = streamText({ model: sdkModel, ...callOptions(request), abortSignal: signal, onError: () => undefined });
        let text = '';
        try {
          for await (const part of result.fullStream) {
            if (part.type === 'error') throw part.error;
            if (part.type === 'text-delta') {
              text += part.text;
              onText(part.text);
            }
          }
          const [usage, toolCalls] = await Promise.all([result.totalUsage, result.toolCalls]);
          return { text, toolCalls: toolCallsOf(toolCalls), tokensIn: usage.inputTokens ?? 0, tokensOut: usage.outputTokens ?? 0 };
        } catch (error) {
          // Text already handed on cannot be taken back, so the call cannot start again.
          throw text ? new StreamBrokenError(error) : error;
        }
      });
      return { ...value, attempts };
    },
  };
}
