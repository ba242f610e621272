import { data } from "react-router";
import { ProductEditor } from "~/components/admin/product-editor";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { parseId } from "~/lib/ids";
import { IMAGE_PRESETS } from "~/lib/images.server";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import { listBrands } from "~/models/brands.server";
import { listZoneChoices, productZoneIds } from "~/models/orders/restrictions.server";
import {
  createProduct,
  findProductForEdit,
  imageUrls,
  listCategoryChoices,
  productFormValues,
  updateProduct,
} from "~/models/products/editor.server";
import { keepChosenImages, removeStagedImages, takeStagedImages } from "~/models/products/staged-images.server";
import { getShop } from "~/models/settings/shop.server";
import { requireAdmin } from "~/request/auth.server";
import {
  BROWSER_KEEPS_FILES_FIELD,
  imageKeysOf,
  KEPT_IMAGE_FIELD,
  type KeptImages,
  MAX_PRODUCT_IMAGES,
  productSchema,
  REMOVE_KEPT_IMAGE_FIELD,
} from "~/schemas/product";
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
    brands: await listBrands(services(context).db),
    zones: await listZoneChoices(services(context).db),
    zoneIds: existing ? await productZoneIds(services(context).db, existing.product.id) : [],
    rates: (await getShop(context)).exchangeRates,
    title: `${t(existing ? "adminProductForm.editTitle" : "adminProductForm.newTitle")} | ${t("admin.title")}`,
  };
}

/** The new images a post carries: kept ones (tokens, in order), the ones ticked for removal, files chosen now. */
function chosenImages(form: FormData) {
  const tokens = form
    .getAll(KEPT_IMAGE_FIELD)
    .filter((value): value is string => typeof value === "string")
    .map((value) => {
      const [token = "", ...name] = value.split(":");
      return { token, name: name.join(":") };
    });
  return {
    tokens,
    removed: form.getAll(REMOVE_KEPT_IMAGE_FIELD).filter((value): value is string => typeof value === "string"),
    // No file chosen is an empty part without a name; an empty file the admin did choose is refused.
    files: form
      .getAll("newImages")
      .filter((file): file is File => file instanceof File && (file.size > 0 || file.name !== "")),
  };
}

export const action = formAction(
  {
    schema: productSchema,
    maxBytes: BODY_LIMIT,
    uploadField: "newImages",
    authorize: async (args: Route.ActionArgs) => ({
      admin: requireAdmin(args.context, args.request),
      existing: await loadExisting(args),
    }),
    // Without JavaScript the page that comes back cannot refill the file input: the chosen files
    // are kept here, unless they are what was refused or the browser keeps them itself.
    unsaved: async ({ context, form, auth: { admin, existing }, problem }): Promise<KeptImages> => {
      const chosen = chosenImages(form);
      const ownImages = new Set(imageKeysOf(form));
      const kept = (existing?.images ?? []).filter((key) => ownImages.has(key)).length;
      const keepFiles = form.get(BROWSER_KEEPS_FILES_FIELD) !== "1" && problem?.field !== "newImages";
      return keepChosenImages(services(context).storage, admin.id, {
        ...chosen,
        files: keepFiles ? chosen.files : [],
        free: MAX_PRODUCT_IMAGES - kept,
      });
    },
  },
  async ({ context, form, value, auth: { admin, existing } }) => {
    const { db, storage, config } = services(context);
    const { tokens, removed, files } = chosenImages(form);
    const keep = [...new Set(value.images)].filter((key) => existing?.images.includes(key));
    const free = Math.max(0, MAX_PRODUCT_IMAGES - keep.length);
    const wanted = [...new Set(tokens.map(({ token }) => token))].filter((token) => !removed.includes(token));
    // Kept images first (they were chosen first), then the files chosen now, as many as fit.
    const staged = await takeStagedImages(storage, admin.id, wanted.slice(0, free));
    const accepted = [...staged, ...files.slice(0, free - staged.length)];
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
        config,
      );
      if (!saved) throw data(null, { status: 404 });
    }
    await removeStagedImages(
      storage,
      admin.id,
      tokens.map(({ token }) => token),
    );
    return succeed(context, form, {
      redirectTo: "/admin/products",
      flash: {
        type: "success",
        key: existing === null ? "adminProductForm.created" : "adminProductForm.updated",
        ...(wanted.length + files.length > accepted.length
          ? { detailKey: "adminProductForm.imagesSkipped", params: { count: free } }
          : {}),
      },
    });
  },
);

/** The new images an answer that saved nothing kept (the action's `unsaved`), if any. */
function keptImagesOf(answer: unknown): KeptImages | undefined {
  return answer && typeof answer === "object" && "staged" in answer ? (answer as KeptImages) : undefined;
}

export default function ProductForm({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ProductEditor
      kept={keptImagesOf(actionData)}
      key={loaderData.id ?? "new"}
      productId={loaderData.id}
      defaultValue={loaderData.defaultValue}
      imageUrls={loaderData.imageUrls}
      categories={loaderData.categories}
      brands={loaderData.brands}
      zones={loaderData.zones}
      zoneIds={loaderData.zoneIds}
      rates={loaderData.rates}
      lastResult={actionData?.result}
      problem={actionData?.problem ?? null}
    />
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
