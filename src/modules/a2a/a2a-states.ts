// The A2A 1.0 vocabulary of task states and roles, as the wire writes them: plain data that the
// model's GraphQL types (a2a.types.ts), the repositories and the facade all read.

/** Every A2A 1.0 task state, as the wire writes it (A2A §4.1.3). */
export const TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

/** States after which a task never changes again (A2A §4.1.3). */
export const TERMINAL_STATES: readonly string[] = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/** States a task waits in for its caller or stops in: terminal, or interrupted. A blocking SendMessage answers at these, a stream closes, a webhook fires. */
export const SETTLED_STATES: readonly string[] = [...TERMINAL_STATES, 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED'];

/** Who wrote a message (A2A Role). */
export const ROLES = ['ROLE_USER', 'ROLE_AGENT'] as const;
