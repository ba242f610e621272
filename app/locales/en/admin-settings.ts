/** English text of one admin screen; zh/admin-settings.ts must have the same keys. */
export default {
  title: "Settings",
};
