import type en from "../en/shop-alerts";

/** 商店通知電郵的中文文字（app/models/outbox/alerts.server.ts）。 */
export default {
  customer: "顧客：{{customer}} <{{email}}>",
  amount: "金額：{{amount}}",
  deadline: "付款期限：{{deadline}}（香港時間）",
  openOrder: "打開訂單",
  orderPlaced: {
    subject: "新訂單 {{number}}：{{amount}}",
    heading: "新訂單 {{number}}",
    withReceipt: "顧客下單時已附上轉帳收據，正等待你審核。",
    payLater: "顧客選擇稍後付款：暫時未有收據。",
  },
  receiptUploaded: {
    subject: "待審核收據：訂單 {{number}}",
    heading: "有收據等待你審核",
    text: "顧客上載了訂單 {{number}} 的轉帳收據，正等待你審核。",
  },
  receiptReplaced: {
    subject: "待審核的新收據：訂單 {{number}}",
    heading: "有新收據等待你審核",
    text: "顧客為訂單 {{number}} 上載了新的轉帳收據，取代被拒絕的收據，正等待你審核。",
  },
  orderExpired: {
    subject: "訂單 {{number}} 逾期未付款",
    heading: "訂單 {{number}} 逾期未付款",
    text: "訂單 {{number}} 在付款期限 {{deadline}}（香港時間）前未收到付款。系統已取消訂單、退回庫存，並已通知顧客。",
  },
  deadlineExtended: {
    subject: "付款期限已延長：訂單 {{number}}",
    heading: "付款期限已延長",
    text: "訂單 {{number}} 的付款期限現延至 {{deadline}}（香港時間）。",
  },
  messageFailed: {
    subject: "未能寄出：{{subject}}",
    heading: "有訊息未能寄出",
    text: "系統嘗試寄出這則訊息 24 小時後已放棄。你可以在「管理後台 → 訊息」再次寄出。",
    subjectLine: "主旨：{{subject}}",
    recipient: "收件人：{{recipient}}",
    attempts: "嘗試次數：{{attempts}}",
    lastError: "最後錯誤：{{error}}",
    order: "訂單：{{number}}（{{url}}）",
    open: "打開訊息",
  },
} satisfies typeof en;
