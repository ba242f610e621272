/**
 * The one way a route action answers a form (docs/architecture.md, "Adding a form").
 *
 *   read the body with a byte limit  → too large: 413, not a form: 400
 *   parse it with the shared Zod schema through Conform
 *     → invalid: 400 with the reply (field errors and the user's input)
 *     → a Conform list intent (add/remove/reorder a row): 200 with the reply, nothing saved
 *   call the model                    → a refusal (`UserError`): its status with the reply
 *   succeed                           → plain post: flash + redirect; fetcher: data
 *
 * Every answer that is not a redirect has the same shape, `FormAnswer`: `{ result, problem }`
 * plus what the page needs to show the outcome.
 */

import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { isDatabaseUnavailable } from "#db/errors";
import { type Flash, setFlash } from "../request/flash.server";
import { FETCHER_FIELD } from "./fetcher";
import { BodyTooLargeError, readFormData } from "./images.server";
import { logger } from "./log.server";
import { isStorageFailure, outageHeaders, outageProblemKey, outageStatus } from "./outage.server";
import { type Problem, type UnreadBodyProblems, UserError } from "./problem";

export { FETCHER_FIELD } from "./fetcher";
export { type Problem, type UnreadBodyProblems, UserError } from "./problem";

/** A text form with no file: far more than any of our text forms needs. */
export const TEXT_FORM_LIMIT = 256 * 1024;

export function wantsData(form: FormData): boolean {
  return form.get(FETCHER_FIELD) === "1";
}

/** What a form action answers when it does not redirect. */
export interface FormAnswer {
  result: SubmissionResult<string[]> | undefined;
  problem: Problem | null;
}

/** What of a Conform submission the contract needs: its reply. */
interface Replying {
  reply(options?: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    resetForm?: boolean;
    hideFields?: string[];
  }): SubmissionResult<string[]>;
}

const emptySchema = z.object({});

/**
 * Reads the request's form with a byte limit. A body over the limit is a `UserError` with 413,
 * anything that is not a form (JSON, garbage, cut short) one with 400, each with the page's own
 * problem when it gives one.
 */
export async function readFormBody(
  request: Request,
  maxBytes: number = TEXT_FORM_LIMIT,
  unread: UnreadBodyProblems = {},
): Promise<FormData> {
  try {
    return await readFormData(request, maxBytes);
  } catch (error) {
    const { key, ...rest } =
      error instanceof BodyTooLargeError
        ? (unread.tooLarge ?? { key: "error.bodyTooLarge" })
        : (unread.notAForm ?? { key: "error.badRequest" });
    throw new UserError(key, { ...rest, status: error instanceof BodyTooLargeError ? 413 : 400 });
  }
}

/**
 * The reply to the form with the problem as a form or field error (so it shows next to the field).
 * A form-level problem's `detailKey` is its second form error (`FormErrors` shows it under the title).
 * `hideFields` (a password) are not sent back.
 */
export function problemReply(
  submission: Replying | null,
  problem: Problem,
  hideFields?: string[],
): SubmissionResult<string[]> {
  const reply = submission ?? parseWithZod(new FormData(), { schema: emptySchema });
  return problem.field
    ? reply.reply({ fieldErrors: { [problem.field]: [problem.key] }, hideFields })
    : reply.reply({ formErrors: problem.detailKey ? [problem.key, problem.detailKey] : [problem.key], hideFields });
}

/** Answers a refusal: the form comes back with the user's input, the message and the status. */
export function refuse<Extra extends object = object>(
  submission: Replying | null,
  problem: Problem,
  status = 400,
  extra?: Extra,
  hideFields?: string[],
) {
  return data({ result: problemReply(submission, problem, hideFields), problem, ...extra } as FormAnswer & Extra, {
    status,
  });
}

/**
 * The end of a successful action: a plain post is redirected with a flash message (post/redirect/
 * get, works without JavaScript); a fetcher gets `payload` as data and the flash as part of it.
 */
export function succeed<Payload extends object = object>(
  context: Readonly<RouterContextProvider>,
  form: FormData,
  options: { redirectTo: string; flash?: Flash; payload?: Payload; headers?: HeadersInit },
) {
  if (wantsData(form)) {
    return data({ result: undefined, problem: null, flash: options.flash ?? null, ...options.payload } as FormAnswer &
      Payload & { flash: Flash | null });
  }
  if (options.flash) setFlash(context, options.flash);
  return redirect(options.redirectTo, { headers: options.headers });
}

