/** English text of one admin screen; zh/admin-customers.ts must have the same keys. */
export default {
  title: "Customer Management",
};
