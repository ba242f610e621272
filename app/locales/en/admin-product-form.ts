/** English text of one admin screen; zh/admin-product-form.ts must have the same keys. */
export default {};
