import type en from "../en/discounts";

export default {
  fieldLabel: "優惠碼",
  fieldHint: "有優惠碼？請在此輸入。",
  apply: "使用",
  remove: "移除優惠碼",
  removeNamed: "移除優惠碼 {{code}}",
  line: "折扣（{{code}}）",
  freeShippingNote: "包括免運費。",
  applied: "已使用優惠碼 {{code}}。",
  removed: "已移除優惠碼 {{code}}。",
  appliedCode: "已使用優惠碼 {{code}}。",
  notApplying: "優惠碼 {{code}} 目前不適用：",
  errors: {
    codeRequired: "請輸入優惠碼。",
    unknownShort: "沒有這個優惠碼。",
    unknown: "沒有優惠碼 {{code}}，請檢查拼寫。",
    notActive: "優惠碼 {{code}} 未啟用。",
    notYetValid: "優惠碼 {{code}} 尚未生效。",
    expired: "優惠碼 {{code}} 已過期。",
    minimum: "優惠碼 {{code}} 需最少消費 {{amount}}。",
    minimumEligible: "優惠碼 {{code}} 需在適用貨品上最少消費 {{amount}}。",
    usedUp: "優惠碼 {{code}} 已被用完。",
    alreadyUsed: "你已使用過優惠碼 {{code}}。",
    notForItems: "優惠碼 {{code}} 不適用於購物車內的貨品。",
    emptyCart: "請先把貨品加入購物車，再輸入優惠碼。",
  },
} satisfies typeof en;
