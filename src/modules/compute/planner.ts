import { isIntIn, isObject, jsonAnswer } from '../../llm/json-answer';
import type { CompletionRequest } from '../../llm/language-model';
import { dataRulesFor, quoteData, taggedDataBlock } from '../../llm/prompt';
import { checks, unstorable } from '../../validation';
import { credits } from './credits.service';

/** A sandbox machine and what it costs per minute. */
export interface Machine {
  cpus: number;
  memoryGb: number;
  gpu: boolean;
  rateCreditsPerMinute: number;
}

/** The tokens drafting a plan took (a model's as it reported them, or the estimator's nominal ones) and what they cost. */
export interface TokenCharge {
  tokensIn: number;
  tokensOut: number;
  credits: number;
}

export interface PlanInput {
  goal: string;
  inputs?: { name: string; bytes: number }[] | null;
  machine?: { cpus?: number | null; memoryGb?: number | null; gpu?: boolean | null } | null;
}

/** Credits per minute: per CPU, per GB of memory, and for a GPU. */
const RATE = { cpu: 0.01, memoryGb: 0.0025, gpu: 0.5 };
const DEFAULT_MACHINE = { cpus: 2, memoryGb: 8, gpu: false };
/** The largest machine anyone may ask for. */
const LARGEST_MACHINE = { cpus: 64, memoryGb: 512, gpu: true };
/** The planner's nominal token use is charged at this rate (credits per 1,000 tokens). */
const TOKEN_CREDITS_PER_1K = 0.002;
/** The ceiling leaves this much room over the estimate before the lease pauses. */
const CEILING_MARGIN = 1.5;
const MAX_TOTAL_INPUT_BYTES = 10 ** 15;
/** The estimator's shortest run, which a model's plan may not go below either. */
const MIN_MINUTES = 5;

/** A machine with its rate; `path` is where its issues are reported. @throws VALIDATION_FAILED */
export function machineOf(machine: PlanInput['machine'] | undefined, path: (string | number)[]): Machine {
  const cpus = machine?.cpus ?? DEFAULT_MACHINE.cpus;
  const memoryGb = machine?.memoryGb ?? DEFAULT_MACHINE.memoryGb;
  const gpu = machine?.gpu ?? DEFAULT_MACHINE.gpu;
  checks()
    .int([...path, 'cpus'], cpus, { min: 1, max: LARGEST_MACHINE.cpus })
    .int([...path, 'memoryGb'], memoryGb, { min: 1, max: LARGEST_MACHINE.memoryGb })
    .done();
  return { cpus, memoryGb, gpu, rateCreditsPerMinute: credits(cpus * RATE.cpu + memoryGb * RATE.memoryGb + (gpu ? RATE.gpu : 0)) };
}

/** Who wrote a plan's steps, machine and minutes. */
export const DRAFTERS = ['model', 'estimator'] as const;
export type DraftedBy = (typeof DRAFTERS)[number];

export interface Quote {
  draftedBy: DraftedBy;
  machine: Machine;
  steps: string[];
  estimatedMinutes: number;
  estimatedCredits: number;
  spendCeilingCredits: number;
  tokenCharge: TokenCharge;
}

/**
 * The deterministic estimator (no model): steps from the goal and inputs, minutes from the
 * data size, credits from the machine rate. It drafts without a provider, and bounds (and
 * stands in for) a model's plan.
 * @throws VALIDATION_FAILED
 */
export function draftQuote(input: PlanInput): Quote {
  const inputs = input.inputs ?? [];
  const check = checks()
    .text(['input', 'goal'], input.goal, { min: 1, max: 4000 })
    .storable(['input', 'goal'], input.goal)
    .int(['input', 'inputs'], inputs.length, { max: 1000 });
  inputs.forEach((file, i) => {
    check.text(['input', 'inputs', i, 'name'], file.name, { min: 1, max: 500 }).storable(['input', 'inputs', i, 'name'], file.name);
    check.int(['input', 'inputs', i, 'bytes'], file.bytes, { min: 0, max: 10 ** 15 });
  });
  // One petabyte in all keeps every estimate within what the ledger's columns hold.
  const totalBytes = inputs.reduce((sum, file) => sum + (Number.isFinite(file.bytes) ? file.bytes : 0), 0);
  if (totalBytes > MAX_TOTAL_INPUT_BYTES) check.add(['input', 'inputs'], `must total at most ${MAX_TOTAL_INPUT_BYTES} bytes`, 'too_long');
  check.done();
  const machine = machineOf(input.machine, ['input', 'machine']);
  const gigabytes = totalBytes / 1e9;
  const estimatedMinutes = Math.max(MIN_MINUTES, Math.ceil(10 + gigabytes * 6));
  const steps = [
    inputs.length
      ? `Stage ${inputs.length} input file${inputs.length === 1 ? '' : 's'} (${gigabytes.toFixed(2)} GB)`
      : 'Prepare the workspace',
    ...input.goal
      .split(/(?<=[.;])\s+|\n+/)
      .map((part) => part.trim().replace(/[.;]$/, ''))
      .filter(Boolean)
      .slice(0, 8)
      .map((part) => `Run: ${part}`),
    'Collect outputs and figures',
  ];
  // Nominal tokens: what reading the request and writing the plan takes (about 4 characters each).
  const tokensIn = Math.ceil((input.goal.length + inputs.reduce((sum, file) => sum + file.name.length, 0)) / 4) + 200;
  const tokensOut = Math.ceil(steps.join('\n').length / 4) + 100;
  return {
    draftedBy: 'estimator',
    ...priced(machine, steps, estimatedMinutes),
    tokenCharge: { tokensIn, tokensOut, credits: credits(((tokensIn + tokensOut) / 1000) * TOKEN_CREDITS_PER_1K) },
  };
}

