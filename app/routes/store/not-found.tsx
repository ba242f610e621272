import { data } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { getShop, shopName } from "~/models/shop.server";
import type { Route } from "./+types/not-found";

/** Any unknown path: the spec's not-found page, with HTTP 404. */
export async function loader({ context }: Route.LoaderArgs) {
  const shop = shopName(await getShop(context), getLanguage(context));
  return data({ title: getInstance(context).t("notFound.metaTitle", { shop }) }, { status: 404 });
}

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <p className="text-6xl font-extrabold text-brand-700">404</p>
      <h1 className="text-2xl font-semibold">{t("notFound.title")}</h1>
      <p className="text-stone-600">{t("notFound.text")}</p>
      <ButtonLink to="/">{t("notFound.returnHome")}</ButtonLink>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "404" },
  { name: "robots", content: "noindex" },
];
