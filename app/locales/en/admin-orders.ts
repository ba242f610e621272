/** English text of one admin screen; zh/admin-orders.ts must have the same keys. */
export default {
  title: "Orders Management",
};
