/** English text of one admin screen; zh/admin-categories.ts must have the same keys. */
export default {};
