import { Link } from "react-router";
import { MessagePanel } from "~/components/ui/message-panel";
import { useTranslation } from "~/lib/i18n";

/** What each e-mail link's page says when the link cannot be used, and the way on. */
const LINKS = {
  reset: { title: "reset.invalidTitle", text: "reset.invalidText", to: "/forgot-password", action: "reset.requestNew" },
  verify: {
    title: "verify.invalidTitle",
    text: "verify.invalidText",
    to: "/login?mode=signup",
    action: "auth.toSignup",
  },
} as const;

/** A link from one of the shop's e-mails that is used, expired or garbled: the page says so and offers a new start. */
export function UnusableLink({ link }: { link: keyof typeof LINKS }) {
  const { t } = useTranslation();
  const texts = LINKS[link];
  return (
    <MessagePanel
      layout="page"
      title={t(texts.title)}
      text={t(texts.text)}
      action={
        <Link to={texts.to} className="mt-6 inline-block font-semibold text-brand-700 hover:underline">
          {t(texts.action)}
        </Link>
      }
    />
  );
}
