import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { messageLang } from "~/components/admin/messages";
import { Field, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { TimelineEntry } from "~/models/orders/notes.server";
import { NOTE_MAX } from "~/schemas/order-note";

/**
 * The order's history (docs/decisions/058): its changes (audit entries), the e-mails that went
 * out and the team's notes, oldest first, each with who and when (Hong Kong time), and the form
 * that adds a note (a plain POST: errors come back next to the field with the text kept).
 */
export function OrderHistory({
  entries,
  date,
  result,
}: {
  entries: TimelineEntry[];
  date: (value: string) => string;
  /** The page action's answer, when it was the note form's. */
  result: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const mine = result?.initialValue?.intent === "addNote";
  const errors = mine ? result?.error?.body : undefined;
  return (
    <AdminSection id="history" look="panel" heading={t("adminOrders.history")}>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("adminOrders.historyEmpty")}</p>
      ) : (
        <ol className="mt-2 space-y-2 text-sm" data-testid="order-history">
          {entries.map((entry) => (
            <li key={`${entry.kind}-${entry.kind === "audit" ? `${entry.action}-${entry.at}` : entry.id}`}>
              <HistoryLine entry={entry} date={date} />
            </li>
          ))}
        </ol>
      )}
      <Form method="post" className="mt-4 flex flex-col gap-2 border-t border-stone-200 pt-4" data-testid="note-form">
        <Field
          label={t("adminOrders.staffNotes.label")}
          htmlFor="note-body"
          hint={t("adminOrders.staffNotes.hint")}
          errors={errors}
          errorId="note-body-errors"
        >
          <textarea
            id="note-body"
            name="body"
            rows={3}
            maxLength={NOTE_MAX}
            required
            // A refused note comes back with its text; after a saved one the form is empty again.
            key={mine ? "refused" : `notes-${entries.length}`}
            defaultValue={mine ? String(result?.initialValue?.body ?? "") : undefined}
            aria-invalid={errors ? true : undefined}
            aria-describedby="note-body-errors"
            className={inputClass}
          />
        </Field>
        <StatusButton name="intent" value="addNote" className="self-start">
          {t("adminOrders.staffNotes.add")}
        </StatusButton>
      </Form>
    </AdminSection>
  );
}

function HistoryLine({ entry, date }: { entry: TimelineEntry; date: (value: string) => string }) {
  const { t } = useTranslation();
  const when = <span className="whitespace-nowrap text-stone-500">{date(entry.at)}</span>;
  if (entry.kind === "note") {
    return (
      <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2" data-testid="staff-note">
        <p className="text-xs text-stone-600">
          {when} ·{" "}
          <span className="[overflow-wrap:anywhere]">
            {entry.author
              ? t("adminOrders.staffNotes.noteBy", { email: entry.author })
              : t("adminOrders.staffNotes.noteByDeleted")}
          </span>
        </p>
        <p className="mt-1 whitespace-pre-line text-stone-900 [overflow-wrap:anywhere]">{entry.body}</p>
      </div>
    );
  }
  if (entry.kind === "message") {
    return (
      <p className="[overflow-wrap:anywhere]" data-testid="history-message">
        {when} · {t("adminOrders.staffNotes.emailSent", { recipient: entry.recipient })}{" "}
        {/* The subject is in the recipient's language, marked as such (as Admin → Messages does). */}
        <span lang={messageLang(entry.language)}>{entry.subject}</span>
      </p>
    );
  }
  const name = entry.action.replace(/^order\./, "");
  return (
    <p>
      {when} ·{" "}
      {t(`adminOrders.historyActions.${name}` as "adminOrders.historyActions.placed", { defaultValue: entry.action })}
      {entry.actor ? (
        <span className="text-stone-500"> · {t("adminOrders.historyBy", { email: entry.actor })}</span>
      ) : entry.action === "order.expired" ? (
        <span className="text-stone-500"> · {t("adminOrders.historySystem")}</span>
      ) : null}
    </p>
  );
}
