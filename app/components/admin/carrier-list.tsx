import { useTranslation } from "~/lib/i18n";

/** The id of the one `<datalist>` of carriers a page renders (`CarrierList`). */
export const CARRIER_LIST_ID = "carriers";

/**
 * Carriers a Hong Kong shop ships with, offered as suggestions: the carrier is free text
 * (docs/decisions/061), so a shop using another one simply types it. The value is the name the
 * customer's e-mail shows; the Chinese name is a label beside it for the admin reading Chinese.
 */
export const COMMON_CARRIERS: readonly { value: string; zh: string }[] = [
  { value: "SF Express", zh: "順豐速運" },
  { value: "Hongkong Post", zh: "香港郵政" },
  { value: "Hongkong Post Speedpost (EMS)", zh: "香港郵政特快專遞" },
  { value: "DHL Express", zh: "DHL 速遞" },
  { value: "FedEx", zh: "聯邦快遞" },
  { value: "UPS", zh: "UPS 優比速" },
  { value: "Kerry Express", zh: "嘉里快遞" },
  { value: "ZTO Express", zh: "中通快遞" },
];

/** The carriers' `<datalist>` (once a page; inputs point at it with `list={CARRIER_LIST_ID}`). */
export function CarrierList() {
  const zh = useTranslation().language === "zh";
  return (
    <datalist id={CARRIER_LIST_ID}>
      {COMMON_CARRIERS.map((carrier) => (
        <option key={carrier.value} value={carrier.value}>
          {zh ? carrier.zh : null}
        </option>
      ))}
    </datalist>
  );
}
