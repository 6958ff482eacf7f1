import { checks } from '../../validation';
import { credits } from './credits.service';

/** A sandbox machine and what it costs per minute. */
export interface Machine {
  cpus: number;
  memoryGb: number;
  gpu: boolean;
  rateCreditsPerMinute: number;
}

/** The planner's nominal token use and what it costs. */
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
/** The planner's nominal token use is charged at this rate (credits per 1,000 tokens). */
const TOKEN_CREDITS_PER_1K = 0.002;
/** The ceiling leaves this much room over the estimate before the lease pauses. */
const CEILING_MARGIN = 1.5;
const MAX_TOTAL_INPUT_BYTES = 10 ** 15;

/** A machine with its rate; `path` is where its issues are reported. @throws VALIDATION_FAILED */
export function machineOf(machine: PlanInput['machine'] | undefined, path: (string | number)[]): Machine {
  const cpus = machine?.cpus ?? DEFAULT_MACHINE.cpus;
  const memoryGb = machine?.memoryGb ?? DEFAULT_MACHINE.memoryGb;
  const gpu = machine?.gpu ?? DEFAULT_MACHINE.gpu;
  checks()
    .int([...path, 'cpus'], cpus, { min: 1, max: 64 })
    .int([...path, 'memoryGb'], memoryGb, { min: 1, max: 512 })
    .done();
  return { cpus, memoryGb, gpu, rateCreditsPerMinute: credits(cpus * RATE.cpu + memoryGb * RATE.memoryGb + (gpu ? RATE.gpu : 0)) };
}

export interface Quote {
  machine: Machine;
  steps: string[];
  estimatedMinutes: number;
  estimatedCredits: number;
  spendCeilingCredits: number;
  tokenCharge: TokenCharge;
}

/**
 * The deterministic estimator (no model): steps from the goal and inputs, minutes from the
 * data size, credits from the machine rate. A model-backed planner returns the same `Quote`.
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
  const estimatedMinutes = Math.max(5, Math.ceil(10 + gigabytes * 6));
  const estimatedCredits = credits(estimatedMinutes * machine.rateCreditsPerMinute);
  const steps = [
    inputs.length ? `Stage ${inputs.length} input file${inputs.length === 1 ? '' : 's'} (${gigabytes.toFixed(2)} GB)` : 'Prepare the workspace',
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
    machine,
    steps,
    estimatedMinutes,
    estimatedCredits,
    spendCeilingCredits: credits(Math.max(estimatedCredits * CEILING_MARGIN, 0.01)),
    tokenCharge: { tokensIn, tokensOut, credits: credits(((tokensIn + tokensOut) / 1000) * TOKEN_CREDITS_PER_1K) },
  };
}
