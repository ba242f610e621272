/** English text of one admin screen; zh/dashboard.ts must have the same keys. */
export default {};
