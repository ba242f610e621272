import type { DB } from "#db/connect.server";
import type { BankAccountRow, Currency } from "#db/schema";

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