/** Credits and ceiling of a plan: always computed here from minutes and the machine's rate, whoever drafted it. */
function priced(machine: Machine, steps: string[], estimatedMinutes: number) {
  const estimatedCredits = credits(estimatedMinutes * machine.rateCreditsPerMinute);
  return {
    machine,
    steps,
    estimatedMinutes,
    estimatedCredits,
    spendCeilingCredits: credits(Math.max(estimatedCredits * CEILING_MARGIN, 0.01)),
  };
}

/** Tokens a drafting call may write. */
const PLAN_ANSWER_TOKENS = 1024;
/** A model's plan has 1 to `MAX_STEPS` steps of at most `MAX_STEP_CHARS` characters each. */
const MAX_STEPS = 20;
const MAX_STEP_CHARS = 300;
/** A model's plan may take at most this many times the estimator's minutes. */
const MAX_MINUTES_FACTOR = 4;
/** Input names quoted in a drafting prompt (the count and total size of all of them are given). */
const MAX_PROMPT_INPUTS = 50;
const PLAN_REQUEST_TAG = 'plan-request';

const PLANNER_SYSTEM =
  'You draft compute plans for a research sandbox: the steps to run, the machine and the minutes it will take. ' +
  'Answer with one JSON object and nothing else: {"steps": ["…"], "machine": {"cpus": <integer>, "memory_gb": <integer>, "gpu": <boolean>}, "estimated_minutes": <integer>}. ' +
  `Give 1 to ${MAX_STEPS} steps of at most ${MAX_STEP_CHARS} characters each. ` +
  dataRulesFor("The user's request (its goal and the names and sizes of its input files)", PLAN_REQUEST_TAG);

/** The largest machine a model's plan may ask for: within machineOf's limits, and never above one the caller chose. */
function machineLimit(input: PlanInput, estimate: Quote) {
  return input.machine ? { cpus: estimate.machine.cpus, memoryGb: estimate.machine.memoryGb, gpu: estimate.machine.gpu } : LARGEST_MACHINE;
}

/**
 * The drafting call for a model: the goal and input names quoted as data (never instructions),
 * the estimator's figures and the bounds the answer is checked against.
 */
export function planRequest(input: PlanInput, estimate: Quote): CompletionRequest {
  const inputs = input.inputs ?? [];
  const limit = machineLimit(input, estimate);
  const lines = [
    quoteData({ goal: input.goal }, 5000),
    ...inputs.slice(0, MAX_PROMPT_INPUTS).map((file) => quoteData({ input: file.name, bytes: file.bytes }, 600)),
  ];
  if (inputs.length > MAX_PROMPT_INPUTS) lines.push(JSON.stringify({ omitted_inputs: inputs.length - MAX_PROMPT_INPUTS }));
  const bounds =
    `The estimator's draft: ${estimate.estimatedMinutes} minutes on ${estimate.machine.cpus} CPUs, ${estimate.machine.memoryGb} GB of memory, ${estimate.machine.gpu ? 'a GPU' : 'no GPU'}. ` +
    `Your estimated_minutes must be an integer from ${MIN_MINUTES} to ${estimate.estimatedMinutes * MAX_MINUTES_FACTOR}; ` +
    `the machine at most ${limit.cpus} CPUs and ${limit.memoryGb} GB of memory${limit.gpu ? '' : ', without a GPU'}.`;
  return {
    system: PLANNER_SYSTEM,
    messages: [{ role: 'user', content: `${taggedDataBlock(PLAN_REQUEST_TAG, lines)}\n\n${bounds}\nDraft the plan.` }],
    maxOutputTokens: PLAN_ANSWER_TOKENS,
  };
}

/**
 * The model's plan when its answer is a well-formed plan within the bounds (see `planRequest`),
 * priced by our rates; undefined otherwise (the caller falls back to the estimator's).
 */
export function modelQuote(answer: string, input: PlanInput, estimate: Quote): Omit<Quote, 'tokenCharge'> | undefined {
  const limit = machineLimit(input, estimate);
  return jsonAnswer(answer, (value) => {
    const { steps, machine, estimated_minutes: minutes } = value;
    if (!Array.isArray(steps) || steps.length < 1 || steps.length > MAX_STEPS) return undefined;
    if (
      !steps.every(
        (step): step is string => typeof step === 'string' && step.trim().length > 0 && step.length <= MAX_STEP_CHARS && !unstorable(step),
      )
    )
      return undefined;
    if (!isObject(machine)) return undefined;
    const { cpus, memory_gb: memoryGb, gpu } = machine;
    if (!isIntIn(cpus, 1, limit.cpus) || !isIntIn(memoryGb, 1, limit.memoryGb) || typeof gpu !== 'boolean' || (gpu && !limit.gpu))
      return undefined;
    if (!isIntIn(minutes, MIN_MINUTES, estimate.estimatedMinutes * MAX_MINUTES_FACTOR)) return undefined;
    return {
      draftedBy: 'model' as const,
      ...priced(
        machineOf({ cpus, memoryGb, gpu }, ['answer', 'machine']),
        steps.map((step) => step.trim()),
        minutes,
      ),
    };
  });
}
