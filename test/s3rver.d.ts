/** The part of s3rver's API (it ships no types) that test/support/s3.ts uses. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  class S3rver {
    constructor(options: { address: string; port: number; directory: string; silent: boolean });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
  export = S3rver;
}
