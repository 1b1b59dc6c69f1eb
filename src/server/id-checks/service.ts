import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import {
  formatRetryAt,
  ID_ATTEMPT_WINDOW_DAYS,
  ID_ATTEMPTS_MAX,
  ID_CHECK_ERRORS,
  ID_CONSENT_REQUIRED,
  ID_PHOTO_KINDS,
  ID_REASON_REQUIRED,
  ID_REJECT_REASONS,
  ID_RETRY_HOURS,
  idCheckPhotoPath,
  idRetryMessage,
  type AdminIdCheck,
  type IdCheckDecision,
  type IdCheckState,
  type IdCheckStatus,
  type IdPhotoKind,
  type IdRejectReason,
} from '../../shared/verification';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { idChecks, idDocuments, moderationActions, profiles } from '../db/schema';
import { Outbox } from '../events';
import { notify } from '../notifications';
import type { IdDocumentKeys } from './keys';
import { readIdPhoto, reencodeIdPhoto } from './photo';

export const ID_CHECK_NOT_FOUND = 'ID check not found.';
export const ID_PHOTO_NOT_FOUND = 'Photo not found.';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const refuse = (key: keyof typeof ID_CHECK_ERRORS) => new DomainError('id_check_state', ID_CHECK_ERRORS[key]);
const invalid = (message: string) => new DomainError('validation_error', message);
const iso = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The multipart form of 'Send for checking', as the route hands it over. */
export interface IdCheckForm {
  consent?: unknown;
  front?: unknown;
  selfie?: unknown;
}

/** Where a person stands, with what the refusals need besides the answer's fields. */
interface Standing extends IdCheckState {
  /** Why next_attempt_at is set: the retry wait after a rejection, or the attempts' limit. */
  waitFor: 'retry' | 'attempts' | null;
}

/**
 * ID checks (issue 37, docs/verification.md): a person sends a photo of their ID and a selfie; a moderator approves
 * or rejects; the photos (encrypted with `keys`) are deleted in the deciding transaction. `clock` is the app's: the
 * retry wait and the attempts' window are measured on it.
 */
