import { createStore } from '../lib/create-store';
import type { ErrorScreenStatus } from './errors';
import type { Said } from '../components/form/validation-messages';

/**
 * The full-page error screen raised by a failed call (401, 403, 404, 500: spec 01 section 8). The shell shows it
 * over the page and clears it when the user navigates elsewhere. The server's message is kept as its key (refusalOf),
 * said when drawn so it follows a language switch on the screen.
 */
export const errorScreen = createStore<{ status: ErrorScreenStatus; message: Said } | null>(null);
