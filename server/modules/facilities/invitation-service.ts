import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { delegateInvitations, users } from '../../../db/schema';
import { hashPassword } from '../../../lib/password';
import { AppError } from '../../errors';
import { passwordIssue } from '../../../machines/forms/account';
import './errors';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The portal's one password rule (machines/forms/account.ts), shared with sign-up and the password reset. */
export { isStrongPassword } from '../../../machines/forms/account';

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
  const issue = passwordIssue(password);
  if (issue) throw new AppError(issue === 'publishedPassword' ? 'PublishedPassword' : 'PasswordTooWeak');
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
