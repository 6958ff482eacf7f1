/** The part of madge's API (it ships no types) that test/layers.test.ts uses. */
declare module 'madge' {
  interface MadgeResult {
    /** Each file (relative to `baseDir`) with the files it imports. */
    obj(): Record<string, string[]>;
    circular(): string[][];
  }
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: { ts?: { skipTypeImports?: boolean } };
  }
  export default function madge(paths: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
