import type { Actor } from '../machines/actor';
import type { Config } from './config';
import type { Database, Db } from '../db/client';
import type { Language } from './i18n';
import type { TFunction } from 'i18next';
import type { WorkflowEngine } from '../workflows/engine';
import type { ServiceRegistry } from '../machines/services';
import type { BusinessSettings } from '../machines/services/settings';

/**
 * Who may call a route; every /api route declares one in `config.policy` (checked at start-up):
 * - 'public': anyone, signed in or not;
 * - 'authenticated': any signed-in user;
 * - a permission name, or a list of names of which the user needs at least one.
 */
export type RoutePolicy = 'public' | 'authenticated' | string | readonly string[];

export interface SessionUser {
  id: string;
  userName: string;
  name: string;
  email: string;
  roles: string[];
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
    /** Media type of a file answer, for the API document (server/openapi.ts); '*' is the stored file's own type. */
    produces?: string;
    /** The route reads the reCAPTCHA token from the `recaptcha-token` header (server/openapi.ts). */
    recaptchaHeader?: boolean;
    /** The route answers with this redirect status (server/openapi.ts). */
    redirect?: number;
  }
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    /** The policy of every registered route, for the generated access tests and docs. */
    routePolicies: { method: string; url: string; policy: RoutePolicy }[];
    /** The workflow engine (server/modules/requests creates it from the config: embedded or Temporal). */
    engine: WorkflowEngine;
    /** The service contract with the server's configured Halal HS-code list. */
    services: ServiceRegistry;
    /** The business settings in force (environment defaults, then the administrator's changes). */
    settings: { current(): BusinessSettings };
  }
  interface FastifyRequest {
    /** The signed-in user's actor, or null for anonymous calls. */
    actor: Actor | null;
    sessionUser: SessionUser | null;
    /** 'expired' when a session cookie came but its session is revoked, idle or invalid. */
    sessionState: 'none' | 'expired' | 'ok';
    lang: Language;
    t: TFunction;
  }
}
