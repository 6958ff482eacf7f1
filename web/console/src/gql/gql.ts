/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n": typeof types.ConsoleMeDocument,
    "\n  mutation ConsoleSignOut {\n    authLogout\n  }\n": typeof types.ConsoleSignOutDocument,
    "\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n": typeof types.ConsoleLabDocument,
    "\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n": typeof types.ConsoleLabMemberUpdateDocument,
    "\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n": typeof types.ConsoleLabRotateCodeDocument,
    "\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n  }\n": typeof types.ConsoleLabsDocument,
    "\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n": typeof types.ConsoleLabCreateDocument,
    "\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n": typeof types.ConsoleLabJoinDocument,
};
const documents: Documents = {
    "\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n": types.ConsoleMeDocument,
    "\n  mutation ConsoleSignOut {\n    authLogout\n  }\n": types.ConsoleSignOutDocument,
    "\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n": types.ConsoleLabDocument,
    "\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n": types.ConsoleLabMemberUpdateDocument,
    "\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n": types.ConsoleLabRotateCodeDocument,
    "\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n  }\n": types.ConsoleLabsDocument,
    "\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n": types.ConsoleLabCreateDocument,
    "\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n": types.ConsoleLabJoinDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n"): (typeof documents)["\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSignOut {\n    authLogout\n  }\n"): (typeof documents)["\n  mutation ConsoleSignOut {\n    authLogout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n  }\n"): (typeof documents)["\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;