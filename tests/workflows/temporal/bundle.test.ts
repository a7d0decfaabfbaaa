import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOWS } from './helpers';

/*
 * The worker bundles workflows.ts with webpack into a sandbox where Node built-ins and non-deterministic modules are
 * refused. Bundling here, offline, proves the workflow code and everything it imports (the machines, xstate, zod,
 * workflows/step.ts) are fit for it.
 */

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('workflow bundle', () => {
  it('bundles the production workflows with the machines and xstate, and exports requestWorkflow', async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS.production, logger: silent });
    expect(code).toContain('requestWorkflow');
    expect(code).toContain('internalCertificate');
    expect(code).toMatch(/xstate/);
  });

  it('refuses workflow code that reaches a Node built-in (the hash chain uses node:crypto, so activities hash)', async () => {
    const hashChain = fileURLToPath(new URL('../../../workflows/hash-chain.ts', import.meta.url));
    await expect(bundleWorkflowCode({ workflowsPath: hashChain, logger: silent })).rejects.toThrow(/Webpack finished with errors/);
  });
});
