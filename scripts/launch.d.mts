// Types of what the tests, the chaos cluster and the benches read from the launcher's module.
export declare const LAUNCHER: string;
export declare function engineLaunch(entry: string, role: string, nodeOptions?: string[]): [string, string[]];
