import type en from "../en/admin-brands";

/** 品牌清單的中文文字；必須與 en/admin-brands.ts 的鍵相同。 */
export default {
  errors: {
    slugTaken: "已有其他品牌使用此網址代稱（或由名稱產生的代稱），請選擇另一個。",
    notFound: "此品牌已不存在。",
    inUse: "仍有 {{count}} 件產品使用品牌「{{name}}」。請先為這些產品選擇其他品牌（或不設品牌），然後再刪除。",
  },
} satisfies typeof en;
