import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import { lockTable } from "#db/dialect";
import { pickColumns } from "#db/query";
import type { BankAccountRow, Currency, Database } from "#db/schema";
import { UserError } from "~/lib/problem";
import type { BankAccountInput } from "~/schemas/bank-account";
import { auditAction } from "./audit.server";

/**
 * What a shopper is told to pay into. FPS carries Hong Kong dollars only: an HKD order gets the
 * primary account's FPS details (with the account number for a plain transfer), a GBP, EUR or
 * USD order the same account's international transfer details (SWIFT/BIC, bank address, routing
 * number) and never the FPS id. The seeded demo account is shown only in demo mode, marked as
 * such; a live shop whose primary account is still the demo one, or that has none, takes no
 * orders and asks the shopper to contact it.
 */

/** The primary bank account customers pay into (the first one when none is marked). */
export async function findPaymentAccount(db: DB) {
  return db.selectFrom("bank_accounts").selectAll().orderBy("is_primary", "desc").orderBy("id").executeTakeFirst();
}

/** True while shoppers would be sent to the seeded demo account (the admin banner says so). */
export async function isDemoAccountPrimary(db: DB): Promise<boolean> {
  const account = await findPaymentAccount(db);
  return account?.is_demo === 1;
}

export type PaymentAccountRow = Pick<
  BankAccountRow,
  | "bank_name"
  | "account_holder"
  | "account_number"
  | "fps_id"
  | "swift_code"
  | "bank_address"
  | "routing_number"
  | "is_demo"
>;

export type PaymentInstructions =
  /** HKD: FPS (when the account has an id) or a local transfer to the account number. */
  | {
      kind: "fps";
      demo: boolean;
      fpsId: string | null;
      bank: string;
      holder: string;
      accountNumber: string;
    }
  /** GBP, EUR, USD: an international (SWIFT) transfer in the order's currency. */
  | {
      kind: "international";
      demo: boolean;
      currency: Currency;
      bank: string;
      holder: string;
      accountNumber: string;
      swift: string;
      bankAddress: string | null;
      routingNumber: string | null;
    }
  /** No details to give for this currency (no SWIFT code, or no account in demo mode): the shopper writes to the shop. */
  | { kind: "contact"; supportEmail: string }
  /** A live shop without a real account: no details, and no order is taken. */
  | { kind: "closed"; supportEmail: string };

/** The payment details for an order in `currency`, or why there are none. */
export function paymentInstructions(
  account: PaymentAccountRow | null | undefined,
  currency: Currency,
  options: { demoMode: boolean; supportEmail: string },
): PaymentInstructions {
  const { supportEmail } = options;
  const demo = account?.is_demo === 1;
  if (!account) return options.demoMode ? { kind: "contact", supportEmail } : { kind: "closed", supportEmail };
  if (demo && !options.demoMode) return { kind: "closed", supportEmail };
  const common = {
    demo,
    bank: account.bank_name,
    holder: account.account_holder,
    accountNumber: account.account_number,
  };
  if (currency === "HKD") return { kind: "fps", ...common, fpsId: account.fps_id || null };
  if (!account.swift_code) return { kind: "contact", supportEmail };
  return {
    kind: "international",
    ...common,
    currency,
    swift: account.swift_code,
    bankAddress: account.bank_address || null,
    routingNumber: account.routing_number || null,
  };
}

/** Whether an order may be placed at all with these instructions. */
export function takesOrders(instructions: PaymentInstructions): boolean {
  return instructions.kind !== "closed";
}

