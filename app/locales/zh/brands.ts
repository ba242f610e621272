import type en from "../en/brands";

/** 店面的品牌文字（docs/decisions/052）；必須與 en/brands.ts 的鍵相同。 */
export default {
  filterLabel: "品牌",
  filterHeading: "品牌：",
  allBrands: "所有品牌",
  brandCount: "{{name}}（{{count}}）",
  active: "品牌：{{name}}",
  clear: "清除品牌",
  clearNamed: "清除品牌 {{name}}",
  productBrand: "品牌",
  moreFrom: "更多 {{name}} 產品",
} satisfies typeof en;
