/** English text of brands in the storefront (docs/decisions/052); zh/brands.ts must have the same keys. */
export default {
  filterLabel: "Brand",
  filterHeading: "Brand:",
  allBrands: "All brands",
  brandCount: "{{name}} ({{count}})",
  active: "Brand: {{name}}",
  clear: "Clear brand",
  clearNamed: "Clear brand {{name}}",
  productBrand: "Brand",
  moreFrom: "More from {{name}}",
};
