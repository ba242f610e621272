import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaArgs,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
} from "react-router";
import { ImagePicker } from "~/components/admin/image-picker";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { formatDate } from "~/lib/dates";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { BodyTooLargeError, IMAGE_PRESETS, ImageError, readFormData, storeImage } from "~/lib/images.server";
import { translateKey } from "~/lib/translate-key";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { type AdminPost, createBlogPost, findAdminPost, updateBlogPost } from "~/models/admin-blog.server";
import { BLOG_LIMITS, blogPostSchema } from "~/schemas/blog";

/*
 * The blog post form at /admin/blog/new and /admin/blog/edit/:id (one module, two route ids).
 * A plain multipart form: a refusal re-renders it with the input kept and the messages next to
 * the fields; a save redirects to the list with a flash message.
 */

const LIST = "/admin/blog";
/** The image limit plus room for four texts of up to 100,000 characters (4 bytes each at most). */
const BODY_LIMIT = IMAGE_PRESETS.blog.maxBytes + 2 * 1024 * 1024;

/** The post id of /admin/blog/edit/:id; null on /admin/blog/new. Anything else is not a page. */
function parseId(params: Record<string, string | undefined>): number | null {
  if (params.id === undefined) return null;
  if (!/^[1-9]\d{0,14}$/.test(params.id)) throw data(null, { status: 404 });
  return Number(params.id);
}

async function loadPost(context: LoaderFunctionArgs["context"], id: number | null): Promise<AdminPost | null> {
  if (id === null) return null;
  const post = await findAdminPost(services(context).db, id);
  if (!post) throw data(null, { status: 404 });
  return post;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  const id = parseId(params);
  const post = await loadPost(context, id);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const firstPublished = post?.published_at ? formatDate(post.published_at, language, "longDate") : null;
  return {
    post: post
      ? {
          id: post.id,
          title_en: post.title_en,
          title_zh: post.title_zh,
          content_en: post.content_en,
          content_zh: post.content_zh,
          author: post.author,
          published: post.published,
          image_url: post.image_url,
          firstPublished,
        }
      : null,
    title: `${t(post ? "adminBlog.form.editTitle" : "adminBlog.form.newTitle")} | ${t("admin.title")}`,
  };
}

type Problem = { key: string; params?: Record<string, string | number> };

/** Saves the post. The admin right is checked before the body is read. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const { db, storage } = services(context);
  const id = parseId(params);
  await loadPost(context, id);
  let form: FormData;
  try {
    form = await readFormData(request, BODY_LIMIT);
  } catch (error) {
    const tooLarge = error instanceof BodyTooLargeError;
    return data(
      {
        // No input to give back: the body was not read.
        result: null,
        formProblem: { key: tooLarge ? "adminBlog.errors.uploadTooLarge" : "error.badRequest" } as Problem | null,
        imageProblem: null as Problem | null,
      },
      { status: tooLarge ? 413 : 400 },
    );
  }
  const submission = parseWithZod(form, { schema: blogPostSchema });
  const reply = (options: Parameters<typeof submission.reply>[0], imageProblem: Problem | null = null) =>
    data({ result: submission.reply(options), formProblem: null as Problem | null, imageProblem }, { status: 400 });
  if (submission.status !== "success") return reply({});
  const value = submission.value;

  // An image is optional; a chosen one goes through the pipeline before anything is saved.
  let imageKey: string | null = null;
  const file = form.get("image");
  if (file instanceof File && (file.size > 0 || file.name !== "")) {
    try {
      imageKey = await storeImage(storage, file, "blog", { folder: "blog" });
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      return reply({ fieldErrors: { image: [error.messageKey] } }, { key: error.messageKey, params: error.params });
    }
  }

  const actor = { actorUserId: admin.id, imageKey };
  if (id === null) {
    await createBlogPost(db, storage, value, actor);
  } else {
    const saved = await updateBlogPost(db, storage, id, value, { ...actor, removeImage: value.remove_image });
    if (!saved) throw data(null, { status: 404 });
  }
  setFlash(context, { type: "success", key: id === null ? "adminBlog.created" : "adminBlog.updated" });
  return redirect(LIST);
}

export default function BlogPostForm() {
  const { t } = useTranslation();
  const { post } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-4xl">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">{t(post ? "adminBlog.form.editTitle" : "adminBlog.form.newTitle")}</h1>
        <Link to={LIST} className="text-sm font-medium text-brand-700 hover:underline">
          ← {t("adminBlog.form.back")}
        </Link>
      </div>
      <PostForm
        key={post ? `edit-${post.id}` : "new"}
        post={post}
        lastResult={actionData?.result}
        formProblem={actionData?.formProblem ?? null}
        imageProblem={actionData?.imageProblem ?? null}
      />
    </div>
  );
}

type LoadedPost = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["post"]>;

function PostForm({
  post,
  lastResult,
  formProblem,
  imageProblem,
}: {
  post: LoadedPost | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
  formProblem: Problem | null;
  imageProblem: Problem | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: post ? `blog-post-${post.id}` : "blog-post-new",
    lastResult,
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
  // The pipeline's refusal comes with its parameters (e.g. the size limit), so it is shown from the reply.
  const imageErrors = imageProblem
    ? [translateKey(t, imageProblem.key, imageProblem.params)]
    : fields.image.errors?.map((key) => translateKey(t, key));

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
      {formProblem ? <FormErrors errors={[formProblem.key]} params={formProblem.params} /> : null}
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
          id={fields.image.id}
          name={fields.image.name}
          errorId={fields.image.errorId}
          label={t("adminBlog.form.image")}
          hint={t("adminBlog.form.imageHint")}
          errors={imageErrors}
          previewAlt={t("adminBlog.form.preview")}
          clearLabel={t("adminBlog.form.clearChosen")}
          previewClassName="h-24 w-40 rounded-md border border-stone-200 object-cover"
        />
        {post?.image_url ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <img
              src={post.image_url}
              alt={t("adminBlog.form.currentImage")}
              className="h-24 w-40 rounded-md border border-stone-200 object-cover"
            />
            <label className="flex items-center gap-2">
              <input {...getInputProps(fields.remove_image, { type: "checkbox" })} className="size-4" />
              {t("adminBlog.form.removeImage")}
            </label>
          </div>
        ) : null}
      </div>

      <div className="flex flex-col gap-1">
        <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
          <input {...getInputProps(fields.published, { type: "checkbox" })} className="size-4" />
          {t("adminBlog.form.publish")}
        </label>
        <p className="text-xs text-stone-500">
          {t("adminBlog.form.publishHint")}
          {post?.firstPublished ? ` ${t("adminBlog.form.firstPublished", { date: post.firstPublished })}` : null}
        </p>
      </div>

      <div className="flex flex-wrap gap-3">
        <StatusButton pendingText={uploading ? t("adminBlog.form.uploading") : t("adminBlog.form.saving")}>
          {t("adminBlog.form.save")}
        </StatusButton>
        <Link to={LIST} className="rounded-md border border-stone-300 px-4 py-2 hover:bg-stone-50">
          {t("adminBlog.form.cancel")}
        </Link>
      </div>
    </Form>
  );
}

export function meta({ loaderData }: MetaArgs<typeof loader>) {
  return [{ title: loaderData?.title ?? "Admin" }, { name: "robots", content: "noindex" }];
}
