import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { CheckboxField } from "~/components/admin/checkbox-field";
import { ImagePicker, StoredImage, useImageErrors } from "~/components/admin/image-picker";
import { ButtonLink } from "~/components/ui/button";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem, UnreadBodyProblems } from "~/lib/problem";
import type { AdminPost } from "~/models/blog.server";
import { BLOG_LIMITS, blogPostSchema } from "~/schemas/blog";

export const BLOG_LIST_PATH = "/admin/blog";

/** The post as the form shows it (the loader's shape): the admin post's fields, and when it was first published. */
export type LoadedPost = Pick<
  AdminPost,
  "id" | "title_en" | "title_zh" | "content_en" | "content_zh" | "author" | "published" | "image_url"
> & { firstPublished: string | null };

/** What the blog editor calls a post refused before it was read (too large, not a form). */
export const BLOG_UNREAD = {
  tooLarge: { key: "adminBlog.errors.uploadTooLarge" },
  notAForm: { key: "error.badRequest" },
} satisfies UnreadBodyProblems;

/**
 * A body refused before it was read has no input to give back: its message shows above the
 * form, which keeps what was typed.
 */
function isUnreadBody(problem: Problem | null | undefined): problem is Problem {
  return problem?.key === BLOG_UNREAD.tooLarge.key || problem?.key === BLOG_UNREAD.notAForm.key;
}

/** The blog post editor: both languages, the author, an optional image and the publish switch. */
export function PostForm({
  post,
  lastResult,
  problem,
}: {
  post: LoadedPost | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** The refusal of the last save, if any. */
  problem: Problem | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const unread = isUnreadBody(problem);
  const [form, fields] = useForm({
    id: post ? `blog-post-${post.id}` : "blog-post-new",
    lastResult: unread ? undefined : lastResult,
    constraint: getZodConstraint(blogPostSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: post
      ? {
          title_en: post.title_en,
          title_zh: post.title_zh,
          content_en: post.content_en,
          content_zh: post.content_zh,
          author: post.author,
          published: post.published ? "on" : undefined,
        }
      : {},
    onValidate: ({ formData }) => parseWithZod(formData, { schema: blogPostSchema }),
  });
  const chosen = navigation.state === "submitting" ? navigation.formData?.get("image") : null;
  const uploading = chosen instanceof File && chosen.size > 0;
  const imageErrors = useImageErrors(problem, fields.image);

  const textField = (field: typeof fields.title_en, label: string, maxLength: number) => (
    <Field label={label} htmlFor={field.id} errors={field.errors} errorId={field.errorId}>
      <input {...getInputProps(field, { type: "text" })} maxLength={maxLength} className={inputClass} />
    </Field>
  );
  const markdownField = (field: typeof fields.content_en, label: string, lang: string) => (
    <Field
      label={label}
      htmlFor={field.id}
      hint={t("adminBlog.form.contentHint")}
      errors={field.errors}
      errorId={field.errorId}
    >
      <textarea
        {...getTextareaProps(field)}
        lang={lang}
        rows={14}
        maxLength={BLOG_LIMITS.content}
        className={`${inputClass} font-mono text-sm`}
      />
    </Field>
  );

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="mt-6 flex flex-col gap-6 rounded-lg bg-white p-4 shadow-sm sm:p-6"
    >
      {unread ? <FormErrors errors={[problem.key]} /> : null}
      <FormErrors errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        {textField(fields.title_en, t("adminBlog.form.titleEn"), BLOG_LIMITS.title)}
        {textField(fields.title_zh, t("adminBlog.form.titleZh"), BLOG_LIMITS.title)}
      </div>
      {markdownField(fields.content_en, t("adminBlog.form.contentEn"), "en")}
      {markdownField(fields.content_zh, t("adminBlog.form.contentZh"), "zh-HK")}
      <div className="sm:max-w-sm">{textField(fields.author, t("adminBlog.form.author"), BLOG_LIMITS.author)}</div>

      <div className="flex flex-col gap-2">
        <ImagePicker
          field={fields.image}
          label={t("adminBlog.form.image")}
          hint={t("adminBlog.form.imageHint")}
          errors={imageErrors}
          previewAlt={t("adminBlog.form.preview")}
          clearLabel={t("adminBlog.form.clearChosen")}
          previewClassName="h-24 w-40 rounded-md border border-stone-200 object-cover"
        />
        {post?.image_url ? (
          <StoredImage
            src={post.image_url}
            alt={t("adminBlog.form.currentImage")}
            className="h-24 w-40 rounded-md border border-stone-200 object-cover"
            remove={fields.remove_image}
            removeLabel={t("adminBlog.form.removeImage")}
          />
        ) : null}
      </div>

      <CheckboxField
        field={fields.published}
        label={t("adminBlog.form.publish")}
        hint={
          <>
            {t("adminBlog.form.publishHint")}
            {post?.firstPublished ? ` ${t("adminBlog.form.firstPublished", { date: post.firstPublished })}` : null}
          </>
        }
      />

      <div className="flex flex-wrap gap-3">
        <StatusButton pendingText={uploading ? t("adminBlog.form.uploading") : t("adminBlog.form.saving")}>
          {t("adminBlog.form.save")}
        </StatusButton>
        <ButtonLink to={BLOG_LIST_PATH} variant="secondary" className="font-normal">
          {t("adminBlog.form.cancel")}
        </ButtonLink>
      </div>
    </Form>
  );
}
