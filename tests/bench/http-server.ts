import { fork } from 'node:child_process';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { createTestDatabase } from '../helpers/db';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant } from '../workflows/fixtures/internal-certificate-scenario';
import type { Job } from './http-client';

/**
 * The server the HTTP benches measure (bench:http, http-layers.ts): the whole app listening on a free port of a fresh
 * database (DATABASE_URL, else PGlite in memory), and the load generator (http-client.ts) in a process of its own,
 * so the server's CPU figures do not carry the client's.
 */
export async function startBenchServer() {
  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(), database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const client = fork(new URL('./http-client.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  /** One job at a time: the client answers each with its figures. */
  const ask = <R>(job: Job) =>
    new Promise<R>((resolve, reject) => {
      const died = (code: number | null) => reject(new Error(`bench client exited (${code})`));
      client.once('exit', died);
      client.once('message', (r) => {
        client.off('exit', died);
        resolve(r as R);
      });
      client.send(job);
    });
  /** A request waiting in the registration queue (as in bench:engine). */
  const inRegistration = async () => {
    const r = await app.engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    await app.engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, r.version);
    return app.engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR, r.version + 1);
  };
  const close = async () => {
    client.send({ op: 'exit' } satisfies Job);
    await app.close();
    await database.close();
  };
  return { database, app, base, ask, inRegistration, close };
}
