import { createStore } from '../lib/create-store';
import type { ErrorScreenStatus } from './errors';

/**
 * The full-page error screen raised by a failed call (401, 403, 404, 500: spec 01 section 8). The shell shows it
 * over the page and clears it when the user navigates elsewhere.
 */
export const errorScreen = createStore<{ status: ErrorScreenStatus; message: string } | null>(null);
