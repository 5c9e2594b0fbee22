#!/usr/bin/env node
// Launcher of pixctl: loads the TypeScript CLI through tsx, from wherever it is called.
import { tsImport } from 'tsx/esm/api';

await tsImport('../src/admin/cli/index.ts', import.meta.url);
