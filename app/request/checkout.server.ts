import crypto from "node:crypto";
import type { RouterContextProvider } from "react-router";
import type { AgeConfirmation } from "~/models/orders/age.server";
import { type CheckoutInput, checkoutSchema } from "~/schemas/checkout";
import { getSession, setSessionValue } from "./session.server";

/**
 * What checkout hands to payment, kept in the session: the customer's details, the payment
 * form's one-time key and the number the order will have (so the payment page's FPS code and
 * the transfer can carry it: `checkoutOrderNumber`, docs/decisions/041). `draft` holds what a
 * signed-out shopper typed, to refill the form after they sign in.
 */
export interface CheckoutState {
  customer: CheckoutInput;
  submissionKey: string;
  /** Null only in a checkout saved before order numbers were reserved (the payment page gives it one). */
  orderNumber: string | null;
  /** The shopper's "I am 18 or older", when the checkout had 18+ items (docs/decisions/049). */
  ageConfirmation: AgeConfirmation | null;
}

export function getCheckout(context: Readonly<RouterContextProvider>): CheckoutState | null {
  const value = getSession(context).data.checkout as Partial<CheckoutState> | undefined;
  if (!value || typeof value.submissionKey !== "string") return null;
  const parsed = checkoutSchema.safeParse(value.customer);
  if (!parsed.success) return null;
  const orderNumber = typeof value.orderNumber === "string" ? value.orderNumber : null;
  const age = value.ageConfirmation;
  const ageConfirmation =
    age && typeof age.at === "string" ? { at: age.at, ip: typeof age.ip === "string" ? age.ip : null } : null;
  return { customer: parsed.data, submissionKey: value.submissionKey, orderNumber, ageConfirmation };
}

/** Starts (or restarts) payment with these details: a new one-time key for the payment form. */
export function saveCheckout(
  context: Readonly<RouterContextProvider>,
  customer: CheckoutInput,
  orderNumber: string,
  ageConfirmation: AgeConfirmation | null = null,
): CheckoutState {
  const state = { customer, submissionKey: crypto.randomUUID(), orderNumber, ageConfirmation };
  const session = getSession(context);
  setSessionValue(session, "checkout", state);
  setSessionValue(session, "checkoutDraft", undefined);
  return state;
}

export function clearCheckout(context: Readonly<RouterContextProvider>): void {
  setSessionValue(getSession(context), "checkout", undefined);
}

export function getCheckoutDraft(context: Readonly<RouterContextProvider>): Record<string, string> | null {
  const draft = getSession(context).data.checkoutDraft;
  return draft && typeof draft === "object" ? (draft as Record<string, string>) : null;
}

export function saveCheckoutDraft(context: Readonly<RouterContextProvider>, values: Record<string, string>): void {
  setSessionValue(getSession(context), "checkoutDraft", values);
}
