import type en from "../en/admin-search";

export default {
  title: "搜尋同義詞",
  intro:
    "顧客用來指同一樣東西的不同字詞。搜尋一組之中任何一個字詞，都會找到整組字詞找到的產品：搜尋「步槍」也會找到名為「長槍」或「rifle」的產品。",
  back: "返回設定",
  label: "同義詞組",
  hint: "每行一組，字詞之間以逗號或斜線分隔，例如：長槍, 步槍, rifle。最多 100 組，每組 2 至 10 個字詞，每個字詞 2 至 40 個字元。系統會在產品名稱或類別（中英文）的任何位置尋找字詞，不分大小寫。儲存空白清單即不使用同義詞。",
  stateDefault: "目前使用商店的預設清單。",
  stateEdited: "你的清單，於 {{date}} 編輯。",
  count_one: "{{count}} 組",
  count_other: "{{count}} 組",
  save: "儲存同義詞",
  saving: "儲存中……",
  saved: "已儲存搜尋同義詞。",
  reset: "還原預設清單",
  resetHint: "以商店原有的清單取代你的清單。",
  resetDone: "已重新使用預設的搜尋同義詞。",
  keep: "保留我的清單",
  summary: {
    heading: "搜尋同義詞",
    intro: "顧客用來指同一樣東西的不同字詞（步槍、長槍、rifle），令中英文搜尋都找得到。",
    edit: "編輯搜尋同義詞",
  },
  errors: {
    textTooLong: "清單太長，最多 {{max}} 個字元。",
    tooManyGroups: "最多 {{max}} 組（每行一組）。",
    tooManyTerms: "第 {{line}} 行：每組最多 {{max}} 個字詞。",
    oneTerm: "第 {{line}} 行：每組最少要有兩個字詞，以逗號或斜線分隔。",
    termTooShort: "第 {{line}} 行：「{{term}}」太短，每個字詞最少要有 {{min}} 個字元。",
    termTooLong: "第 {{line}} 行：有字詞超過 {{max}} 個字元。",
    termRepeated: "第 {{line}} 行：「{{term}}」已在第 {{first}} 行的組別之中，每個字詞只可屬於一組。",
    more_one: "……另有 {{count}} 個問題。",
    more_other: "……另有 {{count}} 個問題。",
  },
} satisfies typeof en;
