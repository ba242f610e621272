import { FormAlert } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem } from "~/lib/problem";
import { translateKey } from "~/lib/translate-key";

/** Why a receipt upload was refused, as an alert above the file input (payment, replacing a receipt). */
export function ReceiptProblem({ problem }: { problem: Problem }) {
  const { t } = useTranslation();
  return (
    <FormAlert
      title={translateKey(t, problem.key, problem.params)}
      detail={problem.detailKey ? translateKey(t, problem.detailKey, problem.params) : undefined}
    />
  );
}
