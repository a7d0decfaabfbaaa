import type { FastifyPluginAsync } from 'fastify';
import auth from './auth/routes';
import health from './health/routes';
import users from './users/routes';
import publicSite from './public/routes';
import facilities from './facilities';
import attachments from './attachments/routes';
import productUpload from './product-upload/routes';
import payments from './payments/routes';
import paymentReconciliation from './payments/reconcile-payments';
import certificates from './certificates/routes';
import requests from './requests';
import admin from './admin';
import accounts from './accounts/routes';
import dashboard from './dashboard/routes';
import gdpr from './gdpr/routes';
import texts from './texts/routes';

/**
 * Every HTTP module of the server, registered in this order by buildApp. A module is a Fastify plugin whose
 * routes each declare `config.policy` (see server/types.ts).
 */
export const modules: FastifyPluginAsync[] = [health, auth, accounts, users, publicSite, facilities, attachments, productUpload, payments, certificates, requests, paymentReconciliation, admin, dashboard, gdpr, texts];
