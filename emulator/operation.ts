// The typed shape of a route handler: its input comes validated by the contract, its types from schema.gen.ts.

import type { operations } from '../src/core/api/schema.gen';
import type { Clock } from './clock';
import type { UserRecord } from './records';
import type { Store } from './store';

/** Every operationId of the contract. */
export type OperationId = keyof operations;

type ParametersOf<K extends OperationId> = operations[K]['parameters'];

/** The operation's query after defaults were applied. */
export type QueryOf<K extends OperationId> = NonNullable<ParametersOf<K>['query']>;
/** The operation's path parameters. */
export type PathOf<K extends OperationId> = NonNullable<ParametersOf<K>['path']>;
/** The operation's JSON body, or undefined when it takes none. */
export type BodyOf<K extends OperationId> = operations[K] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : undefined;

/** What a handler receives: validated query, path and body, and the authenticated user. */
export interface OperationInput<K extends OperationId> {
  query: QueryOf<K>;
  path: PathOf<K>;
  body: BodyOf<K>;
  user: UserRecord;
}

/** What the emulator's handlers share: the state and the clock. */
export interface EmulatorContext {
  store: Store;
  clock: Clock;
}

/** A handler's answer; its body is checked against the contract in conformance runs. */
export interface OperationReply {
  status: number;
  body: unknown;
}

export type OperationHandler<K extends OperationId> = (input: OperationInput<K>, context: EmulatorContext) => OperationReply;

/** Registers the handler of one contract operation; the method and path come from the contract. */
export type RegisterOperation = <K extends OperationId>(operationId: K, handler: OperationHandler<K>) => void;
