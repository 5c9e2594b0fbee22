// Types of what the tests and benches read from the build script.
export declare function buildEngine(outDir?: string): Promise<string>;
