import { randomBytes } from 'node:crypto';
import { eq, or } from 'drizzle-orm';
import { hashPassword } from '../lib/password';
import type { Db } from './client';
import { users } from './schema';

/**
 * The first administrator of a new installation (production seeds no accounts): `npm run admin:create -- <user name>
 * <email>`. The password is generated (printed once) unless ADMIN_PASSWORD gives one of at least 12 characters with
 * letters and digits. Refuses when the user name or email is taken, so it can never reset an existing account.
 */
export class FirstAdminRefused extends Error {}

const USER_NAME = /^[A-Za-z0-9._-]{3,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createFirstAdmin(db: Db, input: { userName: string; email: string; password?: string }): Promise<{ userName: string; password: string }> {
  if (!USER_NAME.test(input.userName)) throw new FirstAdminRefused('user name: 3-64 letters, digits, dot, dash or underscore');
  if (!EMAIL.test(input.email)) throw new FirstAdminRefused('email: not an email address');
  const password = input.password ?? `${randomBytes(12).toString('base64url')}7a`;
  if (password.length < 12 || !/[A-Za-z]/.test(password) || !/[0-9]/.test(password)) {
    throw new FirstAdminRefused('ADMIN_PASSWORD: at least 12 characters with letters and digits');
  }
  const [taken] = await db.select({ id: users.id }).from(users).where(or(eq(users.userName, input.userName), eq(users.email, input.email)));
  if (taken) throw new FirstAdminRefused(`a user named ${input.userName} or with ${input.email} exists already`);
  await db.insert(users).values({ userName: input.userName, email: input.email, name: input.userName, roles: ['admin'], passwordHash: await hashPassword(password) });
  return { userName: input.userName, password };
}
