import { z } from "zod";
import { requiredText } from "~/lib/text-field";

/** Lengths a post may have, in characters (the form's maxlength and the server agree). */
export const BLOG_LIMITS = { title: 200, author: 100, content: 100_000 } as const;

/** One line ending: browsers send CRLF from a textarea, which would count twice against the limit. */
const lineEndings = (value: string) => value.replace(/\r\n?/g, "\n");

/** Markdown is kept as written (not trimmed); only blank content counts as missing. */
const requiredMarkdown = (requiredKey: string) =>
  z
    .string({ error: requiredKey })
    .overwrite(lineEndings)
    .max(BLOG_LIMITS.content, { error: "adminBlog.errors.contentTooLong" })
    .refine((value) => value.trim().length > 0, { error: requiredKey });

/** An HTML checkbox: present means ticked. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== "" && value !== "off" && value !== "0");

/**
 * The blog post form, shared by the server and the browser. Messages are translation keys.
 * The image file is judged by the action (it goes through the image pipeline), so the schema
 * only names it.
 */
export const blogPostSchema = z.object({
  title_en: requiredText("adminBlog.errors.titleEnRequired", BLOG_LIMITS.title, "adminBlog.errors.titleTooLong"),
  title_zh: requiredText("adminBlog.errors.titleZhRequired", BLOG_LIMITS.title, "adminBlog.errors.titleTooLong"),
  content_en: requiredMarkdown("adminBlog.errors.contentEnRequired"),
  content_zh: requiredMarkdown("adminBlog.errors.contentZhRequired"),
  author: requiredText("adminBlog.errors.authorRequired", BLOG_LIMITS.author, "adminBlog.errors.authorTooLong"),
  published: checkbox,
  remove_image: checkbox,
  image: z.unknown().optional(),
});

export type BlogPostInput = z.infer<typeof blogPostSchema>;

/** The list's delete button; "1" in `confirmed` once the admin has confirmed. */
export const deleteBlogPostSchema = z.object({
  intent: z.literal("delete"),
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  confirmed: z.string().optional(),
});
