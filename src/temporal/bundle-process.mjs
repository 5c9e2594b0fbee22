// The process of bundle.ts (plain JavaScript, run by node alone): bundles the workflows with their
// interceptors, as its argument (JSON) says, and writes the code to stdout.
import { bundleWorkflowCode } from '@temporalio/worker';

const quiet = { trace() {}, debug() {}, info() {}, log() {}, warn: console.warn, error: console.error };
const { code } = await bundleWorkflowCode({ ...JSON.parse(process.argv[2]), logger: quiet });
process.stdout.write(code);
