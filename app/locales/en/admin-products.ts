/** English text of one admin screen; zh/admin-products.ts must have the same keys. */
export default {};
