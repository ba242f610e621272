/** English text of the brands list; zh/admin-brands.ts must have the same keys. */
export default {
  errors: {
    slugTaken: "Another brand already uses this slug (or a name that makes it). Please choose a different one.",
    notFound: "This brand no longer exists.",
    inUse:
      "{{count}} products still use the brand “{{name}}”. Choose another brand (or none) for them first, then delete it.",
  },
};
