import { FormAlert } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem } from "~/lib/problem";
import { translateKey } from "~/lib/translate-key";

/** The form contract's own refusal in the receipt's words: a body over the limit is a receipt too large. */
const RECEIPT_WORDS: Record<string, Problem> = {
  "error.bodyTooLarge": { key: "payment.tooLarge", detailKey: "payment.tooLargeDetail" },
};

/** Why a receipt upload was refused, as an alert above the file input (payment, replacing a receipt). */
export function ReceiptProblem({ problem }: { problem: Problem }) {
  const { t } = useTranslation();
  const shown = RECEIPT_WORDS[problem.key] ?? problem;
  const params = shown.params ?? problem.params;
  return (
    <FormAlert
      title={translateKey(t, shown.key, params)}
      detail={shown.detailKey ? translateKey(t, shown.detailKey, params) : undefined}
    />
  );
}
