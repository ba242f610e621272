import { z } from "zod";
import { LANGUAGES } from "~/locales/languages";
import { emailField } from "./auth";

const BAD_REQUEST = "adminStaff.errors.badRequest";
const adminId = z.coerce.number({ error: BAD_REQUEST }).int({ error: BAD_REQUEST }).positive({ error: BAD_REQUEST });

/**
 * Add a member of staff by e-mail (an existing account is promoted; a new one is created), and
 * the language of their invitation (absent: the account's own, else the shop's default).
 */
export const addStaffSchema = z.object({
  intent: z.literal("add"),
  email: emailField,
  language: z.enum(LANGUAGES, { error: BAD_REQUEST }).optional(),
});

/** Send a member of staff's invitation again (a new link, in the language of the first). */
export const resendInvitationSchema = z.object({ intent: z.literal("resend"), id: adminId });

/** Remove an admin (an admin users row); without confirmed=1 it leads to the confirmation step. */
export const removeStaffSchema = z.object({
  intent: z.literal("remove"),
  id: adminId,
  confirmed: z.string().optional(),
});

/** Change another admin's role. */
export const staffRoleSchema = z.object({
  intent: z.literal("role"),
  id: adminId,
  role: z.enum(["owner", "staff"], { error: BAD_REQUEST }),
});

/** Every form of /admin/staff, told apart by its intent. */
export const staffActionSchema = z.discriminatedUnion(
  "intent",
  [addStaffSchema, removeStaffSchema, staffRoleSchema, resendInvitationSchema],
  {
    error: BAD_REQUEST,
  },
);
