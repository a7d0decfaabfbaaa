import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { delegateInvitations, users } from '../../../db/schema';
import { hashPassword } from '../../../lib/password';
import { AppError } from '../../errors';
import './errors';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** At least 8 characters with an upper-case and a lower-case letter, a digit and a symbol (like the demo password). */
export const isStrongPassword = (p: string): boolean =>
  p.length >= 8 && p.length <= 128 && /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p) && /[^A-Za-z0-9]/.test(p);

async function openInvitation(db: Db, token: string) {
  const [row] = await db
    .select({ inv: delegateInvitations, user: users })
    .from(delegateInvitations)
    .innerJoin(users, eq(users.id, delegateInvitations.userId))
    .where(and(eq(delegateInvitations.tokenHash, hashToken(token)), isNull(delegateInvitations.usedAt), gt(delegateInvitations.expiresAt, new Date())));
  if (!row) throw new AppError('InvitationInvalid');
  return row;
}

/** The set-password page's greeting: who the link is for (no secret). */
export async function invitationInfo(db: Db, token: string) {
  const { inv, user } = await openInvitation(db, token);
  return { userName: user.userName, name: user.name, expiresAt: inv.expiresAt.toISOString() };
}

/** Sets the new delegate's password once; the link then stops working. */
export async function acceptInvitation(db: Db, token: string, password: string): Promise<{ userName: string }> {
  if (!isStrongPassword(password)) throw new AppError('PasswordTooWeak');
  const { inv, user } = await openInvitation(db, token);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const used = await tx
      .update(delegateInvitations)
      .set({ usedAt: new Date() })
      .where(and(eq(delegateInvitations.id, inv.id), isNull(delegateInvitations.usedAt)))
      .returning({ id: delegateInvitations.id });
    if (!used.length) throw new AppError('InvitationInvalid');
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
  });
  return { userName: user.userName };
}
