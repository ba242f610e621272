import { type DefaultValue, type SubmissionResult, useForm } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * A Conform form validated on the server only (docs/decisions/015): the action's last result,
 * the schema's HTML constraints from the loader, its errors shown once the form is sent.
 */
export function useServerForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>(
  lastResult: SubmissionResult<string[]> | undefined,
  constraint: ReturnType<typeof getZodConstraint>,
  options: { id?: string; defaultValue?: DefaultValue<z.input<Schema>> } = {},
) {
  return useForm<z.input<Schema>>({ ...options, lastResult, constraint, shouldValidate: "onSubmit" });
}