interface ActionArgsLike {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: Record<string, string | undefined>;
}

interface FormActionConfig<Args extends ActionArgsLike, Schema extends z.ZodType, Auth> {
  /** The shared schema, or one chosen from the raw form (e.g. by its `intent`). */
  schema: Schema | ((form: FormData) => Schema);
  /** Body limit in bytes; forms with a file set the file's limit plus room for the fields. */
  maxBytes?: number;
  /** Checked before the body is read: the admin or owner right; its value reaches the handler. */
  authorize?: (args: Args) => Auth | Promise<Auth>;
  /** Fields never sent back to the page in a reply (a password). */
  hideFields?: string[];
  /** The page's words for a body refused before it was read (too large, not a form). */
  unread?: UnreadBodyProblems;
  /**
   * The file field whose upload a failed storage or a full disk is told next to (a 503/504/507
   * answer keeping the input, decision 065); without it the message is the form's.
   */
  uploadField?: string;
  /**
   * What an answer that saves nothing (a list intent, invalid input, a refusal) carries back
   * besides the reply, e.g. the chosen files kept on the server, which a browser without
   * JavaScript would not send again (the product form). `problem` is the refusal, if any.
   */
  unsaved?: (args: Args & { form: FormData; auth: Auth; problem: Problem | null }) => Promise<object>;
}

export type FormActionArgs<Args, Schema extends z.ZodType, Auth> = Args & {
  form: FormData;
  submission: Replying;
  value: z.output<Schema>;
  auth: Auth;
};

/**
 * Wraps a route action in the contract above. The handler runs only with a valid submission;
 * a `UserError` it (or the model it calls) throws becomes the 4xx answer with the user's input.
 */
export function formAction<Args extends ActionArgsLike, Schema extends z.ZodType, Auth, Result>(
  config: FormActionConfig<Args, Schema, Auth>,
  handler: (args: FormActionArgs<Args, Schema, Auth>) => Promise<Result> | Result,
) {
  return async (args: Args) => {
    const auth = (await config.authorize?.(args)) as Auth;
    let form: FormData;
    try {
      form = await readFormBody(args.request, config.maxBytes, config.unread);
    } catch (error) {
      if (error instanceof UserError) return refuse(null, error.problem, error.status);
      throw error;
    }
    const schema = typeof config.schema === "function" ? config.schema(form) : config.schema;
    const submission = parseWithZod(form, { schema });
    const unsaved = async (problem: Problem | null) => (await config.unsaved?.({ ...args, form, auth, problem })) ?? {};
    if (submission.status === undefined) {
      // A Conform list intent (insert/remove/reorder a row): the form comes back changed, nothing saved.
      const answer = { result: submission.reply({ hideFields: config.hideFields }), problem: null };
      return data({ ...answer, ...(await unsaved(null)) } as FormAnswer, { status: 200 });
    }
    if (submission.status !== "success") {
      const answer = { result: submission.reply({ hideFields: config.hideFields }), problem: null };
      return data({ ...answer, ...(await unsaved(null)) } as FormAnswer, { status: 400 });
    }
    try {
      return await handler({ ...args, form, submission, value: submission.value as z.output<Schema>, auth });
    } catch (error) {
      if (error instanceof UserError) {
        const extra = await unsaved(error.problem);
        return refuse(submission, error.problem, error.status, extra, config.hideFields);
      }
      // The bucket down or slow, the disk full: the form comes back with its input and says so.
      // A database that cannot serve is the 503 page instead (the page could not load either).
      const status = outageStatus(error);
      if (!status || (isDatabaseUnavailable(error) && !isStorageFailure(error))) throw error;
      logger.warn({ status, err: (error as Error).message }, `form: answered ${status}, a dependency failed`);
      const problem: Problem = {
        key: outageProblemKey(status),
        ...(config.uploadField ? { field: config.uploadField } : {}),
      };
      let extra: object = {};
      try {
        extra = await unsaved(problem);
      } catch {
        // What the page keeps between answers could not be kept either: the answer goes without it.
      }
      return data({ result: problemReply(submission, problem, config.hideFields), problem, ...extra } as FormAnswer, {
        status,
        headers: outageHeaders(),
      });
    }
  };
}
