import type en from "../en/admin-demo-data";

export default {
  banner: "示範銀行帳戶——顧客會被要求付款至此帳戶",
  bannerDemoMode:
    "本店正以示範模式運作，付款頁會顯示此帳戶並註明為示範。真實顧客光臨前，請加入你自己的帳戶並設為主要帳戶。",
  bannerLive: "本店已正式運作（示範模式已關閉）：在你加入自己的帳戶並設為主要帳戶之前，付款頁會拒絕所有訂單。",
  bankAccounts: "銀行帳戶",
  remove: "移除示範資料",
  title: "移除示範資料",
  intro:
    "商店建立時附帶的示範貨品目錄、網誌文章、銀行帳戶、主頁橫額圖片及主頁文字。移除後無法還原。訂單一概不受影響：訂單項目會保留下單時的名稱、顏色及價格。",
  whatHeading: "將會移除",
  products: "示範貨品（連同顏色、圖片及購物車項目）",
  texts: "主頁及頁尾的示範文字",
  textsNote: "示範的主頁標題、副標題及頁尾文字會被清空，主頁標題改為顯示商店名稱。你在「商店資料」改過的文字會保留。",
  editedHeading_one: "{{count}} 件你編輯過的示範貨品",
  editedHeading_other: "{{count}} 件你編輯過的示範貨品",
  editedIntro:
    "商店建立後你曾修改以下貨品。已剔選的會保留為你自己的貨品（不再是示範資料，顏色、圖片及存貨不變）；取消剔選即會與示範資料一併移除。",
  keepProduct: "保留 {{name}}",
  lastEdited: "最後編輯於 {{date}}",
  categories: "示範分類",
  blogPosts: "示範網誌文章",
  bankAccount: "示範銀行帳戶",
  heroImage: "主頁的示範橫額圖片",
  heroYes: "是",
  heroNo: "否",
  heroNote: "主頁會改回預設橫額圖片。",
  kept: "以下示範分類含有你自己的貨品（或你保留的已編輯示範貨品），因此會保留（不再標示為示範）：{{names}}",
  noAccountLeft: "示範帳戶是本店唯一的銀行帳戶：移除後，在你於「設定」加入自己的帳戶之前，顧客將無法付款。",
  nothing: "已沒有示範資料需要移除。",
  confirm: "立即移除示範資料",
  confirmHeading: "移除以上全部內容？",
  cancel: "取消",
  settingsHeading: "示範資料",
  settingsText: "商店建立時附帶的示範貨品目錄、網誌文章、銀行帳戶及主頁橫額圖片。",
  settingsLink: "查看及移除示範資料",
  removed: "已移除示範資料",
  removedDetail:
    "已移除：貨品 {{products}} · 分類 {{categories}} · 網誌文章 {{blogPosts}} · 銀行帳戶 {{bankAccounts}}。",
  removedDetailKept:
    "已移除：貨品 {{products}} · 分類 {{categories}} · 網誌文章 {{blogPosts}} · 銀行帳戶 {{bankAccounts}}。保留為你自己的貨品：{{kept}} 件已編輯貨品。",
  nothingRemoved: "已沒有示範資料需要移除",
  badRequest: "請按「立即移除示範資料」以移除示範資料。",
} satisfies typeof en;
