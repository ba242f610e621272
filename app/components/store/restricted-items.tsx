import { useTranslation } from "~/lib/i18n";

/**
 * The cart's items that cannot go to the chosen destination, each with where it can go — the
 * words placeOrder refuses with (docs/decisions/049) — on the cart and checkout pages.
 */
export function RestrictedItems({
  messages,
  className = "",
}: {
  messages: readonly { key: string; params: Record<string, string | number> }[];
  className?: string;
}) {
  const { t } = useTranslation();
  if (messages.length === 0) return null;
  return (
    <div
      role="alert"
      className={`rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 ${className}`.trim()}
      data-restricted
    >
      <ul className="space-y-1">
        {messages.map((message) => (
          <li key={message.key + String(message.params.name)}>
            {t(message.key as "checkout.errors.restricted", message.params)}
          </li>
        ))}
      </ul>
    </div>
  );
}