/** The instructions for an order in `currency` from the database: the primary account as it stands. */
export async function loadPaymentInstructions(
  db: DB,
  currency: Currency,
  options: { demoMode: boolean; supportEmail: string },
): Promise<PaymentInstructions> {
  return paymentInstructions(await findPaymentAccount(db), currency, options);
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

const notFoundError = () => new UserError("adminSettings.errors.accountNotFound");
/** The primary account cannot be unticked: another one must be made primary, so one always is. */
const primaryStaysError = () => new UserError("adminSettings.errors.primaryStays", { field: "is_primary" });

type Trx = Transaction<Database>;

/** The account `id` as it stands inside `trx`; the not-found `UserError` when there is none. */
async function accountOrThrow(trx: Trx, id: number): Promise<BankAccountRow> {
  const row = await trx.selectFrom("bank_accounts").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFoundError();
  return row;
}

/**
 * Makes `row` the primary account inside `trx`: the old primary is unset first (the unique
 * index allows one at a time), and the switch is audited with both ids.
 */
/**
 * A transaction over the bank accounts. Exactly one account is primary: on PostgreSQL the
 * table lock makes two of these (two admins switching the primary at once) run in turn, so the
 * second reads the primary the first set; the unique index on is_primary = 1 backs it up.
 */
function accountsTransaction<T>(db: DB, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockTable(trx, "bank_accounts");
    return work(trx);
  });
}

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
  await auditAction(trx, actorUserId, "bank_account.made_primary", row.id, {
    before: { primary_account_id: old?.id ?? null, primary: old ?? null },
    after: { primary_account_id: row.id, primary: updated },
  });
  return updated;
}

/** The form fields an account stores as they are (`is_primary` is switched on its own). */
const ACCOUNT_FIELDS = [
  "bank_name",
  "account_holder",
  "account_number",
  "fps_id",
  "swift_code",
  "routing_number",
  "bank_address",
] as const;

function columns(input: BankAccountInput) {
  return pickColumns(input, ACCOUNT_FIELDS);
}

/** Adds an account; it becomes primary when asked or when it is the first one. */
export async function createBankAccount(
  db: DB,
  input: BankAccountInput,
  options: { actorUserId: string | null },
): Promise<BankAccount> {
  const account = await accountsTransaction(db, async (trx) => {
    const at = now();
    const inserted = await trx
      .insertInto("bank_accounts")
      .values({ ...columns(input), is_primary: 0, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    await auditAction(trx, options.actorUserId, "bank_account.created", inserted.id, { after: inserted });
    const hasPrimary = await trx
      .selectFrom("bank_accounts")
      .select("id")
      .where("is_primary", "=", 1)
      .executeTakeFirst();
    return input.is_primary || !hasPrimary ? switchPrimary(trx, inserted, options.actorUserId) : inserted;
  });
  return toBankAccount(account);
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
): Promise<BankAccount> {
  return accountsTransaction(db, async (trx): Promise<BankAccount> => {
    const before = await accountOrThrow(trx, id);
    if (before.is_primary === 1 && !input.is_primary) throw primaryStaysError();
    const row = await trx
      .updateTable("bank_accounts")
      .set({ ...columns(input), updated_at: now() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await auditAction(trx, options.actorUserId, "bank_account.updated", id, { before, after: row });
    const account = input.is_primary ? await switchPrimary(trx, row, options.actorUserId) : row;
    return toBankAccount(account);
  });
}

/** Makes an account the one shoppers pay into (the old primary is unset in the same transaction). */
export async function makePrimaryBankAccount(
  db: DB,
  id: number,
  options: { actorUserId: string | null },
): Promise<BankAccount> {
  return accountsTransaction(db, async (trx): Promise<BankAccount> => {
    const row = await accountOrThrow(trx, id);
    return toBankAccount(await switchPrimary(trx, row, options.actorUserId));
  });
}

/** Deletes an account; when it was the primary one, the newest remaining account becomes primary. */
export async function deleteBankAccount(
  db: DB,
  id: number,
  options: { actorUserId: string | null },
): Promise<BankAccount> {
  return accountsTransaction(db, async (trx): Promise<BankAccount> => {
    const before = await accountOrThrow(trx, id);
    await trx.deleteFrom("bank_accounts").where("id", "=", id).execute();
    await auditAction(trx, options.actorUserId, "bank_account.deleted", id, { before });
    if (before.is_primary === 1) {
      const newest = await trx
        .selectFrom("bank_accounts")
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
      if (newest) await switchPrimary(trx, newest, options.actorUserId);
    }
    return toBankAccount(before);
  });
}
