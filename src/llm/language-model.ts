import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText, type LanguageModel } from 'ai';
import type { LlmConfig } from '../config';
import { StreamBrokenError, withRetries } from './retry';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  /** The instructions; never holds user or record content. */
  system: string;
  messages: ChatTurn[];
  maxOutputTokens?: number;
  /** Cancels the call (and any wait before a retry). */
  signal?: AbortSignal;
}

export interface Completion {
  text: string;
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
   */
  stream(request: CompletionRequest, onText: (piece: string) => void): Promise<Completion>;
}

const OPENAI_URL = 'https://api.openai.com/v1';

/** The model named by the configuration, behind the Vercel AI SDK (hand-written HTTP nowhere). */
export function createLanguageModel(config: LlmConfig): LanguageModelClient {
  const sdkModel: LanguageModel =
    config.provider === 'anthropic'
      ? createAnthropic({ baseURL: config.baseUrl, apiKey: config.apiKey ?? '' })(config.model)
      : createOpenAICompatible({ name: 'openai', baseURL: config.baseUrl ?? OPENAI_URL, apiKey: config.apiKey, includeUsage: true })(config.model);
  const label = `${config.provider} model ${config.model}`;
  return {
    provider: config.provider,
    model: config.model,
    async complete(request) {
      const { value, attempts } = await withRetries(label, { timeoutMs: config.timeoutSeconds * 1000, maxRetries: config.maxRetries, signal: request.signal }, (signal) =>
        // The SDK's own retries are off: ours honour Retry-After, cap the wait and name the model.
        generateText({ model: sdkModel, system: request.system, messages: request.messages, maxOutputTokens: request.maxOutputTokens, maxRetries: 0, abortSignal: signal }),
      );
      return { text: value.text, tokensIn: value.usage.inputTokens ?? 0, tokensOut: value.usage.outputTokens ?? 0, attempts };
    },
    async stream(request, onText) {
      const policy = { timeoutMs: config.timeoutSeconds * 1000, maxRetries: config.maxRetries, signal: request.signal };
      const { value, attempts } = await withRetries(label, policy, async (signal) => {
        const result = streamText({ model: sdkModel, system: request.system, messages: request.messages, maxOutputTokens: request.maxOutputTokens, maxRetries: 0, abortSignal: signal });
        let text = '';
        try {
          for await (const part of result.fullStream) {
            if (part.type === 'error') throw part.error;
            if (part.type === 'text-delta') {
              text += part.text;
              onText(part.text);
            }
          }
          const usage = await result.totalUsage;
          return { text, tokensIn: usage.inputTokens ?? 0, tokensOut: usage.outputTokens ?? 0 };
        } catch (error) {
          // Text already handed on cannot be taken back, so the call cannot start again.
          throw text ? new StreamBrokenError(error) : error;
        }
      });
      return { ...value, attempts };
    },
  };
}





