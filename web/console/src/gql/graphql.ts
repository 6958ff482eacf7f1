/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A role the owner can give (there is one owner). */
export type AssignableRole =
  | 'member'
  | 'mentor';

/** A new lab. The caller becomes its owner. */
export type LabCreateInput = {
  /** 1-100 characters. */
  name: string;
  /** Admins only; default 10. */
  seatQuota?: number | null | undefined;
};

/** A request to join the lab of an invitation code. */
export type LabJoinInput = {
  /** The invitation code. */
  code: string;
};

/** Owner decision on a membership: approve, reject, revoke and/or change role. */
export type LabMemberUpdateInput = {
  /** mentor or member. */
  role?: AssignableRole | null | undefined;
  /** active (approve), rejected or revoked. */
  status?: MemberStatusChange | null | undefined;
};

/** Only active labs accept join requests. */
export type LabStatus =
  | 'active'
  | 'archived'
  | 'suspended';

/** Role inside a lab. */
export type MemberRole =
  | 'member'
  | 'mentor'
  | 'owner';

/** Where a membership stands. */
export type MemberStatus =
  | 'active'
  | 'left'
  | 'pending'
  | 'rejected'
  | 'revoked';

/** An owner decision on a membership. */
export type MemberStatusChange =
  | 'active'
  | 'rejected'
  | 'revoked';

export type ConsoleMeQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleMeQuery = { me: { id: string, name: string, email: string, isAdmin: boolean } };

export type ConsoleSignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type ConsoleSignOutMutation = { authLogout: boolean | null };

export type ConsoleLabQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleLabQuery = { lab: { id: string, name: string, role: MemberRole | null, status: LabStatus, seatQuota: number, seatsUsed: number, invitationCode: string | null, codeExpiresAt: string | null, members: Array<{ memberUserId: string, name: string, email: string, role: MemberRole, status: MemberStatus, requestedAt: string, joinedAt: string | null }> | null }, labBoard: { items: Array<{ sessionId: string, title: string | null, ownerName: string, state: string, count: number, lastActivityAt: string, openAnnotations: number }> } };

export type ConsoleLabMemberUpdateMutationVariables = Exact<{
  labId: string | number;
  memberUserId: string | number;
  input: LabMemberUpdateInput;
}>;


export type ConsoleLabMemberUpdateMutation = { labMemberUpdate: { memberUserId: string, role: MemberRole, status: MemberStatus } };

export type ConsoleLabRotateCodeMutationVariables = Exact<{
  labId: string | number;
}>;


export type ConsoleLabRotateCodeMutation = { labRotateCode: { id: string, invitationCode: string | null, codeExpiresAt: string | null } };

export type ConsoleLabsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleLabsQuery = { labs: Array<{ id: string, name: string, role: MemberRole | null, status: LabStatus, seatQuota: number, seatsUsed: number }> };

export type ConsoleLabCreateMutationVariables = Exact<{
  input: LabCreateInput;
}>;


export type ConsoleLabCreateMutation = { labCreate: { id: string } };

export type ConsoleLabJoinMutationVariables = Exact<{
  input: LabJoinInput;
}>;


export type ConsoleLabJoinMutation = { labJoin: { labId: string, status: MemberStatus } };


export const ConsoleMeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleMe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isAdmin"}}]}}]}}]} as unknown as DocumentNode<ConsoleMeQuery, ConsoleMeQueryVariables>;
export const ConsoleSignOutDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSignOut"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authLogout"}}]}}]} as unknown as DocumentNode<ConsoleSignOutMutation, ConsoleSignOutMutationVariables>;
export const ConsoleLabDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleLab"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lab"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","name":{"kind":"Name","value":"seatsUsed"}},{"kind":"Field","name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","name":{"kind":"Name","value":"codeExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"joinedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"labBoard"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"ownerName"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"openAnnotations"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleLabQuery, ConsoleLabQueryVariables>;
export const ConsoleLabMemberUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabMemberUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"memberUserId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabMemberUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labMemberUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}},{"kind":"Argument","name":{"kind":"Name","value":"memberUserId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"memberUserId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memberUserId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabMemberUpdateMutation, ConsoleLabMemberUpdateMutationVariables>;
export const ConsoleLabRotateCodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabRotateCode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labRotateCode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"labId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"invitationCode"}},{"kind":"Field","name":{"kind":"Name","value":"codeExpiresAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabRotateCodeMutation, ConsoleLabRotateCodeMutationVariables>;
export const ConsoleLabsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleLabs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"seatQuota"}},{"kind":"Field","name":{"kind":"Name","value":"seatsUsed"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabsQuery, ConsoleLabsQueryVariables>;
export const ConsoleLabCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabCreateMutation, ConsoleLabCreateMutationVariables>;
export const ConsoleLabJoinDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLabJoin"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LabJoinInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labJoin"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ConsoleLabJoinMutation, ConsoleLabJoinMutationVariables>;