export function createIdCheckService(db: Db, deps: { keys: IdDocumentKeys; clock: () => Date }) {
  const { keys, clock } = deps;

  /** My state (GET /account/id-check): the profile's 'ID checked', my latest check, when I may send another. */
  async function standing(userId: string, exec: Db = db): Promise<Standing> {
    const now = clock();
    const [profile] = await exec
      .select({ checkedAt: profiles.idCheckedAt })
      .from(profiles)
      .where(eq(profiles.userId, userId));
    if (!profile) throw notFound('Account not found.');
    const [latest] = await exec
      .select({
        status: idChecks.status,
        submittedAt: idChecks.submittedAt,
        decidedAt: idChecks.decidedAt,
        reason: idChecks.reason,
      })
      .from(idChecks)
      .where(eq(idChecks.userId, userId))
      .orderBy(desc(idChecks.submittedAt), desc(idChecks.id))
      .limit(1);
    const recent = await exec
      .select({ submittedAt: idChecks.submittedAt })
      .from(idChecks)
      .where(
        and(
          eq(idChecks.userId, userId),
          gt(idChecks.submittedAt, new Date(now.getTime() - ID_ATTEMPT_WINDOW_DAYS * DAY)),
        ),
      )
      .orderBy(asc(idChecks.submittedAt));
    const checked = profile.checkedAt !== null;
    const status = (latest?.status ?? 'none') as IdCheckStatus | 'none';
    let next: Date | null = null;
    let waitFor: Standing['waitFor'] = null;
    if (!checked && status !== 'pending') {
      // At the limit, the oldest attempt that must leave the window for one more to fit.
      const blocking = recent.length >= ID_ATTEMPTS_MAX ? recent[recent.length - ID_ATTEMPTS_MAX] : undefined;
      const attemptsEnd = blocking ? new Date(blocking.submittedAt.getTime() + ID_ATTEMPT_WINDOW_DAYS * DAY) : null;
      const retryEnd =
        status === 'rejected' && latest?.decidedAt
          ? new Date(latest.decidedAt.getTime() + ID_RETRY_HOURS * HOUR)
          : null;
      if (attemptsEnd && attemptsEnd > now) [next, waitFor] = [attemptsEnd, 'attempts'];
      if (retryEnd && retryEnd > now && (!next || retryEnd > next)) [next, waitFor] = [retryEnd, 'retry'];
    }
    return {
      checked,
      status,
      submitted_at: latest?.submittedAt.toISOString() ?? null,
      decided_at: latest?.decidedAt?.toISOString() ?? null,
      reason: latest?.reason ? ID_REJECT_REASONS[latest.reason as IdRejectReason] : null,
      next_attempt_at: next?.toISOString() ?? null,
      attempts_left: Math.max(0, ID_ATTEMPTS_MAX - recent.length),
      waitFor,
    };
  }

  async function state(userId: string): Promise<IdCheckState> {
    const { waitFor: _, ...answer } = await standing(userId);
    return answer;
  }

  /** Why a new check may not be sent now, if it may not. */
  function refusal(s: Standing): DomainError | null {
    if (s.status === 'pending') return refuse('pending');
    if (s.checked) return refuse('checked');
    if (s.next_attempt_at) {
      const when = idRetryMessage(formatRetryAt(s.next_attempt_at, 'UTC'));
      const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(s.next_attempt_at) - clock().getTime()) / 1000));
      return new DomainError(
        'too_many_requests',
        s.waitFor === 'attempts' ? `${ID_CHECK_ERRORS.attempts} ${when}` : when,
        {
          retryAfterSeconds,
        },
      );
    }
    return null;
  }

  /**
   * 'Send for checking': consent, both photos checked by their bytes and re-encoded without metadata, then ONE
   * transaction (the profile row locked, so two sends of one person count their attempts one after the other) that
   * re-checks the rules and stores the check with its two encrypted photos.
   */
  async function submit(userId: string, form: IdCheckForm): Promise<IdCheckState> {
    const consent = Array.isArray(form.consent) ? form.consent[0] : form.consent;
    if (consent !== 'true') throw invalid(ID_CONSENT_REQUIRED);
    const uploads = [await readIdPhoto('front', form.front), await readIdPhoto('selfie', form.selfie)];
    // Refused before the costly re-encoding; checked again below, under the lock.
    const early = refusal(await standing(userId));
    if (early) throw early;
    const photos = await Promise.all(uploads.map(async (u) => ({ kind: u.kind, image: await reencodeIdPhoto(u) })));
    const seal = await keys.sealer();
    try {
      await db.transaction(async (tx) => {
        const [me] = await tx
          .select({ fullName: profiles.fullName })
          .from(profiles)
          .where(eq(profiles.userId, userId))
          .for('update');
        if (!me) throw notFound('Account not found.');
        const late = refusal(await standing(userId, tx));
        if (late) throw late;
        const [check] = await tx
          .insert(idChecks)
          .values({ userId, fullName: me.fullName, submittedAt: clock() })
          .returning({ id: idChecks.id });
        const rows = [];
        for (const p of photos)
          rows.push({
            checkId: check!.id,
            kind: p.kind,
            contentType: 'image/jpeg',
            ...seal(check!.id, p.kind, p.image),
          });
        await tx.insert(idDocuments).values(rows);
      });
    } catch (err) {
      // id_checks_one_pending: another send of mine got in first.
      if (isUniqueViolation(err)) throw refuse('pending');
      throw err;
    }
    return state(userId);
  }

  // ─── Moderators ──────────────────────────────────────────────────────────────────────────────────────────────

  const queueColumns = {
    id: idChecks.id,
    userId: idChecks.userId,
    fullName: idChecks.fullName,
    currentName: profiles.fullName,
    submittedAt: iso(idChecks.submittedAt),
    earlier: sql<number>`(select count(*)::int from id_checks e
      where e.user_id = ${idChecks.userId} and e.submitted_at < ${idChecks.submittedAt})`,
  };
  type QueueRow = {
    id: string;
    userId: string;
    fullName: string;
    currentName: string;
    submittedAt: string;
    earlier: number;
  };
  // Over id_checks_pending_idx (submitted_at, id) where pending: oldest first.
  const pendingList = keysetList({
    name: 'admin_id_checks_pending',
    from: () =>
      db.select(queueColumns).from(idChecks).innerJoin(profiles, eq(profiles.userId, idChecks.userId)).$dynamic(),
    filter: sql`${idChecks.status} = 'pending'`,
    after: sql`(${idChecks.submittedAt}, ${idChecks.id}) > (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [asc(idChecks.submittedAt), asc(idChecks.id)],
    cursor: z.tuple([cursorInstant, cursorUuid]),
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey: (r: QueueRow) => [r.submittedAt, r.id] as const,
  });

  const toAdmin = (r: QueueRow): AdminIdCheck => ({
    id: r.id,
    user_id: r.userId,
    full_name: r.fullName,
    current_name: r.currentName,
    submitted_at: r.submittedAt,
    earlier_attempts: Number(r.earlier),
    photos: { front: idCheckPhotoPath(r.id, 'front'), selfie: idCheckPhotoPath(r.id, 'selfie') },
  });

  /** The checks waiting for a decision, oldest first. */
  const list = (page: PageRequest): Promise<Page<AdminIdCheck>> => pendingList({}, page, toAdmin);

  /** A pending check's photo, decrypted; null once decided (its photos are gone) or for no such check. */
  async function photo(checkId: string, kind: IdPhotoKind): Promise<{ contentType: string; bytes: Buffer } | null> {
    if (!(ID_PHOTO_KINDS as readonly string[]).includes(kind)) return null;
    const [row] = await db
      .select({
        contentType: idDocuments.contentType,
        keyId: idDocuments.keyId,
        iv: idDocuments.iv,
        authTag: idDocuments.authTag,
        ciphertext: idDocuments.ciphertext,
      })
      .from(idDocuments)
      .innerJoin(idChecks, eq(idChecks.id, idDocuments.checkId))
      .where(and(eq(idDocuments.checkId, checkId), eq(idDocuments.kind, kind), eq(idChecks.status, 'pending')));
    if (!row) return null;
    return { contentType: row.contentType, bytes: await keys.open(checkId, kind, row) };
  }

  /**
   * One moderator's decision, once, in ONE transaction: `UPDATE ... WHERE status = 'pending'` decides which of two
   * moderators is first (the other gets id_check_state); the photos are deleted; an approval sets the profile's 'ID
   * checked' only while its name is still the one the check was sent under (otherwise the whole decision is refused:
   * the moderator rejects it instead); the moderation log and the person's notification are written with it.
   */
  async function decide(adminId: string, checkId: string, input: IdCheckDecision) {
    if (input.decision === 'reject' && !input.reason) throw invalid(ID_REASON_REQUIRED);
    const reason = input.decision === 'reject' ? input.reason! : null;
    return db.transaction(async (tx) => {
      const [exists] = await tx.select({ id: idChecks.id }).from(idChecks).where(eq(idChecks.id, checkId));
      if (!exists) throw notFound(ID_CHECK_NOT_FOUND);
      const now = clock();
      const [decided] = await tx
        .update(idChecks)
        .set({
          status: input.decision === 'approve' ? 'approved' : 'rejected',
          decidedAt: now,
          decidedBy: adminId,
          reason,
        })
        .where(and(eq(idChecks.id, checkId), eq(idChecks.status, 'pending')))
        .returning({ userId: idChecks.userId, fullName: idChecks.fullName });
      if (!decided) throw refuse('decided');
      if (input.decision === 'approve') {
        const [profile] = await tx
          .select({ fullName: profiles.fullName })
          .from(profiles)
          .where(eq(profiles.userId, decided.userId))
          .for('update');
        if (profile?.fullName !== decided.fullName) throw refuse('name_changed');
        await tx.update(profiles).set({ idCheckedAt: now }).where(eq(profiles.userId, decided.userId));
      }
      await tx.delete(idDocuments).where(eq(idDocuments.checkId, checkId));
      await tx.insert(moderationActions).values({
        adminId,
        action: input.decision === 'approve' ? 'id_approve' : 'id_reject',
        targetUserId: decided.userId,
        idCheckId: checkId,
        note: reason,
      });
      const out = new Outbox();
      await notify(tx, out, [
        {
          userId: decided.userId,
          type: 'id_check',
          data:
            input.decision === 'approve'
              ? { kind: 'approved' }
              : { kind: 'rejected', reason: ID_REJECT_REASONS[reason!] },
        },
      ]);
      await out.flush(tx);
      return {
        id: checkId,
        status: input.decision === 'approve' ? ('approved' as const) : ('rejected' as const),
        decided_at: now.toISOString(),
        reason,
      };
    });
  }

  return { state, submit, list, photo, decide };
}

export type IdCheckService = ReturnType<typeof createIdCheckService>;
