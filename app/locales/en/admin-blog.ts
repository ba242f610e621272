/** English text of one admin screen; zh/admin-blog.ts must have the same keys. */
export default {
  title: "Blog Posts",
};
