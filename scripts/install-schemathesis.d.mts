// Types of what scripts/fuzz/run.ts reads from the install script.
export declare const SCHEMATHESIS_VERSION: string;
export declare const VENV: string;
export declare const ST: string;
