import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { BankAccountRow, Database } from "#db/schema";
import { publicUrl, type Storage } from "~/lib/storage.server";
import type { BankAccountInput } from "~/schemas/bank-account";
import { recordAudit } from "./audit.server";
import { HERO_IMAGE_KEY } from "./settings.server";

/* ------------------------------------------------------------------------------------------
 * The hero background of the store's home page
 * ------------------------------------------------------------------------------------------ */

/** The image the home page shows when the operator has set none (ships with the shop). */
export const DEFAULT_HERO_URL = "/images/hero-default.webp";

export interface HeroImage {
  /** Storage key of the operator's image, null when the default shows. */
  key: string | null;
  url: string;
  updatedAt: string | null;
}

export async function findHeroImage(db: DB): Promise<HeroImage> {
  const row = await db.selectFrom("site_settings").selectAll().where("key", "=", HERO_IMAGE_KEY).executeTakeFirst();
  return {
    key: row?.value ?? null,
    url: publicUrl(row?.value) ?? DEFAULT_HERO_URL,
    updatedAt: row?.updated_at ?? null,
  };
}

/** Best-effort removal of a public file no row points at any more. */
export async function deletePublicFile(storage: Storage, key: string | null): Promise<void> {
  if (!key) return;
  try {
    await storage.delete("public", key);
  } catch {
    // A file left behind is harmless; no row points at it any more.
  }
}

/**
 * Makes `imageKey` (already stored through the image pipeline) the home page's hero image: the
 * setting is upserted, then the previous file is deleted. If the setting cannot be saved, the
 * new file is deleted instead.
 */
export async function updateHeroImage(
  db: DB,
  storage: Storage,
  imageKey: string,
  options: { actorUserId: string | null },
): Promise<void> {
  let previous: string | null;
  try {
    previous = await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom("site_settings")
        .select("value")
        .where("key", "=", HERO_IMAGE_KEY)
        .executeTakeFirst();
      const at = now();
      await trx
        .insertInto("site_settings")
        .values({ key: HERO_IMAGE_KEY, value: imageKey, updated_at: at })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: imageKey, updated_at: at }))
        .execute();
      await recordAudit(trx, {
        actorUserId: options.actorUserId,
        action: "setting.hero_updated",
        entityType: "setting",
        entityId: HERO_IMAGE_KEY,
        before: before ? { value: before.value } : null,
        after: { value: imageKey },
      });
      return before?.value ?? null;
    });
  } catch (error) {
    await deletePublicFile(storage, imageKey);
    throw error;
  }
  if (previous !== imageKey) await deletePublicFile(storage, previous);
}

/** Goes back to the default hero image: the setting is removed, then the operator's file. */
export async function resetHeroImage(db: DB, storage: Storage, options: { actorUserId: string | null }) {
  const previous = await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", HERO_IMAGE_KEY)
      .executeTakeFirst();
    if (!before) return null;
    await trx.deleteFrom("site_settings").where("key", "=", HERO_IMAGE_KEY).execute();
    await recordAudit(trx, {
      actorUserId: options.actorUserId,
      action: "setting.hero_updated",
      entityType: "setting",
      entityId: HERO_IMAGE_KEY,
      before: { value: before.value },
      after: null,
    });
    return before.value;
  });
  await deletePublicFile(storage, previous);
}

/* ------------------------------------------------------------------------------------------
 * Bank accounts shoppers pay into
 *
 * Exactly one account is primary whenever there is any (a partial unique index allows at most
 * one): the payment page and the order e-mail show it. The first account becomes primary, making
 * another primary unsets the old one in the same transaction, and deleting the primary passes
 * the role to the newest remaining account.
 * ------------------------------------------------------------------------------------------ */

export interface BankAccount {
  id: number;
  bank_name: string;
  account_holder: string;
  account_number: string;
  fps_id: string | null;
  swift_code: string | null;
  routing_number: string | null;
  bank_address: string | null;
  is_primary: boolean;
  /** The account seeded with the demo (Remove demo data deletes it). */
  is_demo: boolean;
  created_at: string;
  updated_at: string;
}

function toBankAccount(row: BankAccountRow): BankAccount {
  return { ...row, is_primary: row.is_primary === 1, is_demo: row.is_demo === 1 };
}

/** Every bank account, newest first. */
export async function listBankAccounts(db: DB): Promise<BankAccount[]> {
  const rows = await db
    .selectFrom("bank_accounts")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toBankAccount);
}

export async function findBankAccount(db: DB, id: number): Promise<BankAccount | null> {
  const row = await db.selectFrom("bank_accounts").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toBankAccount(row) : null;
}

/** A refusal the form shows: next to a field, or (field null) above the form. */
export interface BankAccountProblem {
  field: "is_primary" | null;
  key: string;
}

export type BankAccountResult = { ok: true; account: BankAccount } | { ok: false; problem: BankAccountProblem };

