import { data } from "react-router";
import { ProductEditor } from "~/components/admin/product-editor";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { formAction, succeed } from "~/lib/form-action.server";
import { parseId } from "~/lib/ids";
import { IMAGE_PRESETS } from "~/lib/images.server";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import {
  createProduct,
  findProductForEdit,
  imageUrls,
  listCategoryChoices,
  productFormValues,
  updateProduct,
} from "~/models/products/editor.server";
import { getShop } from "~/models/settings/shop.server";
import { MAX_PRODUCT_IMAGES, productSchema } from "~/schemas/product";
import type { Route } from "./+types/product-form";

/*
 * /admin/products/new and /admin/products/edit/:id: the product editor
 * (app/components/admin/product-editor.tsx) on the one form contract.
 */

/** Five product images at most, plus room for the other fields and the multipart envelope. */
const BODY_LIMIT = MAX_PRODUCT_IMAGES * IMAGE_PRESETS.product.maxBytes + 1024 * 1024;

/** The product being edited (404 for an id that is not one), or null on the new-product page. */
async function loadExisting({ context, params }: Pick<Route.LoaderArgs, "context" | "params">) {
  if (params.id === undefined) return null;
  const id = parseId(params.id);
  const existing = id === null ? null : await findProductForEdit(services(context).db, id);
  if (!existing) throw data(null, { status: 404 });
  return existing;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const existing = await loadExisting({ context, params });
  const t = getInstance(context).t;
  return {
    id: existing?.product.id ?? null,
    defaultValue: productFormValues(existing),
    imageUrls: imageUrls(existing),
    categories: await listCategoryChoices(services(context).db),
    rates: (await getShop(context)).exchangeRates,
    title: `${t(existing ? "adminProductForm.editTitle" : "adminProductForm.newTitle")} | ${t("admin.title")}`,
  };
}

export const action = formAction(
  {
    schema: productSchema,
    maxBytes: BODY_LIMIT,
    authorize: async (args: Route.ActionArgs) => ({
      admin: requireAdmin(args.context, args.request),
      existing: await loadExisting(args),
    }),
  },
  async ({ context, form, value, auth: { admin, existing } }) => {
    const { db, storage } = services(context);
    // No file chosen is an empty part without a name; an empty file the admin did choose is refused.
    const files = form
      .getAll("newImages")
      .filter((file): file is File => file instanceof File && (file.size > 0 || file.name !== ""));
    const keep = [...new Set(value.images)].filter((key) => existing?.images.includes(key));
    const free = Math.max(0, MAX_PRODUCT_IMAGES - keep.length);
    const accepted = files.slice(0, free);
    if (existing === null) {
      await createProduct(db, storage, value, accepted, admin.id);
    } else {
      const saved = await updateProduct(
        db,
        storage,
        existing.product.id,
        value,
        { keep, newFiles: accepted, colors: value.imageColors },
        admin.id,
      );
      if (!saved) throw data(null, { status: 404 });
    }
    return succeed(context, form, {
      redirectTo: "/admin/products",
      flash: {
        type: "success",
        key: existing === null ? "adminProductForm.created" : "adminProductForm.updated",
        ...(files.length > accepted.length
          ? { detailKey: "adminProductForm.imagesSkipped", params: { count: free } }
          : {}),
      },
    });
  },
);

export default function ProductForm({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ProductEditor
      key={loaderData.id ?? "new"}
      productId={loaderData.id}
      defaultValue={loaderData.defaultValue}
      imageUrls={loaderData.imageUrls}
      categories={loaderData.categories}
      rates={loaderData.rates}
      lastResult={actionData?.result}
      problem={actionData?.problem ?? null}
    />
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
