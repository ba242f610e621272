import type en from "../en/admin-feeds";

export default {
  title: "購物資料饋送",
  back: "返回設定",
  intro:
    "產品資料饋送列出顧客看得到的每件產品，每個款式（顏色及尺碼）一項，包括價格、特價、庫存、圖片、GTIN/MPN 及運費，供 Google Merchant Center（免費產品資訊及購物廣告）使用。請為你銷售的每種語言及貨幣開啟一個資料饋送，然後在 Merchant Center 以「定期擷取」加入其地址。",
  choose: "要發佈的資料饋送",
  chooseHint: "已關閉的資料饋送會回應「找不到」。價格與產品頁以該貨幣顯示的相同。",
  language: "語言",
  languages: { en: "英文", zh: "中文" },
  feedLabel: "{{language}}資料饋送（{{currency}}）",
  save: "儲存",
  saved: "已儲存購物資料饋送",
  urlsHeading: "貼到 Merchant Center 的地址",
  none: "尚未開啟任何資料饋送。",
  summaryIntro: "供 Google Merchant Center 使用的產品資料饋送，按語言及貨幣分開。",
  manage: "選擇資料饋送",
} satisfies typeof en;