const NOT_FOUND: BankAccountProblem = { field: null, key: "adminSettings.errors.accountNotFound" };
const PRIMARY_STAYS: BankAccountProblem = { field: "is_primary", key: "adminSettings.errors.primaryStays" };

type Trx = Transaction<Database>;

/**
 * Makes `row` the primary account inside `trx`: the old primary is unset first (the unique
 * index allows one at a time), and the switch is audited with both ids.
 */
async function switchPrimary(trx: Trx, row: BankAccountRow, actorUserId: string | null): Promise<BankAccountRow> {
  const old = await trx.selectFrom("bank_accounts").selectAll().where("is_primary", "=", 1).executeTakeFirst();
  if (old?.id === row.id) return row;
  const at = now();
  if (old)
    await trx.updateTable("bank_accounts").set({ is_primary: 0, updated_at: at }).where("id", "=", old.id).execute();
  const updated = await trx
    .updateTable("bank_accounts")
    .set({ is_primary: 1, updated_at: at })
    .where("id", "=", row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(trx, {
    actorUserId,
    action: "bank_account.made_primary",
    entityType: "bank_account",
    entityId: row.id,
    before: { primary_account_id: old?.id ?? null, primary: old ?? null },
    after: { primary_account_id: row.id, primary: updated },
  });
  return updated;
}

function columns(input: BankAccountInput) {
  return {
    bank_name: input.bank_name,
    account_holder: input.account_holder,
    account_number: input.account_number,
    fps_id: input.fps_id,
    swift_code: input.swift_code,
    routing_number: input.routing_number,
    bank_address: input.bank_address,
  };
}

/** Adds an account; it becomes primary when asked or when it is the first one. */
export async function createBankAccount(
  db: DB,
  input: BankAccountInput,
  options: { actorUserId: string | null },
): Promise<BankAccountResult> {
  const account = await db.transaction().execute(async (trx) => {
    const at = now();
    const inserted = await trx
      .insertInto("bank_accounts")
      .values({ ...columns(input), is_primary: 0, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorUserId: options.actorUserId,
      action: "bank_account.created",
      entityType: "bank_account",
      entityId: inserted.id,
      before: null,
      after: inserted,
    });
    const hasPrimary = await trx
      .selectFrom("bank_accounts")
      .select("id")
      .where("is_primary", "=", 1)
      .executeTakeFirst();
    return input.is_primary || !hasPrimary ? switchPrimary(trx, inserted, options.actorUserId) : inserted;
  });
  return { ok: true, account: toBankAccount(account) };
}

/**
 * Updates an account. Ticking "primary" makes it the primary one; the primary account cannot be
 * unticked (another account must be made primary instead, so one always is).
 */
export async function updateBankAccount(
  db: DB,
  id: number,
  input: BankAccountInput,
  options: { actorUserId: string | null },
): Promise<BankAccountResult> {
  return db.transaction().execute(async (trx): Promise<BankAccountResult> => {
    const before = await trx.selectFrom("bank_accounts").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) return { ok: false, problem: NOT_FOUND };
    if (before.is_primary === 1 && !input.is_primary) return { ok: false, problem: PRIMARY_STAYS };
    const row = await trx
      .updateTable("bank_accounts")
      .set({ ...columns(input), updated_at: now() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorUserId: options.actorUserId,
      action: "bank_account.updated",
      entityType: "bank_account",
      entityId: id,
      before,
      after: row,
    });
    const account = input.is_primary ? await switchPrimary(trx, row, options.actorUserId) : row;
    return { ok: true, account: toBankAccount(account) };
  });
}

/** Makes an account the one shoppers pay into (the old primary is unset in the same transaction). */
export async function makePrimaryBankAccount(
  db: DB,
  id: number,
  options: { actorUserId: string | null },
): Promise<BankAccountResult> {
  return db.transaction().execute(async (trx): Promise<BankAccountResult> => {
    const row = await trx.selectFrom("bank_accounts").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return { ok: false, problem: NOT_FOUND };
    return { ok: true, account: toBankAccount(await switchPrimary(trx, row, options.actorUserId)) };
  });
}

/** Deletes an account; when it was the primary one, the newest remaining account becomes primary. */
export async function deleteBankAccount(
  db: DB,
  id: number,
  options: { actorUserId: string | null },
): Promise<BankAccountResult> {
  return db.transaction().execute(async (trx): Promise<BankAccountResult> => {
    const before = await trx.selectFrom("bank_accounts").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) return { ok: false, problem: NOT_FOUND };
    await trx.deleteFrom("bank_accounts").where("id", "=", id).execute();
    await recordAudit(trx, {
      actorUserId: options.actorUserId,
      action: "bank_account.deleted",
      entityType: "bank_account",
      entityId: id,
      before,
      after: null,
    });
    if (before.is_primary === 1) {
      const newest = await trx
        .selectFrom("bank_accounts")
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
      if (newest) await switchPrimary(trx, newest, options.actorUserId);
    }
    return { ok: true, account: toBankAccount(before) };
  });
}
