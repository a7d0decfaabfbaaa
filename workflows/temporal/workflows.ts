import { machinesCatalogue } from '../machines-catalogue';
import { createRequestWorkflow } from './request-workflow';

/*
 * The worker's workflow entry point (bundled by the SDK with webpack, see worker.ts): every export is a workflow
 * type. One type serves every machine kind; the request's kind and pinned machine version select the machine.
 */

/** One workflow per request, hosting the production lifecycle machines (see request-workflow.ts). */
export const requestWorkflow = createRequestWorkflow(machinesCatalogue);
